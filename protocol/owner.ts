// The owner mark: a call that a client protocol server vouches is the machine owner's own (homectl or waiter on the
// cli plugin's admin socket, which only homed's user can open). It is believed only from a plugin that holds
// `config.guarded` (a built-in), so a page, a bridge or a package cannot claim it. Only such a call widens what the
// agent may do: a guarded setting, an approvals rule, an "always" answer, a package granted what only the owner grants.
import type { ParamPermission } from './descriptor';
import type { Permission } from './permissions';

/** Params of a method whose call may be the owner's own. */
export interface OwnerParams {
  /** The call is the machine owner's own (see above); set by the serving plugin, never taken from a client. */
  owner?: boolean;
}

/** The `owner` field's schema. */
export const OWNER_FIELD = { type: 'boolean' } as const;

/** Permissions only the owner grants a package, on its own call: with them a plugin could change what the agent may do. */
export const OWNER_GRANTED_PERMISSIONS: readonly Permission[] = ['admin', 'config.others'];

/** What a call claiming the owner needs: `config.guarded`, which only a built-in client protocol server holds. */
export function ownerClaim<P extends OwnerParams>(method: string): (params: P) => ParamPermission | undefined {
  return (params) => (params.owner === true ? { what: `${method} for the machine's owner`, anyOf: ['config.guarded'] } : undefined);
}
