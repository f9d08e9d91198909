// The cli plugin's socket in-process with its real chat rows and router, the agent scripted: what the
// compiled waiter talks to in these tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { createChatMethods } from '../../../../plugin-host/client-api/chat/methods';
import { ChatRouter } from '../../../../plugin-host/client-api/chat/router';
import { startSocketServer } from '../../../../plugins/cli/server';
import { makeTempDir } from '../../../harness/homed';
import { silentLog } from '../fakes';
import { ScriptedAgent, type ScriptedReply } from '../scripted-agent';

export interface ChatServer {
  socket: string;
  dir: string;
  agent: ScriptedAgent;
  router: ChatRouter;
}

/** Serves chat on a temp socket until the test ends. */
export async function startChatServer(t: TestContext, reply?: (text: string) => ScriptedReply): Promise<ChatServer> {
  const dir = makeTempDir('waiter-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const router = new ChatRouter(silentLog);
  const agent = new ScriptedAgent(router, reply);
  const server = await startSocketServer({
    path: path.join(dir, 'homed.sock'),
    maxClients: 8,
    methods: createChatMethods(agent.io, router, agent.kernel),
    log: silentLog,
  });
  t.after(() => server.close());
  return { socket: server.path, dir, agent, router };
}
