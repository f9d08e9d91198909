// Plain, borderless tables (like ps) built with cli-table3.
import Table from 'cli-table3';

const NO_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** Renders rows under a header (omit `head` for a key/value listing), columns two spaces apart, no colours. */
export function renderTable(rows: string[][], head?: string[]): string {
  const table = new Table({
    ...(head ? { head } : {}),
    chars: NO_BORDERS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  table.push(...rows);
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
