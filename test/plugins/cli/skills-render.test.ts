// The pure renderers of homectl skills list|info|check, on answers shaped as protocol/skills.ts gives them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SkillInfo, SkillsCheckResult, SkillsListResult, SkillSummary } from '../../../protocol';
import { renderSkillCheck, renderSkillInfo, renderSkillList } from '../../../plugins/cli/commands/skills-render';
import { cutToWidth, describeMissing, describeStatus } from '../../../plugins/cli/commands/skills-words';

function summary(name: string, changes: Partial<SkillSummary> = {}): SkillSummary {
  return { name, description: `${name} does things`, status: 'ready', source: 'data', key: name, userInvocable: true, modelInvocable: true, ...changes };
}

function info(changes: Partial<SkillInfo> = {}): SkillInfo {
  return {
    ...summary('github'),
    path: '/data/skills/github/SKILL.md',
    checks: [],
    install: [],
    settings: { enabled: true, env: [], apiKey: false },
    warnings: [],
    shadows: [],
    ...changes,
  };
}

describe('skills words', () => {
  it('says what a missing skill lacks, kind by kind in checking order', () => {
    assert.equal(
      describeMissing({ env: ['GH_TOKEN'], bins: ['gh', 'jq'], anyBins: ['python3', 'python'] }),
      'bins: gh, jq; one of bins: python3, python; env: GH_TOKEN',
    );
    assert.equal(describeStatus({ status: 'missing', missing: { bins: ['gh'] } }), 'missing (bins: gh)');
    assert.equal(describeStatus({ status: 'disabled' }), 'disabled');
  });

  it('cuts text to a width with an ellipsis, flattening newlines, and leaves short text alone', () => {
    assert.equal(cutToWidth('short', 10), 'short');
    assert.equal(cutToWidth('a long description\nover lines', 12), 'a long desc…');
    assert.equal([...cutToWidth('é'.repeat(30), 10)].length, 10);
  });
});

describe('skills list', () => {
  const listed: SkillsListResult = {
    skills: [
      summary('github', {
        status: 'missing',
        missing: { bins: ['gh'] },
        description: 'Interact with GitHub using the gh CLI: issues, pull requests, runs and the API, all from the command line',
      }),
      summary('weather', { source: 'package:weather' }),
      summary('broken', { status: 'error', description: '', error: 'invalid frontmatter: UNTERMINATED_FRONTMATTER' }),
    ],
    shadowed: [
      {
        ...summary('weather', { source: 'extra:/home/lin/.openclaw/skills' }),
        path: '/home/lin/.openclaw/skills/weather/SKILL.md',
        shadowedBy: '/data/packages/weather/SKILL.md',
      },
    ],
    ready: 1,
    total: 3,
  };

  it('shows status with what is missing, name, description cut to the width, source; then the shadowed and N/M ready', () => {
    const text = renderSkillList(listed, 80);
    const lines = text.split('\n');
    assert.match(lines[0] ?? '', /^STATUS\s+NAME\s+DESCRIPTION\s+SOURCE$/);
    const github = lines.find((l) => l.includes('github')) ?? '';
    assert.match(github, /^missing \(bins: gh\)\s+github\s+Interact with GitHub.*…\s+data$/);
    // The skills table fits; the shadowed table keeps its paths whole.
    for (const line of lines.slice(0, lines.indexOf(''))) assert.ok([...line].length <= 80, `"${line}" is wider than 80`);
    assert.match(text, /error\s+broken\s+invalid frontmatter: UNTERMINATED…\s+data/);
    assert.match(
      text,
      /shadowed \(a skill of the same name wins\):\nNAME\s+SOURCE\s+STATUS\nweather\s+extra:\/home\/lin\/\.openclaw\/skills\s+shadowed by \/data\/packages\/weather\/SKILL\.md/,
    );
    assert.match(text, /\n1\/3 ready$/);
  });

  it('cuts a long missing status so the description keeps its room', () => {
    const long = summary('tracker', {
      status: 'missing',
      missing: { bins: ['a-very-long-program-name'], env: ['TRACKER_TOKEN'] },
      description: 'Tracks parcels with a command-line tool',
    });
    const row = renderSkillList({ skills: [long], shadowed: [], ready: 0, total: 1 }, 100).split('\n')[1] ?? '';
    assert.match(row, /^missing \(bins: a-very-long-prog…\s+tracker\s+Tracks parcels with a command-line tool\s+data$/);
  });

  it('leaves a description whole when the width has room, and tells where skills go when there are none', () => {
    assert.match(renderSkillList(listed, 300), /the API, all from the command line\s+data/);
    assert.match(renderSkillList({ skills: [], shadowed: [], ready: 0, total: 0 }), /^no skills \(put folders with a SKILL\.md in the skills folder/);
  });
});

describe('skills info', () => {
  it('shows status, source, path, settings without values, each requirement with ✓/✗, install options with the setup hint', () => {
    const text = renderSkillInfo(
      info({
        status: 'missing',
        missing: { bins: ['gh'] },
        homepage: 'https://cli.github.com',
        primaryEnv: 'GH_TOKEN',
        checks: [
          { kind: 'bins', name: 'gh', ok: false },
          { kind: 'env', name: 'GH_TOKEN', ok: true },
        ],
        install: [
          { id: 'brew', kind: 'brew', label: 'brew install gh', bins: ['gh'], applies: false, spec: { kind: 'brew', formula: 'gh' } },
          { id: 'node-1', kind: 'node', label: 'npm install -g gh-cli', bins: ['gh'], applies: true, spec: { kind: 'node', package: 'gh-cli' } },
        ],
        settings: { enabled: true, env: ['GH_HOST'], apiKey: true },
        warnings: ['install entry 3 dropped: its url is not http(s)'],
        shadows: ['/home/lin/.openclaw/skills/github/SKILL.md'],
      }),
    );
    assert.match(text, /status\s+missing \(bins: gh\)/);
    assert.match(text, /path\s+\/data\/skills\/github\/SKILL\.md/);
    assert.match(text, /homepage\s+https:\/\/cli\.github\.com/);
    assert.match(text, /primary env\s+GH_TOKEN/);
    assert.match(text, /settings\s+enabled; env sets GH_HOST; api key set \(openclaw:skills\.github\.enabled\|env\|api_key\)/);
    assert.match(text, /requirements:\n {2}✗ bins gh\n {2}✓ env GH_TOKEN/);
    assert.match(text, /\n {2}brew {4}gives gh; not for this machine {2}brew install gh\n/);
    assert.match(text, /\n {2}node-1 {2}gives gh {24}npm install -g gh-cli\n/);
    assert.match(text, /homectl skills setup github ID runs one/);
    assert.match(text, /warnings:\n {2}install entry 3 dropped/);
    assert.match(text, /shadows \(same name, lower precedence\):\n {2}\/home\/lin/);
  });

  it('leaves install options out of a ready skill and says when nothing is required', () => {
    const text = renderSkillInfo(info({ install: [{ id: 'x', kind: 'uv', label: 'uv tool install x', bins: ['x'], applies: true, spec: {} }] }));
    assert.doesNotMatch(text, /install options/);
    assert.match(text, /requirements: none/);
    assert.match(text, /settings\s+enabled; no env; api key not set/);
  });
});

describe('skills check', () => {
  it('totals every status, lists what each missing skill lacks and each unreadable one with its path', () => {
    const checked: SkillsCheckResult = {
      totals: { ready: 2, missing: 1, disabled: 1, blocked: 0, error: 1 },
      missing: [{ name: 'github', missing: { bins: ['gh'], env: ['GH_TOKEN'] } }],
      errors: [{ name: 'broken', path: '/data/skills/broken/SKILL.md', error: 'invalid frontmatter: UNTERMINATED_FRONTMATTER' }],
    };
    const text = renderSkillCheck(checked);
    assert.match(text, /^2 ready, 1 missing, 1 disabled, 0 blocked, 1 error\n/);
    assert.match(text, /missing:\n {2}github {2}bins: gh; env: GH_TOKEN/);
    assert.match(text, /cannot be read \(1 skill\):\n {2}broken {2}\/data\/skills\/broken\/SKILL\.md\n {4}invalid frontmatter/);
    const clean = renderSkillCheck({ totals: { ready: 1, missing: 0, disabled: 0, blocked: 0, error: 0 }, missing: [], errors: [] });
    assert.match(clean, /nothing is missing/);
  });
});
