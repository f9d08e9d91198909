// What homectl webui open|sessions|revoke reach: plain handlers over the login store, with their params'
// JSON Schemas, in the shape a plugin declares the client methods it serves (`webui/open`, …).
import type { HostPolicy } from './hosts';
import type { LoginStore, WebSession } from './logins';

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
  'webui/open': ServedMethod<Record<string, never>, OpenResult>;
  'webui/sessions': ServedMethod<Record<string, never>, SessionsResult>;
  'webui/revoke': ServedMethod<RevokeParams, RevokeResult>;
} {
  return {
    'webui/open': { params: NO_PARAMS, run: () => ({ url: `${hosts().baseUrl()}/#login=${logins().issueLink()}` }) },
    'webui/sessions': {
      params: NO_PARAMS,
      run: () => ({ sessions: logins().list().map(({ id, createdAt, lastSeenAt, userAgent }) => ({ id, createdAt, lastSeenAt, userAgent })) }),
    },
    'webui/revoke': {
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
