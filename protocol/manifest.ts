import { CONFIG_TYPES, type ConfigDef } from './config';
import { PERMISSIONS, type Permission } from './permissions';

/** plugin.json: what a plugin is and what it asks for. */
export interface PluginManifest {
  /** Lower-case name, [a-z0-9-], at most 64 characters; also its config table's suffix. */
  name: string;
  /** Semantic version. */
  version: string;
  /** Entry module relative to the plugin folder (`*.js`, `*.mjs`, `main.lua`, `SKILL.md`). */
  entry: string;
  /** One line saying what it does. */
  description?: string;
  /** Who wrote it. */
  author?: string;
  /** Permissions it asks for. */
  permissions?: Permission[];
  /** Plugins that must be ready before this one starts. */
  depends?: string[];
  /** Settings it owns, rendered by every UI. */
  config?: ConfigDef[];
  /** Order among handlers of one stage: lower runs its patch first. */
  priority?: number;
  /**
   * Prefixes of the client methods it serves besides its own name (`skills` for skills/list…), so that a client
   * calling one while the plugin does not run is told the plugin's state and how to bring it back.
   */
  serves?: string[];
  /** Whether it starts on a fresh install (default true). */
  enabled?: boolean;
  /** Lowest HomeAgent version it runs on. */
  homeagent?: string;
}

const configDefSchema = {
  type: 'object',
  required: ['key', 'type'],
  additionalProperties: false,
  properties: {
    key: { type: 'string', pattern: '^[a-z0-9_][a-z0-9_.-]{0,127}$' },
    type: { enum: [...CONFIG_TYPES] },
    description: {
      type: 'object',
      additionalProperties: false,
      properties: { zh: { type: 'string' }, en: { type: 'string' } },
    },
    category: { type: 'string' },
    options: { type: 'array', items: { type: 'string' } },
    default: {},
    min: { type: 'number' },
    max: { type: 'number' },
    restart: { type: 'boolean' },
    readOnly: { type: 'string', minLength: 1 },
    guarded: { type: 'boolean' },
  },
} as const;

/** JSON Schema of plugin.json, checked with ajv wherever a manifest is read. */
export const pluginManifestSchema = {
  $id: 'https://homeagent.local/schema/plugin.json',
  type: 'object',
  required: ['name', 'version', 'entry'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$' },
    version: {
      type: 'string',
      pattern: '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$',
    },
    entry: { type: 'string', pattern: '^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*/)*[A-Za-z0-9_][A-Za-z0-9_.-]*\\.(?:js|mjs|cjs|lua|md)$' },
    description: { type: 'string', maxLength: 500 },
    author: { type: 'string', maxLength: 200 },
    permissions: { type: 'array', uniqueItems: true, items: { enum: [...PERMISSIONS] } },
    depends: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$' } },
    config: { type: 'array', items: configDefSchema },
    priority: { type: 'integer', minimum: -1000, maximum: 1000 },
    serves: { type: 'array', uniqueItems: true, maxItems: 16, items: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' } },
    enabled: { type: 'boolean' },
    homeagent: { type: 'string' },
  },
} as const;
