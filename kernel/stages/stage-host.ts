import {
  MAX_STAGE_TIMEOUT_MS,
  STAGE_PATCH_FIELDS,
  STAGES,
  StageInvokeRequest,
  type PluginState,
  type StageName,
  type StagePatch,
  type StageSnapshot,
} from '../../protocol';
import { schemaProblem } from '../../protocol/runtime/schema-check';
import { flushQueuedWrites } from '../../protocol/runtime/wire';
import type { PluginChannel } from '../supervisor/channel';
import { adviceFor, CALLABLE_STATE, describeState } from '../supervisor/plugin-availability';

/** A plugin that handles a stage, as the supervisor knows it. */
export interface StageHandlerRef {
  plugin: string;
  priority: number;
  /** The connection to its running process; undefined when none runs. */
  channel: PluginChannel | undefined;
  /** The plugin's state now: only a `ready` plugin is called; any other is `unavailable` at once (a guard: deny). */
  state(): PluginState;
  /** Its own deadline for this stage, when it declared a longer one than the kernel's (a guard that asks a person). */
  timeoutMs?: number;
}

/** What became of one handler: a timeout is a value, not an exception that unwinds the turn. */
export interface StageOutcome {
  plugin: string;
  stage: StageName;
  /** `unavailable`: the plugin was not ready, so it was not called; `cancelled`: the run's signal aborted (a Stop). */
  status: 'ok' | 'timeout' | 'error' | 'unavailable' | 'cancelled';
  ms: number;
  error?: string;
  /** For `unavailable`: the state the plugin was in. */
  state?: PluginState;
}

export interface StageRun {
  /** The snapshot with every allowed patch applied, in priority order. */
  snapshot: StageSnapshot & StagePatch;
  outcomes: StageOutcome[];
}

const POLICY = Object.fromEntries(STAGES.map((row) => [row.name, row])) as Record<StageName, (typeof STAGES)[number]>;

/**
 * Runs the handlers of a stage in parallel on the same snapshot, each with its own deadline,
 * and applies their patches in plugin priority order, then name — never in order of arrival.
 */
export class StageHost {
  readonly skipped = new Map<string, number>();

  constructor(
    private readonly handlersOf: (stage: StageName) => StageHandlerRef[],
    private readonly deadlineMs: () => number,
  ) {}

  /**
   * Runs the stage's handlers. Each waits the kernel's deadline, or its own longer one when it declared one; an abort
   * of `signal` cancels every handler still working (a guard's missing answer then denies, failing closed).
   */
  async run(stage: StageName, snapshot: StageSnapshot, signal?: AbortSignal): Promise<StageRun> {
    const handlers = this.handlersOf(stage).sort((a, b) => a.priority - b.priority || (a.plugin < b.plugin ? -1 : a.plugin > b.plugin ? 1 : 0));
    if (handlers.length === 0) return { snapshot: { ...snapshot }, outcomes: [] };
    const deadline = this.deadlineMs();
    const pending = Promise.all(handlers.map((handler) => this.invoke(handler, stage, snapshot, handlerDeadline(handler, deadline), signal)));
    // The requests leave now rather than at the end of the tick: the caller may work while the handlers do.
    flushQueuedWrites();
    const answers = await pending;
    const merged: StageSnapshot & StagePatch = { ...snapshot };
    const outcomes: StageOutcome[] = [];
    for (const { outcome, patch } of answers) {
      outcomes.push(outcome);
      if (outcome.status !== 'ok') {
        this.skipped.set(outcome.plugin, (this.skipped.get(outcome.plugin) ?? 0) + 1);
        if (POLICY[stage].failClosed && !merged.deny) {
          merged.deny = true;
          merged.deny_reason = denyReason(outcome);
        }
        continue;
      }
      if (patch) applyPatch(stage, merged, patch);
    }
    return { snapshot: merged, outcomes };
  }

  private async invoke(
    handler: StageHandlerRef,
    stage: StageName,
    snapshot: StageSnapshot,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<{ outcome: StageOutcome; patch: StagePatch | null }> {
    // A plugin that is not ready would only let the stage wait out its deadline.
    const state = handler.state();
    if (state !== CALLABLE_STATE || !handler.channel) {
      return { outcome: { plugin: handler.plugin, stage, status: 'unavailable', ms: 0, error: describeState(handler.plugin, state), state }, patch: null };
    }
    const started = Date.now();
    try {
      const patch = await handler.channel.call(StageInvokeRequest, { stage, snapshot }, deadline, signal);
      return { outcome: { plugin: handler.plugin, stage, status: 'ok', ms: Date.now() - started }, patch };
    } catch (error) {
      const timedOut = (error as { data?: { timedOut?: boolean } }).data?.timedOut === true;
      const status = timedOut ? 'timeout' : signal?.aborted ? 'cancelled' : 'error';
      return {
        outcome: { plugin: handler.plugin, stage, status, ms: Date.now() - started, error: (error as Error).message },
        patch: null,
      };
    }
  }
}

/** The kernel's deadline, or the handler's own when it declared a longer one (never past MAX_STAGE_TIMEOUT_MS). */
function handlerDeadline(handler: StageHandlerRef, kernelDeadline: number): number {
  const own = handler.timeoutMs;
  if (own === undefined || !Number.isFinite(own) || own <= kernelDeadline) return kernelDeadline;
  return Math.min(own, MAX_STAGE_TIMEOUT_MS);
}

/** Why a fail-closed stage denied: its guard was not ready, or did not answer in time or at all. */
function denyReason(outcome: StageOutcome): string {
  if (outcome.status === 'unavailable' && outcome.state) {
    return `guard ${describeState(outcome.plugin, outcome.state)}, so it cannot check this call: denied, failing closed; ${adviceFor(outcome.plugin, outcome.state)}`;
  }
  if (outcome.status === 'cancelled') return `the call was stopped while guard plugin "${outcome.plugin}" was checking it; denied`;
  return `guard plugin "${outcome.plugin}" did not answer (${outcome.status}${outcome.error ? `: ${outcome.error}` : ''}); denied, failing closed`;
}

/** Applies only the fields the stage lets a handler write (docs/ARCHITECTURE.md §8), each of the shape STAGE_PATCH_FIELDS gives it; a field of another shape is dropped, not the patch. */
function applyPatch(stage: StageName, target: StageSnapshot & StagePatch, patch: StagePatch): void {
  if (typeof patch !== 'object' || patch === null) return;
  const fields = target as unknown as Record<string, unknown>;
  for (const field of POLICY[stage].writes) {
    const value = (patch as Record<string, unknown>)[field];
    if (value === undefined || schemaProblem(STAGE_PATCH_FIELDS[field], value, field) !== undefined) continue;
    if (field === 'deny' && target.deny) continue; // the first denial, by priority, keeps its reason
    if (field === 'deny_reason' && target.deny && target.deny_reason) continue;
    fields[field] = value;
  }
}
