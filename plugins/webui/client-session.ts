// The seam between the WebSocket and the client protocol. The page's lines are the socket's lines: one
// request per message, answers and stream items back. The shared ClientSession (plugin-host/client-api)
// serves them; until that lands, `relayToSocket` hands each line to homed's Unix socket, which serves the
// same methods with the same checks, so nothing here knows a method.
import { connect } from 'node:net';
import { ErrorCodes, ErrorNames, type SocketError } from '../../protocol';
import { LineSplitter } from '../cli/lines';

/** How a session writes to its client. */
export interface ClientTransport {
  /** Writes one line (no newline); false when the peer is behind (the session pauses until `drained`). */
  write(line: string): boolean;
  /** Ends the connection after the lines written so far; `farewell` is a last error line for the client. */
  end(farewell?: SocketError): void;
}

/** One client of the protocol, fed by its transport. */
export interface ClientSession {
  /** One complete line from the client. */
  receive(line: string): void;
  /** The transport drained (after write returned false). */
  drained(): void;
  /** The peer is gone: abort running calls. */
  close(): void;
}

/** Opens a session over a transport. */
export type OpenClientSession = (transport: ClientTransport) => ClientSession;

/** Answers from homed longer than this end the relay (homed's own answer cap is lower). */
const MAX_RELAYED_LINE_BYTES = 64 * 1024 * 1024;

/** A session served by homed's socket at `socketPath`: lines go in and come back unchanged. */
export function relayToSocket(socketPath: string): OpenClientSession {
  return (transport) => {
    const socket = connect(socketPath);
    const splitter = new LineSplitter(MAX_RELAYED_LINE_BYTES);
    let open = true;
    socket.on('data', (chunk: Buffer) => {
      const { lines, overflow } = splitter.push(chunk);
      for (const line of lines) if (!transport.write(line)) socket.pause();
      if (overflow) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!open) return;
      open = false;
      transport.end({ code: ErrorCodes.PluginUnavailable, name: ErrorNames[ErrorCodes.PluginUnavailable] ?? 'HA_ERR_PLUGIN_UNAVAILABLE', message: `homed's socket ${socketPath} closed; the page reconnects by itself` });
    });
    return {
      receive: (line) => void socket.write(`${line}\n`),
      drained: () => socket.resume(),
      close: () => {
        open = false;
        socket.destroy();
      },
    };
  };
}
