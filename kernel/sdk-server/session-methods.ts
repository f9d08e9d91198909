import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, SessionsListRequest, SessionsShowRequest } from '../../protocol';
import { listSessions, showSession } from '../agent/session-views';
import type { SessionStore } from '../agent/sessions';
import type { PluginSupervisor } from '../supervisor/plugin-supervisor';
import { requirePermission } from './permissions';

/** sessions/list and sessions/show, for plugins granted `admin`. */
export function bindSessionMethods(connection: MessageConnection, caller: PluginSupervisor, sessions: SessionStore): void {
  connection.onRequest(SessionsListRequest.type, (params) => {
    requirePermission(caller, SessionsListRequest.method, 'admin');
    return { sessions: listSessions(sessions.database, params?.all === true) };
  });
  connection.onRequest(SessionsShowRequest.type, (params) => {
    requirePermission(caller, SessionsShowRequest.method, 'admin');
    if (typeof params?.session !== 'string' || params.session === '') {
      throw haError(ErrorCodes.InvalidValue, 'sessions/show needs a session id', { plugin: caller.name, method: SessionsShowRequest.method });
    }
    const limit = params.limit ?? 200;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw haError(ErrorCodes.InvalidValue, `limit must be a whole number from 1 to 10000, got ${String(params.limit)}`, { method: SessionsShowRequest.method });
    }
    const shown = showSession(sessions.database, params.session, limit);
    if (!shown) throw haError(ErrorCodes.NotFound, `there is no session "${params.session}"; homectl sessions list shows them`, { session: params.session });
    return shown;
  });
}
