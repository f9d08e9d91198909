// What homectl webui open|sessions|revoke reach (WebuiApi, protocol/webui.ts): plain handlers over the login store.
import { serve, type ClientMethodDefinition } from '../../plugin-host';
import { WebuiApi } from '../../protocol/webui';
import type { HostPolicy } from './hosts';
import type { LoginStore } from './logins';

/** The webui's client methods, bound to a login store and the server's address. */
export function createWebuiMethods(logins: () => LoginStore, hosts: () => HostPolicy): ClientMethodDefinition[] {
  return [
    serve(WebuiApi.Open, () => ({ url: `${hosts().baseUrl()}/#login=${logins().issueLink()}` })),
    serve(WebuiApi.Sessions, () => ({
      sessions: logins()
        .list()
        .map(({ id, createdAt, lastSeenAt, userAgent }) => ({ id, createdAt, lastSeenAt, userAgent })),
    })),
    serve(WebuiApi.Revoke, (params) => ({ revoked: logins().revoke(params) })),
  ];
}
