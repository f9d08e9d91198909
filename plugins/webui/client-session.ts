// The seam between the WebSocket and the client protocol: the shared ClientSession (plugin-host/client-api)
// serves the page's lines exactly as the cli plugin serves its socket's, so nothing here knows a method.
import type { ClientSession, ClientTransport } from '../../plugin-host/client-api';

export type { ClientSession, ClientTransport };

/** Opens a session over a transport. */
export type OpenClientSession = (transport: ClientTransport) => ClientSession;
