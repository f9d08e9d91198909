// The client methods the webui plugin serves (homectl webui open|sessions|revoke reach them through the socket).

/** Their wire names. */
export const WebuiMethods = { Open: 'webui/open', Sessions: 'webui/sessions', Revoke: 'webui/revoke' } as const;

/** `webui/open` → a one-time sign-in link. */
export interface WebuiOpenResult {
  /** `http(s)://HOST:PORT/#login=SECRET`, valid once, for 10 minutes. */
  url: string;
}

/** A browser signed in to the web page. */
export interface WebuiSessionRow {
  /** Short public id, for revoke. */
  id: string;
  /** When its link was exchanged (ms since the epoch). */
  createdAt: number;
  /** Its last request (ms since the epoch). */
  lastSeenAt: number;
  /** Its User-Agent at sign-in. */
  userAgent: string;
}

/** `webui/sessions` → the browsers signed in. */
export interface WebuiSessionsResult {
  /** One row per signed-in browser. */
  sessions: WebuiSessionRow[];
}

/** `webui/revoke` params: one session by id, or all of them. */
export type WebuiRevokeParams = { id: string } | { all: true };

/** `webui/revoke` → how many sessions ended. */
export interface WebuiRevokeResult {
  /** Sessions ended. */
  revoked: number;
}
