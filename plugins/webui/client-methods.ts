// What homectl webui open|sessions|revoke reach: plain handlers over the login store, with their params'
// JSON Schemas, in the shape a plugin declares the client methods it serves (`webui/open`, …).
import { WebuiMethods, type WebuiOpenResult, type WebuiRevokeParams, type WebuiRevokeResult, type WebuiSessionsResult } from '../../protocol';
import type { HostPolicy } from './hosts';
import type { LoginStore } from './logins';

/** A client method this plugin serves: its params' schema and its handler. */
export interface ServedMethod<P, R> {
  params: Record<string, unknown>;
  run(params: P): R | Promise<R>;
}

const NO_PARAMS = { type: 'object', additionalProperties: false, properties: {} } as const;

/** The webui's client methods, by wire name, bound to a login store and the server's address. */
export function createWebuiMethods(logins: () => LoginStore, hosts: () => HostPolicy): {
  [WebuiMethods.Open]: ServedMethod<Record<string, never>, WebuiOpenResult>;
  [WebuiMethods.Sessions]: ServedMethod<Record<string, never>, WebuiSessionsResult>;
  [WebuiMethods.Revoke]: ServedMethod<WebuiRevokeParams, WebuiRevokeResult>;
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
