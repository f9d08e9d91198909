import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Table from 'cli-table3';
import type { BenchRow } from './results';

/** Prints the rows as one table, a section per block. */
export function printTable(rows: readonly BenchRow[]): void {
  const table = new Table({
    head: ['figure', 'value', 'baseline', 'ratio', 'target'],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    colAligns: ['left', 'right', 'left', 'right', 'left'],
  });
  let section = '';
  for (const row of rows) {
    if (row.section !== section) {
      section = row.section;
      table.push([section, '', '', '', '']);
    }
    table.push([
      `  ${row.figure}`,
      formatValue(row.value, row.unit),
      `${formatValue(row.baseline, row.unit)}  ${row.baselineName}`,
      Number.isFinite(row.ratio) ? `${row.ratio.toFixed(2)}×` : '–',
      row.met === null ? '' : `${row.target}  ${row.met ? 'met' : 'MISSED'}`,
    ]);
  }
  process.stdout.write(`${table.toString()}\n`);
}

/** Writes the rows and the machine they were measured on as JSON. */
export function writeJson(file: string, rows: readonly BenchRow[], seconds: number): void {
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', loadavg: os.loadavg() };
  const body = { measuredAt: new Date().toISOString(), seconds, machine, rows };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
}

function formatValue(value: number, unit: BenchRow['unit']): string {
  if (!Number.isFinite(value)) return '–';
  if (unit === 'msg/s') return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}
