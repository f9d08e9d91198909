// Whether the kernel answers, how fast, and how late its event loop runs.
import type { HealthFinding, HealthProbeResult, LoopLagFigures } from '../../../protocol';
import { formatDuration } from '../../../protocol/format';

/** Bounds of the kernel checks. */
export const KERNEL_BOUNDS = {
  /** health/probe unanswered this long: the kernel is not serving. */
  probeDeadlineMs: 5_000,
  /** A probe slower than this is worth a warning. */
  slowProbeMs: 1_000,
  /** Mean loop lag of a loop that is busy (warning) and of one that no longer serves (error). */
  lagWarnMeanMs: 100,
  lagErrorMeanMs: 1_000,
  /** One stall this long since the last probe is worth a warning. */
  lagWarnMaxMs: 2_000,
};

/** The round trip of health/probe; `null`: no answer within the deadline (or an error, given as `failure`). */
export function probeFinding(roundTripMs: number | null, failure?: string): HealthFinding {
  if (roundTripMs === null) {
    return {
      check: 'kernel',
      severity: 'error',
      title: 'the kernel does not answer',
      detail: failure ?? `health/probe got no answer within ${formatDuration(KERNEL_BOUNDS.probeDeadlineMs)}`,
      fix: 'homectl logs --level warn',
    };
  }
  const detail = `health/probe answered in ${formatDuration(roundTripMs)}`;
  if (roundTripMs > KERNEL_BOUNDS.slowProbeMs)
    return { check: 'kernel', severity: 'warning', title: 'the kernel answers slowly', detail, fix: 'homectl status' };
  return { check: 'kernel', severity: 'ok', title: 'the kernel answers', detail };
}

/** The event loop's lag since the last probe. */
export function loopLagFinding(lag: LoopLagFigures): HealthFinding {
  const detail = `loop lag since the last check: mean ${lag.mean_ms} ms, p99 ${lag.p99_ms} ms, max ${lag.max_ms} ms`;
  if (lag.mean_ms >= KERNEL_BOUNDS.lagErrorMeanMs) {
    return { check: 'event-loop', severity: 'error', title: "the kernel's event loop runs late", detail, fix: 'homectl status; homectl logs --level warn' };
  }
  if (lag.mean_ms >= KERNEL_BOUNDS.lagWarnMeanMs || lag.max_ms >= KERNEL_BOUNDS.lagWarnMaxMs) {
    return { check: 'event-loop', severity: 'warning', title: "the kernel's event loop was held up", detail, fix: 'homectl logs --level warn' };
  }
  return { check: 'event-loop', severity: 'ok', title: "the kernel's event loop keeps time", detail };
}

/** Both kernel findings from one probe. */
export function kernelFindings(probe: HealthProbeResult, roundTripMs: number): HealthFinding[] {
  return [probeFinding(roundTripMs), loopLagFinding(probe.loop_lag)];
}
