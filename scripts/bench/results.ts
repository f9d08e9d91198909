/** One measured figure beside its same-run baseline. */
export interface BenchRow {
  /** Which section of the issue it answers (`1 rpc`, `2 startup`, …). */
  section: string;
  figure: string;
  value: number;
  unit: 'ms' | 'µs' | 'msg/s' | 'turns/s' | 'MB' | 'kB' | '%' | 'tokens';
  /** What the baseline is. */
  baselineName: string;
  baseline: number;
  /** value / baseline. */
  ratio: number;
  /** The target in words, or '' for an informative row. */
  target: string;
  /** Whether the target is met; null when there is none. */
  met: boolean | null;
  /** How many samples the value rests on. */
  samples: number;
}

export type Target =
  | { kind: 'none' }
  | { kind: 'ratio-at-most'; max: number }
  | { kind: 'ratio-at-least'; min: number }
  | { kind: 'value-at-most'; max: number }
  | { kind: 'value-at-least'; min: number };

/** Builds a row, computing the ratio and whether the target holds. */
export function makeRow(
  section: string,
  figure: string,
  value: number,
  unit: BenchRow['unit'],
  baselineName: string,
  baseline: number,
  samples: number,
  target: Target = { kind: 'none' },
): BenchRow {
  const ratio = baseline > 0 ? value / baseline : Number.NaN;
  return { section, figure, value, unit, baselineName, baseline, ratio, samples, ...describeTarget(target, value, ratio, unit) };
}

function describeTarget(target: Target, value: number, ratio: number, unit: string): { target: string; met: boolean | null } {
  switch (target.kind) {
    case 'none':
      return { target: '', met: null };
    case 'ratio-at-most':
      return { target: `≤ ${target.max}× baseline`, met: ratio <= target.max };
    case 'ratio-at-least':
      return { target: `≥ ${target.min}× baseline`, met: ratio >= target.min };
    case 'value-at-most':
      return { target: `≤ ${target.max} ${unit}`, met: value <= target.max };
    case 'value-at-least':
      return { target: `≥ ${target.min} ${unit}`, met: value >= target.min };
  }
}
