import { NO_PARAMS, objectSchema, request } from './descriptor';
import { BOOLEAN_FIELD, PATH_FIELD, PLUGIN_NAME_FIELD, SHA256_FIELD, wholeNumberField } from './fields';
import { MAX_LOG_LINES } from './limits';
import type { LogLevel } from './log';
import type { KernelHealth } from './healthcheck';
import type { PluginManifest } from './manifest';
import { OWNER_FIELD, ownerClaim, type OwnerParams } from './owner';
import type { PluginState } from './plugin-state';
import type { SkillPackageFiles } from './skills';

/** How the last process of a plugin ended. */
export interface LastExit {
  /** Exit code, when it exited by itself. */
  code: number | null;
  /** Signal that ended it. */
  signal: string | null;
  /** Why: `crash`, `handshake-timeout`, `unresponsive`, `rss-limit`, `cpu-limit`, `protocol-violation`, `stopped`, … */
  reason: string;
  /** When (ms since epoch). */
  at: number;
  /** What happened, in words for a person (e.g. the reason a `wire-error` host gave). */
  detail?: string;
}

/** One row of `homectl plugins list --json`. */
export interface PluginStatus {
  /** Plugin name. */
  name: string;
  /** `builtin`, `js`, `lua` or `skill`. */
  kind: string;
  /** Version from its manifest. */
  version: string;
  /** Current state. */
  state: PluginState;
  /** Whether it is enabled (persisted). */
  enabled: boolean;
  /** Process id while a process runs. */
  pid: number | null;
  /** Restarts since the kernel started (or since a person restarted it). */
  restarts: number;
  /** Time in the current process, 0 when none runs. */
  uptime_ms: number;
  /** Resident memory of its process. */
  rss_bytes: number | null;
  /** CPU use of its process, percent of one core. */
  cpu_percent: number | null;
  /** How its last process ended, if one did. */
  last_exit: LastExit | null;
  /** Why it is `failed` or `backoff`, in words. */
  detail: string | null;
  /** Calls it made that a permission check refused. */
  denied_calls: number;
  /** Calls to it that missed their deadline. */
  timeouts: number;
  /** A third-party plugin without a uid of its own: why, in words that say it runs as the homed user. Absent where the wall holds, and for built-ins. */
  runs_as_homed_user?: string;
}

/** `homectl plugins info`: the status plus its manifest and where it lives. */
export interface PluginInfo extends PluginStatus {
  /** Its manifest. */
  manifest: PluginManifest;
  /** Its folder. */
  dir: string;
  /** Its writable data folder. */
  dataDir: string;
  /** Permissions granted. */
  permissions: string[];
  /** Tools it declared at its last handshake. */
  tools: string[];
  /** Stages it handles. */
  stages: string[];
  /** Events it subscribes to. */
  subscriptions: string[];
  /** Process walls in force for it, each with whether it is active and why not. */
  sandbox: { wall: string; active: boolean; note: string }[];
}

export type PluginsListParams = Record<string, never>;
/** plugin → kernel (admin): every plugin's status. */
export const PluginsListRequest = request<PluginsListParams, { plugins: PluginStatus[] }>('plugins/list', { params: NO_PARAMS, permission: 'admin' });

export interface PluginNameParams {
  /** Plugin name. */
  name: string;
}
/** plugin → kernel (admin): one plugin in detail. */
export const PluginsInfoRequest = request<PluginNameParams, { plugin: PluginInfo }>('plugins/info', {
  params: objectSchema({ name: PLUGIN_NAME_FIELD }, ['name']),
  permission: 'admin',
});

export const PLUGIN_ACTIONS = ['start', 'stop', 'restart', 'enable', 'disable'] as const;
export type PluginAction = (typeof PLUGIN_ACTIONS)[number];
/** `owner`: the owner's own call, which alone stops or disables a plugin that guards tool calls (before_toolcall), or enables a disabled one. */
export interface PluginControlParams extends PluginNameParams, OwnerParams {
  /** What to do. */
  action: PluginAction;
}
/** plugin → kernel (admin): start, stop, restart, enable or disable a plugin; answers once done. */
export const PluginsControlRequest = request<PluginControlParams, { plugin: PluginStatus }>('plugins/control', {
  params: objectSchema({ name: PLUGIN_NAME_FIELD, action: { enum: [...PLUGIN_ACTIONS] }, owner: OWNER_FIELD }, ['name', 'action']),
  permission: 'admin',
  paramPermission: ownerClaim('plugins/control'),
});

/** One kept log line of a plugin. */
export interface LogLine {
  /** When (ms since epoch). */
  at: number;
  /** Severity. */
  level: LogLevel;
  /** `stdout`, `stderr`, `sdk` (logs/write) or `kernel` (supervisor notes). */
  stream: string;
  /** Text. */
  msg: string;
  /** The line's fields, as the plugin gave them (logs/write). */
  fields?: Record<string, unknown>;
}
export interface PluginLogsParams extends PluginNameParams {
  /** How many of the newest lines (default 100). */
  lines?: number;
}
/** plugin → kernel (admin): a plugin's recent log lines. */
export const PluginsLogsRequest = request<PluginLogsParams, { lines: LogLine[] }>('plugins/logs', {
  params: objectSchema({ name: PLUGIN_NAME_FIELD, lines: wholeNumberField(1, MAX_LOG_LINES) }, ['name']),
  permission: 'admin',
});

export interface KernelStatus {
  /** HomeAgent version. */
  version: string;
  /** Kernel process id. */
  pid: number;
  /** Time since start. */
  uptime_ms: number;
  /** Data dir in use. */
  dataDir: string;
  /** Plugins ready / total enabled / total known. */
  plugins: { ready: number; enabled: number; total: number };
  /** Kernel resident memory. */
  rss_bytes: number;
  /** Node.js version. */
  node: string;
  /** Turns running now and messages waiting for theirs. */
  turns: { running: number; waiting: number };
  /** The healthcheck plugin's latest report and the watchdog's verdict. */
  health?: KernelHealth;
}
/** plugin → kernel (admin): kernel status. */
export const KernelStatusRequest = request<Record<string, never>, KernelStatus>('kernel/status', { params: NO_PARAMS, permission: 'admin' });

/** `owner`: the owner's own call, which alone installs a package asking for OWNER_GRANTED_PERMISSIONS. */
export interface PluginsInstallParams extends OwnerParams {
  /** Absolute path of a .hmap package on this machine. */
  file: string;
  /** Check the package and describe it, writing nothing. */
  inspectOnly?: boolean;
  /** The SHA-256 the person was shown (from an inspectOnly answer): a file that changed since is refused. */
  sha256?: string;
}
export interface PluginsInstallResult {
  /** The package's manifest. */
  manifest: PluginManifest;
  /** `js`, `lua` or `skill`. */
  kind: string;
  /** Its files with their uncompressed sizes. */
  entries: { name: string; size: number }[];
  /** Whether it was installed (false for inspectOnly). */
  installed: boolean;
  /** SHA-256 and size of the package file as it was read (once, for both the checks and the install). */
  sha256: string;
  bytes: number;
  /** The version it replaced, when this was an upgrade. */
  upgradedFrom?: string;
  /** The installed plugin's status. */
  plugin?: PluginStatus;
  /** Where it would get no uid of its own: why, in words that say it runs as the homed user. */
  runs_as_homed_user?: string;
  /** For a skill package: its SKILL.md as text (for `skills/preview`), at most 256 KiB, and its other text files. */
  skill?: { text: string } & SkillPackageFiles;
}
/** plugin → kernel (admin): installs (or only inspects) a .hmap package; a failed install leaves the old version running. */
export const PluginsInstallRequest = request<PluginsInstallParams, PluginsInstallResult>('plugins/install', {
  params: objectSchema({ file: PATH_FIELD, inspectOnly: BOOLEAN_FIELD, sha256: SHA256_FIELD, owner: OWNER_FIELD }, ['file']),
  permission: 'admin',
  paramPermission: ownerClaim('plugins/install'),
});

/** `owner`: the owner's own call, which alone removes a plugin that guards tool calls (before_toolcall). */
export interface PluginsRemoveParams extends PluginNameParams, OwnerParams {
  /** Also delete its data folder and its config table. */
  purge?: boolean;
}
/** plugin → kernel (admin): stops and removes an installed (not built-in) plugin. */
export const PluginsRemoveRequest = request<PluginsRemoveParams, { removed: boolean }>('plugins/remove', {
  params: objectSchema({ name: PLUGIN_NAME_FIELD, purge: BOOLEAN_FIELD, owner: OWNER_FIELD }, ['name']),
  permission: 'admin',
  paramPermission: ownerClaim('plugins/remove'),
});
