// One round of checks: probe the kernel (within a deadline), judge its figures, the plugins and the disk, add the
// latest database checks and, when asked, the provider; the report's overall severity is its worst finding's.
import type { KernelClient } from '../../plugin-host';
import { HealthProbeRequest, worstSeverity, type HealthFinding, type HealthProbeResult, type HealthReport, type QuickCheckResult } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import { databaseFindings } from './checks/databases';
import { diskFinding, type DiskSpace } from './checks/disk';
import { KERNEL_BOUNDS, kernelFindings, probeFinding } from './checks/kernel';
import { pluginFindings } from './checks/plugins';
import { providerFinding } from './checks/provider';

/** What a round reads. */
export interface RoundInputs {
  kernel: KernelClient;
  /** The latest quick_check, or null before the first. */
  databases: QuickCheckResult | null;
  /** When the first quick_check is due (ms since the epoch), or null. */
  firstCheckDueAt: number | null;
  /** Ask the provider too, waiting at most this long; undefined: skip it. */
  providerTimeoutMs?: number;
  /** Reads free space (tests give a figure). */
  readDisk?: (dir: string) => Promise<DiskSpace>;
  probeDeadlineMs?: number;
}

/** Runs one round and returns its report. */
export async function runRound(inputs: RoundInputs): Promise<HealthReport> {
  const started = performance.now();
  const findings: HealthFinding[] = [];
  const probed = await probeWithin(inputs.kernel, inputs.probeDeadlineMs ?? KERNEL_BOUNDS.probeDeadlineMs);
  if ('probe' in probed) {
    findings.push(
      ...kernelFindings(probed.probe, probed.ms),
      ...pluginFindings(probed.probe.plugins),
      await diskFinding(probed.probe.data_dir, inputs.readDisk),
    );
  } else {
    findings.push(probeFinding(null, probed.failure));
  }
  findings.push(...databaseFindings(inputs.databases, inputs.firstCheckDueAt));
  if (inputs.providerTimeoutMs !== undefined) findings.push(await providerFinding(inputs.kernel, inputs.providerTimeoutMs));
  return {
    at: new Date().toISOString(),
    overall: worstSeverity(findings.map((f) => f.severity)),
    findings,
    duration_ms: Math.round(performance.now() - started),
  };
}

/** health/probe with its round trip, or why it failed (`null` ms past the deadline). */
async function probeWithin(kernel: KernelClient, deadlineMs: number): Promise<{ probe: HealthProbeResult; ms: number } | { failure: string }> {
  const started = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), deadlineMs);
  try {
    const probe = await kernel.call(HealthProbeRequest, {}, abort.signal);
    return { probe, ms: performance.now() - started };
  } catch (error) {
    return {
      failure: abort.signal.aborted ? `health/probe got no answer within ${formatDuration(deadlineMs)}` : `health/probe failed: ${(error as Error).message}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
