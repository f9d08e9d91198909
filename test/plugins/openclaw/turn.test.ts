// Skills in a turn with the fake LLM and a real homed: the skills block is in the system prompt (ready,
// model-invocable skills only); the model calls skill_read, then exec with the skill's program, which runs with the
// skill's api key and variables in its environment and finds the program on homed's PATH, while no other process
// holds the key; `/name args` becomes a message asking to follow the skill, a skill that cannot be used is
// answered at once, an unknown `/word` passes unchanged. skill_read runs unasked by default, even with no terminal.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ApprovalsApi, SkillsApi, SocketApi } from '../../../protocol';
import { BLOCK_HEADER } from '../../../plugins/openclaw/prompt-block';
import { startFakeLlmFor } from '../../fake-llm/server';
import { callOnce } from '../../../plugins/cli/client';
import { adminSocketBeside, allowTools } from '../../harness/approvals';
import { runWaiter } from '../../harness/waiter';
import { skillText, startSkillsRig, type SkillsRig } from './rig';

interface ChatBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}

const SECRET = 'wk-secret-4417';

async function say(rig: SkillsRig, session: string, text: string): Promise<string> {
  const said = await runWaiter(['-data', rig.homed.dataDir, '--session', session, '-say', text]);
  assert.equal(said.code, 0, said.stderr);
  return said.stdout;
}

/** Writes the skills of these tests and waits until the plugin has refreshed (and set its block) with all of them. */
async function writeSkills(rig: SkillsRig, bin: string): Promise<void> {
  rig.putOnPath(bin, '#!/bin/sh\necho "sunny in $1"\n');
  const weather = { primaryEnv: 'WEATHER_KEY', requires: { bins: [bin], env: ['WEATHER_KEY'] } };
  rig.writeSkill(
    'weather',
    skillText('weather', { description: 'Current weather for a city', openclaw: weather, body: `Run \`${bin} CITY\`; scripts are in {baseDir}/scripts.\n` }),
  );
  rig.writeSkill(
    'hidden',
    skillText('hidden', { description: 'Only for people', frontmatter: 'disable-model-invocation: true\n', body: 'Say the hidden words.\n' }),
  );
  rig.writeSkill('needs-x', skillText('needs-x', { openclaw: { requires: { bins: ['ha-not-installed-x'] } } }));
  rig.writeSkill('off', skillText('off'));
  await callOnce(rig.adminSocket, SocketApi.ConfigSet, { scope: 'openclaw', key: 'skills.weather.api_key', value: SECRET });
  await callOnce(rig.adminSocket, SocketApi.ConfigSet, { scope: 'openclaw', key: 'skills.weather.env', value: { WEATHER_UNITS: 'metric' } });
  await rig.waitStatus('weather', 'ready');
  await rig.waitStatus('hidden', 'ready');
  await rig.waitStatus('needs-x', 'missing');
  // Answered after a refresh that set the block: the next turn's system prompt has it.
  await rig.call(SkillsApi.Disable, { name: 'off' });
}

describe('skills in a turn', () => {
  it('offers the block, reads the skill, runs its command with the api key that no other process holds', async (t) => {
    const llm = await startFakeLlmFor(t);
    const rig = await startSkillsRig(t, { llm });
    await allowTools(rig.homed.socket, ['exec']);
    // Plain commands: a sandboxed one has a /tmp of its own, where the test's PATH folder is not.
    await callOnce(adminSocketBeside(rig.homed.socket), SocketApi.ConfigSet, { scope: 'exec', key: 'tracking', value: 'snapshot' });
    const bin = `ha-weather-${process.pid}`;
    await writeSkills(rig, bin);
    const command = `printf %s "$WEATHER_KEY" > key.txt; printf %s "$WEATHER_UNITS" > units.txt; ${bin} Hangzhou`;
    llm.enqueue(
      { toolCalls: [{ name: 'skill_read', args: { name: 'weather' } }] },
      { toolCalls: [{ name: 'exec', args: { command } }] },
      { text: 'It is sunny.' },
    );
    assert.equal(await say(rig, 'cli:weather', 'weather in Hangzhou?'), 'It is sunny.\n');

    const [asked, read, ran] = llm.requests.map((request) => request.body as ChatBody);
    const system = asked?.messages.find((message) => message.role === 'system')?.content ?? '';
    assert.ok(system.includes(`${BLOCK_HEADER}\n- weather: Current weather for a city`), system);
    for (const name of ['hidden', 'needs-x', 'off']) assert.equal(system.includes(`- ${name}:`), false, `${name} is not offered`);
    assert.ok(
      asked?.tools?.some((tool) => tool.function.name === 'skill_read'),
      'skill_read is offered',
    );

    const skillRead = JSON.parse(read?.messages.find((message) => message.role === 'tool')?.content ?? '{}') as Record<string, unknown>;
    const folder = path.join(rig.skillsDir, 'weather');
    assert.deepEqual(skillRead, {
      name: 'weather',
      path: path.join(folder, 'SKILL.md'),
      folder,
      instructions: `Run \`${bin} CITY\`; scripts are in ${folder}/scripts.\n`,
      env: ['PATH', 'WEATHER_KEY', 'WEATHER_UNITS'],
    });
    const execResult = JSON.parse(ran?.messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '{}') as { exit_code: number; output: string };
    assert.deepEqual([execResult.exit_code, execResult.output], [0, 'sunny in Hangzhou\n']);
    const workspace = path.join(rig.homed.dataDir, 'workspace');
    assert.equal(fs.readFileSync(path.join(workspace, 'key.txt'), 'utf8'), SECRET);
    assert.equal(fs.readFileSync(path.join(workspace, 'units.txt'), 'utf8'), 'metric');
    for (const request of llm.requests) assert.equal(request.rawBody.includes(SECRET), false, 'the key never reaches the model');

    const { plugins } = await callOnce(rig.adminSocket, SocketApi.PluginsList, {});
    const pids = [rig.homed.pid, ...plugins.flatMap((plugin) => (plugin.pid ? [plugin.pid] : []))];
    assert.ok(pids.length > 3, JSON.stringify(plugins));
    for (const pid of pids) assert.equal(fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(SECRET), false, `process ${pid} does not hold the key`);
  });

  it('turns /name args into a request to follow the skill, answers a skill that cannot be used, passes /unknown', async (t) => {
    const llm = await startFakeLlmFor(t);
    const rig = await startSkillsRig(t, { llm });
    await writeSkills(rig, `ha-weather-${process.pid}`);
    const lastUser = (index: number): string =>
      (llm.requests[index]?.body as ChatBody).messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';

    llm.enqueue({ text: 'ok' });
    await say(rig, 'cli:slash', '/weather Hangzhou');
    assert.equal(
      lastUser(0),
      'The person invoked the skill "weather" with: Hangzhou\nCall skill_read {"name": "weather"} first, then follow that skill\'s instructions for this request.',
    );

    const before = llm.requests.length;
    // A skill that cannot be used is a failure, not an answer: waiter -say exits 1 with the reason on stderr.
    const refusedSay = async (text: string): Promise<string> => {
      const said = await runWaiter(['-data', rig.homed.dataDir, '--session', 'cli:slash', '-say', text]);
      assert.deepEqual([said.code, said.stdout], [1, ''], said.stderr);
      return said.stderr;
    };
    assert.equal(
      await refusedSay('/needs-x now'),
      'waiter: The skill "needs-x" cannot be used here: missing (bins: ha-not-installed-x); homectl skills info needs-x shows what it needs. (HA_ERR_CONFLICT)\n',
    );
    assert.equal(
      await refusedSay('/off'),
      'waiter: The skill "off" is disabled by the owner (openclaw:skills.off.enabled is false; homectl skills enable off turns it on). (HA_ERR_CONFLICT)\n',
    );
    assert.equal(llm.requests.length, before, 'answered without the model');

    llm.enqueue({ text: 'ok' });
    await say(rig, 'cli:slash', '/nosuchskill keep this');
    assert.equal(lastUser(before), '/nosuchskill keep this');

    // A skill kept from the model is read in the turn a person invoked it, and only there.
    // Reading a skill is allowed by default: waiter with no terminal (as here) reads it without a question.
    llm.enqueue({ toolCalls: [{ name: 'skill_read', args: { name: 'hidden' } }] }, { text: 'said' });
    const hidden = await runWaiter(['-data', rig.homed.dataDir, '--session', 'cli:slash', '-say', '/hidden']);
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.equal(hidden.stdout, 'said\n');
    assert.doesNotMatch(hidden.stderr, /nobody could be asked|Allow skill_read/);
    const invoked = JSON.parse((llm.requests.at(-1)?.body as ChatBody).messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '{}') as {
      instructions?: string;
    };
    assert.equal(invoked.instructions, 'Say the hidden words.\n');
    llm.enqueue({ toolCalls: [{ name: 'skill_read', args: { name: 'hidden' } }] }, { text: 'refused' });
    await say(rig, 'cli:slash', 'read the hidden skill');
    const refused = (llm.requests.at(-1)?.body as ChatBody).messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
    assert.match(refused, /the skill \\"hidden\\" is used only when a person invokes it \(\/hidden\); it is not offered to the model/);
    const { decisions } = await callOnce(rig.homed.socket, ApprovalsApi.List, { session: 'cli:slash', limit: 100 });
    assert.deepEqual(
      decisions.filter((d) => d.tool === 'skill_read').map((d) => [d.decision, d.by]),
      [
        ['allow', 'policy'],
        ['allow', 'policy'],
      ],
      'both reads went by the default policy, nobody was asked',
    );
  });
});
