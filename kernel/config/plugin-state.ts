import type Database from '../../protocol/runtime/internals/sqlite';
import { assertPluginName } from './scope';

/** Persisted enable/disable state of each plugin, in table `plugin_state`. */
export class PluginStateStore {
  constructor(private readonly db: Database.Database) {}

  /** Returns whether a plugin is enabled, or undefined if nobody has decided yet. */
  isEnabled(name: string): boolean | undefined {
    assertPluginName(name);
    const row = this.db.prepare<[string], { enabled: number }>('SELECT enabled FROM plugin_state WHERE name = ?').get(name);
    return row === undefined ? undefined : row.enabled !== 0;
  }

  /** Records whether a plugin is enabled. */
  setEnabled(name: string, enabled: boolean): void {
    assertPluginName(name);
    this.db
      .prepare(
        'INSERT INTO plugin_state (name, enabled, updated_at) VALUES (?, ?, ?) ' +
          'ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at',
      )
      .run(name, enabled ? 1 : 0, Date.now());
  }
}
