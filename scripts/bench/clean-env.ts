// The same allow-list kernel/supervisor/spawn.ts gives plugin hosts. Every process the bench starts gets it,
// so baselines and ours pay alike: an inherited NODE_EXTRA_CA_CERTS alone adds tens of ms to a Node start.
const ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'HOME', 'USER'];

/** The bench's own environment cut down to the plugin hosts' allow-list. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ALLOWLIST) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}
