// The overall exposure systemd-analyze security prints, as a number.

/** Reads `→ Overall exposure level for homed.service: 2.5 OK`; throws when the output has no such line. */
export function securityScore(output: string): number {
  const match = /Overall exposure level for \S+: (\d+(?:\.\d+)?)/.exec(output);
  if (!match) throw new Error(`no overall exposure level in systemd-analyze's output:\n${output.slice(-1500)}`);
  return Number(match[1]);
}
