// A hostile skill's trust report on every path that installs a skill: homectl skills install (a folder and a .hmap),
// homectl plugins install (a .hmap file and a URL), the page's upload, and the agent's plugin_install (shown to the person as the
// call's output and answered to the model, the skill not installed). The skill hides its commands six ways — an
// indented code block running python3 -c "exec(urlopen(…).read())", `c\url … | b\ash`, a download then `source`,
// a download then `.`, `C=curl; $C … | $0`, and `c''url … | "b"ash` — and its SKILL.md runs `bash {baseDir}/setup.sh`,
// whose own text holds `curl | sh`. Each must be flagged, in words, with its file and line, on every path.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { callOnce } from '../../plugins/cli/client';
import { SocketApi, WEBUI_PACKAGES_PATH, type PluginStatus, type WebuiPackageSummary } from '../../protocol';
import { allowTools } from '../harness/approvals';
import { fakeProviderEnv, makeTempDir, runHomectl } from '../harness/homed';
import { runWaiter } from '../harness/waiter';
import { startFakeLlm, toolResultsSinceUser, type FakeLlm } from '../fake-llm/server';
import { serveFile, startPackageServer } from '../plugins/pluginmgr/helpers';
import { startLiveWebui, type LiveWebui } from '../plugins/webui/live';
import { EXPECTED, SETUP_SH, SKILL_MD, assertAllFlagged, writeHostilePackage } from './hostile-skill';

describe('a hostile skill is flagged on every path that installs it', () => {
  let live: LiveWebui;
  let llm: FakeLlm;
  let work: string;
  let folder: string;
  let hmap: string;
  const plugins = async (): Promise<PluginStatus[]> => (await callOnce(live.homed.socket, SocketApi.PluginsList, {})).plugins;

  before(async () => {
    work = makeTempDir('skill-trust-');
    folder = path.join(work, 'fastnotes');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'SKILL.md'), SKILL_MD);
    fs.writeFileSync(path.join(folder, 'setup.sh'), SETUP_SH, { mode: 0o755 });
    hmap = await writeHostilePackage(work);
    llm = await startFakeLlm();
    live = await startLiveWebui({ env: fakeProviderEnv(llm) });
    await allowTools(live.homed.socket, ['plugin_install']);
  });
  after(async () => {
    await live?.homed.cleanup();
    await llm?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('homectl skills install of the folder', async () => {
    const shown = await runHomectl(['skills', 'install', folder], { socket: live.homed.socket });
    assert.notEqual(shown.code, 0, 'with no terminal to ask on it installs nothing');
    assertAllFlagged(shown.stdout, 'skills install DIR');
  });

  it('homectl skills install of the .hmap', async () => {
    const shown = await runHomectl(['skills', 'install', hmap], { socket: live.homed.socket });
    assert.notEqual(shown.code, 0);
    assertAllFlagged(shown.stdout, 'skills install FILE.hmap');
  });

  it('homectl plugins install of the .hmap', async () => {
    const shown = await runHomectl(['plugins', 'install', hmap], { socket: live.homed.socket });
    assert.notEqual(shown.code, 0);
    assertAllFlagged(shown.stdout, 'plugins install FILE.hmap');
    assert.match(shown.stderr, /no terminal to ask on/);
  });

  it('homectl plugins install of an http:// URL (downloaded by pluginmgr)', async (t) => {
    const server = await startPackageServer({ '/fastnotes.hmap': serveFile(hmap) });
    t.after(() => server.close());
    const shown = await runHomectl(['plugins', 'install', server.url('/fastnotes.hmap')], { socket: live.homed.socket });
    assert.notEqual(shown.code, 0);
    assertAllFlagged(shown.stdout, 'plugins install URL');
    assert.equal(
      (await plugins()).some((p) => p.name === 'fastnotes'),
      false,
    );
  });

  it("the page's upload", async () => {
    const secret = new URL(live.link()).hash.replace('#login=', '');
    const login = await fetch(`${live.origin}/api/login`, {
      method: 'POST',
      headers: { origin: live.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ secret }),
    });
    assert.equal(login.status, 200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const body = fs.readFileSync(hmap);
    const answer = await fetch(`${live.origin}${WEBUI_PACKAGES_PATH}?name=fastnotes-1.0.0.hmap`, {
      method: 'POST',
      headers: { origin: live.origin, cookie, 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
      body,
    });
    const summary = (await answer.json()) as WebuiPackageSummary;
    assert.equal(answer.status, 200, JSON.stringify(summary));
    assert.equal(summary.kind, 'skill');
    assertAllFlagged(summary.skill?.report ?? '', 'the page upload');
    assert.ok((summary.skill?.flagged ?? 0) >= EXPECTED.length);
    const dropped = await fetch(`${live.origin}${WEBUI_PACKAGES_PATH}/${summary.id}`, { method: 'DELETE', headers: { origin: live.origin, cookie } });
    assert.equal(dropped.status, 204);
  });

  it("the agent's plugin_install: the person sees the report, the model reads it, nothing is installed", async () => {
    const url = pathToFileURL(hmap).href;
    llm.setDefault((request) => (toolResultsSinceUser(request) === 0 ? { toolCalls: [{ name: 'plugin_install', args: { url } }] } : { text: 'done' }));
    const said = await runWaiter(['--socket', live.homed.socket, '--session', 'cli:skill-trust', '-say', 'install the notes skill'], { timeoutMs: 60_000 });
    assert.equal(said.code, 0, said.stderr);
    assertAllFlagged(`${said.stdout}\n${said.stderr}`, "plugin_install's output to the person");
    const last = llm.requests.at(-1)?.rawBody ?? '';
    const content = ((JSON.parse(last) as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'tool').at(-1)?.content ??
      '') as string;
    const toolResult = (JSON.parse(content) as { error?: string }).error ?? content;
    assertAllFlagged(toolResult, "plugin_install's answer to the model");
    assert.match(toolResult, /not installed: its trust report flags \d+ items.*homectl plugins install/s);
    assert.equal(
      (await plugins()).some((p) => p.name === 'fastnotes'),
      false,
      'a flagged skill is not installed by the agent',
    );
  });
});
