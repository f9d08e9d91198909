import type { MessageConnection } from 'vscode-jsonrpc';
import { ErrorCodes, haError, SessionsListRequest, SessionsShowRequest } from '../../protocol';
import { listSessions, showSession } from '../agent/session-views';
import type { SessionStore } from '../agent/sessions';
import { bindRequest, type SdkCaller } from './binder';

/** How many of a conversation's newest entries sessions/show returns when the call does not say. */
const DEFAULT_SHOWN_ENTRIES = 200;

/** sessions/list and sessions/show, for plugins granted `admin`. */
export function bindSessionMethods(connection: MessageConnection, caller: SdkCaller, sessions: SessionStore): void {
  bindRequest(connection, caller, SessionsListRequest, (params) => ({ sessions: listSessions(sessions.database, params.all === true) }));
  bindRequest(connection, caller, SessionsShowRequest, (params) => {
    const shown = showSession(sessions.database, params.session, params.limit ?? DEFAULT_SHOWN_ENTRIES);
    if (!shown) throw haError(ErrorCodes.NotFound, `there is no session "${params.session}"; homectl sessions list shows them`, { session: params.session });
    return shown;
  });
}
