// What homectl webui open|sessions|revoke reach: plain handlers over the login store, with their params'
// JSON Schemas, in the shape a plugin declares the client methods it serves (`webui/open`, …).
import type { HostPolicy } from './hosts';
import type { LoginStore, WebSession } from './logins';

/** The wire names of the client methods this plugin serves. */
export const WebuiMethods = { Open: 'webui/open', Sessions: 'webui/sessions', Revoke: 'webui/revoke' } as const;

/** `webui/open` → a one-time sign-in link. */
export interface OpenResult {
  /** `http(s)://HOST:PORT/#login=SECRET`, valid once, for 10 minutes. */
  url: string;
}

/** `webui/sessions` → the browsers signed in. */
export interface SessionsResult {
  sessions: Pick<WebSession, 'id' | 'createdAt' | 'lastSeenAt' | 'userAgent'>[];
}

/** `webui/revoke` params: one session by id, or all of them. */
export type RevokeParams = { id: string } | { all: true };

/** `webui/revoke` → how many sessions ended. */
export interface RevokeResult {
  revoked: number;
}

/** A client method this plugin serves: its params' schema and its handler. */
export interface ServedMethod<P, R> {
  params: Record<string, unknown>;
  run(params: P): R | Promise<R>;
}

const NO_PARAMS = { type: 'object', additionalProperties: false, properties: {} } as const;

/** The webui's client methods, by wire name, bound to a login store and the server's address. */
export function createWebuiMethods(logins: () => LoginStore, hosts: () => HostPolicy): {
  [WebuiMethods.Open]: ServedMethod<Record<string, never>, OpenResult>;
  [WebuiMethods.Sessions]: ServedMethod<Record<string, never>, SessionsResult>;
  [WebuiMethods.Revoke]: ServedMethod<RevokeParams, RevokeResult>;
} {
  return {
    [WebuiMethods.Open]: { params: NO_PARAMS, run: () => ({ url: `${hosts().baseUrl()}/#login=${logins().issueLink()}` }) },
    [WebuiMethods.Sessions]: {
      params: NO_PARAMS,
      run: () => ({ sessions: logins().list().map(({ id, createdAt, lastSeenAt, userAgent }) => ({ id, createdAt, lastSeenAt, userAgent })) }),
    },
    [WebuiMethods.Revoke]: {
      params: {
        oneOf: [
          { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } },
          { type: 'object', required: ['all'], additionalProperties: false, properties: { all: { const: true } } },
        ],
      },
      run: (params) => ({ revoked: logins().revoke(params) }),
    },
  };
}
