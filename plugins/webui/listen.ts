// Where the server listens, and what happens when its port is taken. A port the owner set is theirs: a clash is an
// error naming webui:port and the command to change it (moving silently would break their bookmarks and proxies).
// The default port is only a guess, so a clash there moves to the next free port nearby, logged, and the port used
// reaches <run>/webui.port and `homectl webui open`'s link.
import type { FastifyInstance } from 'fastify';
import type { BindMode } from './settings';

/** How many ports after the default are tried before asking the system for any free one. */
export const NEARBY_PORTS = 9;

/** What listening needs: the port, whether the owner set it, and who may reach the page. */
export interface ListenPlan {
  port: number;
  /** Whether webui:port holds a value of the owner's (false: the default). */
  portIsSet: boolean;
  bind: BindMode;
}

/** Where it listens, and the port it wanted when that one was taken. */
export interface Listening {
  port: number;
  movedFrom?: number;
}

/** The configured port is taken and the owner set it: the message names the setting and its fix. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

/** Listens per `plan`; a taken default port moves to a free one, a taken set port throws PortInUseError. */
export async function listenForPage(app: FastifyInstance, plan: ListenPlan): Promise<Listening> {
  try {
    return { port: await listenOn(app, plan.port, plan.bind) };
  } catch (error) {
    if (!inUse(error) || plan.port === 0) throw error;
    if (plan.portIsSet) throw new PortInUseError(portInUseMessage(plan.port, plan.bind));
  }
  for (const port of [...nearby(plan.port), 0]) {
    try {
      return { port: await listenOn(app, port, plan.bind), movedFrom: plan.port };
    } catch (error) {
      if (!inUse(error)) throw error;
    }
  }
  throw new PortInUseError(portInUseMessage(plan.port, plan.bind));
}

/** `127.0.0.1:8420 is in use by another program; set another port: homectl config set webui:port 8421` */
export function portInUseMessage(port: number, bind: BindMode): string {
  const where = bind === 'loopback' ? `127.0.0.1:${port}` : `port ${port}`;
  const next = port < 65535 ? port + 1 : 0;
  return `${where} is in use by another program; set another port: homectl config set webui:port ${next} (0 picks any free one), then homectl plugins restart webui`;
}

/** The ports tried after a taken default, in order. */
function nearby(port: number): number[] {
  return Array.from({ length: NEARBY_PORTS }, (_, i) => port + 1 + i).filter((p) => p <= 65535);
}

function inUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** Loopback: 127.0.0.1 only. LAN: every address, IPv6 and IPv4 (IPv4 alone where IPv6 is off). */
async function listenOn(app: FastifyInstance, port: number, bind: BindMode): Promise<number> {
  if (bind === 'loopback') await app.listen({ host: '127.0.0.1', port });
  else
    await app.listen({ host: '::', port }).catch((error: unknown) => {
      if (inUse(error)) throw error;
      return app.listen({ host: '0.0.0.0', port });
    });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error(`the web server did not report its port (${String(address)})`);
  return address.port;
}
