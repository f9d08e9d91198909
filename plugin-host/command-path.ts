// The PATH every command the exec tool runs gets (it never inherits homed's): one value for exec and for the
// plugins that must find programs the way those commands will (skill gating).

/** The fixed PATH of exec's commands. */
export const COMMAND_PATH = '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin';
