// The Chat page's command menu in chromium against a real homed: typing `/` lists the ready skills a person may
// invoke (not the model-only or missing ones), picking one writes `/name `, and the message sent invokes the skill.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { matchingCommands, typedCommand } from '../../../plugins/webui/app/pages/command-match';
import type { SkillSummary } from '../../../protocol';
import { waitFor } from '../../harness/homed';
import { skip, startBrowserHarness, type BrowserHarness, type GuardedPage } from './browser-harness';

function writeSkill(skillsDir: string, name: string, frontmatter: string[]): void {
  fs.mkdirSync(path.join(skillsDir, name), { recursive: true });
  fs.writeFileSync(path.join(skillsDir, name, 'SKILL.md'), `---\nname: ${name}\n${frontmatter.join('\n')}\n---\n# ${name}\n\nDo the ${name} thing.\n`);
}

describe('the command menu, as text', () => {
  const summary = (name: string, extra: Partial<SkillSummary> = {}): SkillSummary => ({
    name,
    description: name,
    status: 'ready',
    source: 'data',
    key: name,
    userInvocable: true,
    modelInvocable: true,
    ...extra,
  });

  it('is open only while the first word after a leading / is typed', () => {
    assert.equal(typedCommand('/'), '');
    assert.equal(typedCommand('/We'), 'we');
    assert.equal(typedCommand('/weather Hangzhou'), undefined);
    assert.equal(typedCommand('hello /weather'), undefined);
  });

  it('offers ready skills a person may invoke, by prefix, in name order', () => {
    const skills = [summary('weather'), summary('web'), summary('wiki', { status: 'missing' }), summary('wallet', { userInvocable: false }), summary('notes')];
    assert.deepEqual(
      matchingCommands(skills, 'w').map((s) => s.name),
      ['weather', 'web'],
    );
    assert.deepEqual(
      matchingCommands(skills, '').map((s) => s.name),
      ['notes', 'weather', 'web'],
    );
  });
});

describe('the command menu in chromium', { skip }, () => {
  let harness: BrowserHarness;
  let tab: GuardedPage;
  before(async () => {
    harness = await startBrowserHarness({ llm: true });
    tab = await harness.signedInPage();
  });
  after(async () => {
    await harness?.close();
  });

  it('lists the invocable skills as / is typed, and a picked one is invoked by name', async () => {
    const skills = path.join(harness.live.homed.dataDir, 'skills');
    writeSkill(skills, 'weather', ['description: Current weather and forecasts for a city.']);
    writeSkill(skills, 'webcheck', ['description: Checks a site.', 'user-invocable: false']);
    writeSkill(skills, 'wikipedia', ['description: Looks things up.', 'metadata: {"openclaw": {"requires": {"bins": ["no-such-program-here"]}}}']);
    const { page } = tab;
    const box = page.getByLabel('Message');
    const menu = page.getByRole('listbox', { name: 'Skill commands' });
    // The watch picks the new skills up within a second; the menu reads them each time a command starts.
    await waitFor(
      async () => {
        await box.fill('');
        await box.pressSequentially('/w');
        return (await menu.getByRole('option').count()) > 0;
      },
      { what: 'the menu to list the new skill', timeoutMs: 15_000 },
    );
    assert.deepEqual(await menu.getByRole('option').allTextContents(), ['/weather Current weather and forecasts for a city.']);
    await harness.screenshot(page, 'chat-command-menu');
    await menu.getByRole('button', { name: /\/weather/ }).click();
    assert.equal(await box.inputValue(), '/weather ');
    assert.equal(await menu.count(), 0, 'the menu closes once the command is chosen');
    const llm = harness.llm as NonNullable<BrowserHarness['llm']>;
    llm.enqueue({ text: 'Sunny in Hangzhou' });
    await box.pressSequentially('Hangzhou');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('list', { name: 'History' }).getByText('Sunny in Hangzhou').waitFor();
    const asked = (llm.requests.at(-1)?.body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '';
    assert.match(asked, /invoked the skill "weather" with: Hangzhou/);
  });
});
