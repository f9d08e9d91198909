import type { ConfigDef } from '../../protocol';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

// Every key here is read once at start (the supervision policy, the paths, the log ring) and so marked
// `restart`, except core.log.level, which log.ts follows, core.skills.path, which the openclaw plugin follows, and
// core.data.dir, which only homed writes.

// The paths are guarded: pointing one elsewhere (the knowledge folder at /etc, the plugin folder at a user's
// folder) widens what the agent reads or runs, so only the owner moves them, with homectl.
function pathDef(key: string, zh: string, en: string): ConfigDef {
  return { key, type: 'path', category: 'paths', restart: true, guarded: true, description: { zh, en } };
}

function durationDef(key: string, defaultMs: number, zh: string, en: string, min = 1): ConfigDef {
  return { key, type: 'duration', category: 'supervisor', default: defaultMs, min, restart: true, description: { zh, en } };
}

/** Keys older versions defined and nothing reads any more; seedDefaults removes them (definition and value) at start. */
export const RETIRED_CORE_KEYS: readonly string[] = [];

/** Where the kernel keeps its data; seedDefaults fills each under the data directory. */
export const CORE_PATH_DEFS: readonly ConfigDef[] = [
  {
    key: 'core.data.dir',
    type: 'path',
    category: 'paths',
    readOnly: 'start homed with -data DIR (or $HOMEAGENT_DATA) to use another data directory',
    description: {
      zh: '数据目录；homed 每次启动时记录，数据目录搬迁后，位于其下的路径随之重定位。只读：请用 homed -data DIR 指定。',
      en: 'The data directory, recorded by homed at each start, so the paths under it follow when the data directory moves. Read-only: start homed with -data DIR.',
    },
  },
  pathDef('core.plugin.dir', '已安装插件所在的目录。', 'Folder that holds installed plugins.'),
  pathDef('core.memory.graph', '实体关系图谱记忆的 SQLite 数据库文件。', 'SQLite file of the entity-relation graph memory.'),
  pathDef('core.memory.text', '文本记忆的目录。', 'Folder of the text memory.'),
  pathDef('core.memory.documents', '文档记忆的目录。', 'Folder of the document memory.'),
  pathDef('core.knowledge.path', '知识库文档及其索引所在的目录。', 'Folder of the knowledge documents and their index.'),
  pathDef(
    'core.log.path',
    '内核日志文件（按大小轮转）所在的目录，homectl logs 从中读取较早的日志。',
    "Folder of the kernel's log files (rotated by size), where homectl logs reads older lines.",
  ),
  {
    key: 'core.skills.path',
    type: 'path',
    category: 'paths',
    guarded: true,
    description: {
      zh: '技能所在的目录：每个技能是其中的一个文件夹，含一个 SKILL.md（OpenClaw 格式），由 openclaw 插件读取；修改后立即生效。',
      en: 'Folder where skills live: each skill is a folder in it holding a SKILL.md (the OpenClaw format), read by the openclaw plugin; a change applies at once.',
    },
  },
];

// Starting points from VS Code, OTP, systemd and PM2; see docs/ARCHITECTURE.md §12.
const SUPERVISOR_DEFS: readonly ConfigDef[] = [
  durationDef(
    'core.supervisor.handshake_timeout',
    30 * SECOND,
    '插件启动后必须在此时间内答复 initialize，否则视为启动失败。',
    'How long a started plugin has to answer initialize before its start counts as failed.',
  ),
  durationDef(
    'core.supervisor.request_timeout',
    30 * SECOND,
    '内核发给插件的请求在此时间内未获答复即超时。',
    'How long a request from the kernel to a plugin waits for its answer.',
  ),
  durationDef('core.supervisor.heartbeat_interval', 5 * SECOND, '两次心跳检测之间的间隔。', 'Time between two heartbeats sent to each plugin.'),
  durationDef(
    'core.supervisor.heartbeat_timeout',
    3 * SECOND,
    '心跳在此时间内未获答复，插件即被标记为无响应。',
    'A plugin that does not answer a heartbeat within this time is marked unresponsive.',
  ),
  durationDef(
    'core.supervisor.unresponsive_kill_after',
    30 * SECOND,
    '插件持续无响应超过此时间即被终止并重启。',
    'A plugin unresponsive for this long is killed and restarted.',
  ),
  durationDef(
    'core.supervisor.restart_base',
    1 * SECOND,
    '崩溃后重启的初始退避时间，每次连续崩溃翻倍。',
    'First restart backoff after a crash; it doubles with each further crash.',
    0,
  ),
  durationDef('core.supervisor.restart_max', 60 * SECOND, '重启退避时间的上限。', 'Upper bound of the restart backoff.', 0),
  durationDef(
    'core.supervisor.restart_reset_after',
    60 * SECOND,
    '插件健康运行超过此时间后，退避时间恢复为初始值。',
    "After running healthy this long, a plugin's backoff starts over from the base.",
    0,
  ),
  {
    key: 'core.supervisor.crashloop_exits',
    type: 'int',
    category: 'supervisor',
    default: 5,
    min: 1,
    restart: true,
    description: {
      zh: '在崩溃循环窗口内意外退出达到此次数，插件即被标记为失败，不再重启。',
      en: 'Unexpected exits within the crash-loop window after which a plugin is marked failed and no longer restarted.',
    },
  },
  durationDef(
    'core.supervisor.crashloop_window',
    5 * MINUTE,
    '统计崩溃循环次数的时间窗口。',
    'Time window in which unexpected exits are counted for the crash-loop breaker.',
  ),
  durationDef(
    'core.supervisor.shutdown_timeout',
    5 * SECOND,
    '关闭时等待插件答复 shutdown 的时间，超时后发送 SIGTERM。',
    'How long shutdown waits for a plugin to answer shutdown before sending SIGTERM.',
  ),
  durationDef(
    'core.supervisor.kill_grace',
    3 * SECOND,
    '发送 SIGTERM 后等待进程退出的时间，超时后发送 SIGKILL。',
    'How long after SIGTERM a plugin process has to exit before SIGKILL.',
    0,
  ),
  durationDef(
    'core.supervisor.resource_poll_interval',
    2 * SECOND,
    '采样插件 CPU 和内存占用的间隔。',
    "Time between two samples of each plugin's CPU and memory use.",
  ),
];

const LIMIT_DEFS: readonly ConfigDef[] = [
  {
    key: 'core.plugin.max_rss_mb',
    type: 'int',
    category: 'limits',
    default: 256,
    min: 16,
    restart: true,
    description: {
      zh: '单个插件进程允许占用的最大常驻内存（MiB），超出即被终止。',
      en: 'Most resident memory (MiB) a plugin process may use before it is killed.',
    },
  },
  {
    key: 'core.plugin.max_cpu_percent',
    type: 'int',
    category: 'limits',
    default: 0,
    min: 0,
    max: 800,
    restart: true,
    description: {
      zh: '单个插件进程允许的最大 CPU 占用百分比；0 表示不限制。',
      en: 'Most CPU a plugin process may use, in percent of one core; 0 means no limit.',
    },
  },
  {
    key: 'core.plugin.cpu_over_samples',
    type: 'int',
    category: 'limits',
    default: 5,
    min: 1,
    restart: true,
    description: { zh: '连续多少次采样超过 CPU 上限后终止插件。', en: 'How many consecutive samples over the CPU limit before the plugin is killed.' },
  },
  {
    key: 'core.plugin.max_open_files',
    type: 'int',
    category: 'limits',
    default: 256,
    min: 16,
    restart: true,
    description: {
      zh: '第三方插件进程可同时打开的最多文件数（含套接字），由 prlimit 设置。',
      en: 'Most files (sockets included) a third-party plugin process may have open at once, set with prlimit.',
    },
  },
  {
    key: 'core.plugin.limits',
    type: 'json',
    category: 'limits',
    default: {},
    restart: true,
    description: {
      zh: '按插件覆盖资源上限，例如 {"weather": {"rss_mb": 64, "cpu_percent": 50}}。',
      en: 'Per-plugin overrides of the resource limits, e.g. {"weather": {"rss_mb": 64, "cpu_percent": 50}}.',
    },
  },
];

const WIRE_DEFS: readonly ConfigDef[] = [
  {
    key: 'core.wire.max_header_bytes',
    type: 'size',
    restart: true,
    category: 'wire',
    default: 8192,
    min: 256,
    description: { zh: '与插件通信时单条消息头的最大字节数。', en: "Largest message header, in bytes, accepted on a plugin's pipe." },
  },
  {
    key: 'core.wire.max_body_bytes',
    type: 'size',
    restart: true,
    category: 'wire',
    default: 4 * 1024 * 1024,
    min: 1024,
    description: { zh: '与插件通信时单条消息体的最大字节数。', en: "Largest message body, in bytes, accepted on a plugin's pipe." },
  },
];

const LOG_DEFS: readonly ConfigDef[] = [
  {
    key: 'core.log.level',
    type: 'enum',
    category: 'logs',
    options: ['debug', 'info', 'warn', 'error'],
    default: 'info',
    description: { zh: '写入日志的最低级别。', en: 'Lowest level that is written to the log.' },
  },
  {
    key: 'core.log.lines_kept',
    type: 'int',
    category: 'logs',
    default: 500,
    min: 0,
    restart: true,
    description: {
      zh: '每个插件保留的日志行数，供 homectl plugins logs 查看。',
      en: 'Log lines kept per plugin for homectl plugins logs.',
    },
  },
];

/** Every setting of the kernel itself. */
export const CORE_DEFS: readonly ConfigDef[] = [...CORE_PATH_DEFS, ...SUPERVISOR_DEFS, ...LIMIT_DEFS, ...WIRE_DEFS, ...LOG_DEFS];
