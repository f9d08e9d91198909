// How homectl doctor shows its findings: a line per finding (severity, title), its detail and fix hint below it,
// then a summary; or, with --json, `{findings, summary}`.
import { HEALTH_SEVERITIES, worstSeverity, type HealthFinding, type HealthSeverity } from '../../../protocol';

/** Counts per severity, the worst, and the exit code doctor ends with. */
export interface DoctorSummary {
  counts: Record<HealthSeverity, number>;
  overall: HealthSeverity;
  /** 0 with no warning and no error, else 1. */
  exit_code: number;
}

/** The summary of `findings`. */
export function summarize(findings: readonly HealthFinding[]): DoctorSummary {
  const counts = Object.fromEntries(HEALTH_SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<HealthSeverity, number>;
  const overall = worstSeverity(findings.map((f) => f.severity));
  return { counts, overall, exit_code: overall === 'warning' || overall === 'error' ? 1 : 0 };
}

const MARKS: Record<HealthSeverity, string> = { ok: 'ok     ', info: 'info   ', warning: 'WARNING', error: 'ERROR  ' };

/** Where a finding's detail and fix start: under its title. */
const INDENT = ' '.repeat(MARKS.ok.length + 2);

/** The findings for a person, worst last so they stay in view (in the order found within a severity). */
export function renderFindings(findings: readonly HealthFinding[], summary: DoctorSummary): string {
  const lines: string[] = [];
  const rank = (f: HealthFinding): number => HEALTH_SEVERITIES.indexOf(f.severity);
  for (const f of [...findings].sort((a, b) => rank(a) - rank(b))) {
    lines.push(`${MARKS[f.severity]}  ${f.title}`);
    if (f.detail && f.severity !== 'ok') lines.push(indented(f.detail));
    if (f.fix && f.severity !== 'ok') lines.push(indented(`fix: ${f.fix}`));
  }
  const { counts } = summary;
  lines.push('', `${count(counts.error, 'error')}, ${count(counts.warning, 'warning')}, ${count(counts.info, 'note')}, ${counts.ok} ok`);
  return lines.join('\n');
}

/** Every line of `text` under the finding's title; a fix's further lines line up after `fix: `. */
function indented(text: string): string {
  const more = text.startsWith('fix: ') ? `${INDENT}     ` : INDENT;
  return text
    .split('\n')
    .map((line, i) => `${i === 0 ? INDENT : more}${line.trim()}`)
    .join('\n');
}

/** `1 error`, `2 errors`. */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
