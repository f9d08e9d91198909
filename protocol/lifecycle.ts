import { NO_PARAMS, notification, objectSchema, request } from './descriptor';
import type { ClientMethodDecl } from './client-methods';
import type { ConfigDef } from './config';
import { PERMISSIONS, type Permission } from './permissions';
import type { StageName } from './stages';
import type { ToolDecl } from './tools';

/** Where a plugin may keep things, as the kernel resolved them. */
export interface PluginPaths {
  /** The kernel's data dir. */
  data: string;
  /** The plugin's own folder (its code). */
  plugin: string;
  /** The plugin's writable data folder. */
  pluginData: string;
  /** Folder for sockets and pid-like files. */
  run: string;
}

export interface InitializeParams {
  /** Wire contract version the kernel speaks. */
  protocolVersion: number;
  /** The plugin's name from its manifest. */
  name: string;
  /** Absolute path of the entry module to load. */
  entry: string;
  /** Whether it is a built-in (trusted) or a third-party plugin. */
  kind: 'builtin' | 'js' | 'lua' | 'skill';
  /** Permissions granted. */
  permissions: Permission[];
  /** Folders it may use. */
  paths: PluginPaths;
  /** HomeAgent version. */
  kernelVersion: string;
}

export interface InitializeResult {
  /** Wire contract version the host speaks; must equal the kernel's. */
  protocolVersion: number;
  /** Tools the plugin provides. */
  tools: ToolDecl[];
  /** Stages it handles. */
  stages: StageName[];
  /**
   * A longer deadline (ms) for its handler of a stage than the kernel's core.agent.stage_timeout, e.g. a guard that
   * asks a person; bounded by MAX_STAGE_TIMEOUT_MS. A stage not named keeps the kernel's deadline.
   */
  stageTimeouts?: Partial<Record<StageName, number>>;
  /** Event names (or `prefix.*`) it subscribes to. */
  subscriptions: string[];
  /** Settings it declares beyond its manifest's. */
  config: ConfigDef[];
  /** Client methods it serves (reached through the cli socket and the web page). */
  clientMethods?: ClientMethodDecl[];
}

/** kernel → plugin: load and declare yourself; answered within the handshake deadline. */
export const InitializeRequest = request<InitializeParams, InitializeResult>('plugin/initialize', {
  params: objectSchema(
    {
      protocolVersion: { type: 'integer' },
      name: { type: 'string' },
      entry: { type: 'string' },
      kind: { enum: ['builtin', 'js', 'lua', 'skill'] },
      permissions: { type: 'array', items: { enum: [...PERMISSIONS] } },
      paths: objectSchema({ data: { type: 'string' }, plugin: { type: 'string' }, pluginData: { type: 'string' }, run: { type: 'string' } }, [
        'data',
        'plugin',
        'pluginData',
        'run',
      ]),
      kernelVersion: { type: 'string' },
    },
    ['protocolVersion', 'name', 'entry', 'kind', 'permissions', 'paths', 'kernelVersion'],
  ),
  permission: null,
});

/** kernel → plugin: the kernel has recorded the declaration; the plugin is ready. */
export const InitializedNotification = notification<Record<string, never>>('plugin/initialized', { params: NO_PARAMS, permission: null });

export interface ShutdownParams {
  /** Why the kernel stops the plugin: `stop`, `restart`, `kernel-shutdown`. */
  reason: string;
}
/** kernel → plugin: release what you hold; the answer means it is safe to exit. */
export const ShutdownRequest = request<ShutdownParams, null>('plugin/shutdown', {
  params: objectSchema({ reason: { type: 'string' } }, ['reason']),
  permission: null,
});

/** kernel → plugin: exit now. */
export const ExitNotification = notification<Record<string, never>>('plugin/exit', { params: NO_PARAMS, permission: null });
