import type { ConfigDef, ConfigEntry } from '../../protocol';

/** What a set password looks like everywhere outside the kernel. */
export const MASK = '********';

/** Tells whether a setting's value must never be shown in clear. */
export function isSecret(def: ConfigDef | undefined): boolean {
  return def?.type === 'password';
}

/** Hides a secret entry's value: `"********"` when one is stored, `""` when not; other entries pass unchanged. */
export function maskEntry(entry: ConfigEntry): ConfigEntry {
  if (!isSecret(entry.def)) return entry;
  const hasSecret = entry.isSet && entry.value !== '' && entry.value !== null;
  return { ...entry, value: hasSecret ? MASK : '' };
}
