// OpenClaw's loose lists: an array of values, or one comma-separated string.

/** An array's entries as trimmed strings, or a CSV string split; empty entries and other types give nothing. */
export function readStringList(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry) => {
      if (entry === null || entry === undefined || typeof entry === 'object') return [];
      const text = String(entry as string | number | boolean).trim();
      return text ? [text] : [];
    });
  }
  if (typeof value === 'string')
    return value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  return [];
}

/** A string value trimmed, or undefined when it is not a string or is blank. */
export function readString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text || undefined;
}
