// The line reading of a frontmatter block: `key: value` at the left margin, plus indented continuation lines.
// It fills in keys the YAML reading did not produce.

const KEY_LINE = /^([\w-]+):\s*(.*)$/;

/** Every `key: value` at the left margin; an empty value followed by indented lines takes those lines, trimmed. */
export function readLineKeys(block: string): Record<string, string> {
  const keys: Record<string, string> = {};
  const lines = block.split('\n');
  let i = 0;
  while (i < lines.length) {
    const match = KEY_LINE.exec(lines[i] ?? '');
    i++;
    if (!match) continue;
    const key = match[1] ?? '';
    const inline = (match[2] ?? '').trim();
    if (inline) {
      keys[key] = unquote(inline);
      continue;
    }
    const continuation: string[] = [];
    while (i < lines.length && isContinuation(lines[i] ?? '')) continuation.push(lines[i++] ?? '');
    const value = continuation.join('\n').trim();
    if (value) keys[key] = value;
  }
  return keys;
}

function isContinuation(line: string): boolean {
  return line.length === 0 || line.startsWith(' ') || line.startsWith('\t');
}

function unquote(value: string): string {
  const quoted = value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")));
  return quoted ? value.slice(1, -1) : value;
}
