// The healthcheck plugin's settings (declared in plugin.json), read at the start of each round so a change takes
// effect without a restart.
import type { PluginContext } from '../../plugin-host';

export interface HealthcheckSettings {
  intervalMs: number;
  integrityEveryMs: number;
  integrityFirstAfterMs: number;
  providerTimeoutMs: number;
}

/** The defaults, as plugin.json declares them. */
export const DEFAULT_SETTINGS: HealthcheckSettings = {
  intervalMs: 30_000,
  integrityEveryMs: 6 * 3_600_000,
  integrityFirstAfterMs: 120_000,
  providerTimeoutMs: 20_000,
};

/** Reads every setting; a value that is not a positive number keeps its default. */
export async function readSettings(ctx: PluginContext): Promise<HealthcheckSettings> {
  const [interval, every, first, provider] = await Promise.all(
    ['interval', 'integrity_every', 'integrity_first_after', 'provider_timeout'].map((key) => ctx.config.get(key)),
  );
  return {
    intervalMs: positive(interval, DEFAULT_SETTINGS.intervalMs),
    integrityEveryMs: positive(every, DEFAULT_SETTINGS.integrityEveryMs),
    integrityFirstAfterMs: typeof first === 'number' && first >= 0 ? first : DEFAULT_SETTINGS.integrityFirstAfterMs,
    providerTimeoutMs: positive(provider, DEFAULT_SETTINGS.providerTimeoutMs),
  };
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && value > 0 ? value : fallback;
}
