// timer/list, timer/set and timer/cancel: the timers for clients (the web page's Timers page), the same operations as
// the tools. timer/set names the conversation its reminder goes to, since no turn is setting it.
import type { ClientMethodDefinition } from '../../plugin-host';
import { ErrorCodes, haError } from '../../protocol';
import type { TimerCancelParams, TimerCancelResult, TimerListResult, TimerSetParams, TimerSetResult } from '../../protocol/timer';
import type { TimerPolicy } from './policy';
import type { TimerScheduler } from './scheduler';
import { TimerArgumentError, createTimer, iso } from './timers';
import { viewTimer } from './tools';

const DURATION = { anyOf: [{ type: 'string', minLength: 1, maxLength: 64 }, { type: 'number' }] } as const;

/** The client methods by wire name, over a scheduler that `scheduler()` gives once the plugin is active. */
export function createTimerClientMethods(scheduler: () => TimerScheduler, policy: TimerPolicy, now: () => number): Record<string, ClientMethodDefinition<never>> {
  const list: ClientMethodDefinition<Record<string, never>> = {
    params: { type: 'object', additionalProperties: false, properties: {} },
    run: (): TimerListResult => ({ now: iso(now()), timers: scheduler().list().map((t) => viewTimer(t, now())) }),
  };
  const set: ClientMethodDefinition<TimerSetParams> = {
    params: {
      type: 'object',
      required: ['session', 'message'],
      additionalProperties: false,
      properties: {
        session: { type: 'string', minLength: 1, maxLength: 200 },
        message: { type: 'string', minLength: 1, maxLength: 1000 },
        delay: DURATION,
        at: { type: 'string', minLength: 1, maxLength: 64 },
        repeat: DURATION,
      },
    },
    run: async (params: TimerSetParams): Promise<TimerSetResult> => {
      const timers = scheduler();
      if (timers.size >= policy.maxTimers) throw haError(ErrorCodes.Conflict, `there are already ${policy.maxTimers} timers; cancel some first (timer/list shows them)`);
      const { session, ...args } = params;
      const timer = asInvalidValue(() => createTimer(args, session, now(), policy, (id) => timers.has(id)));
      await timers.add(timer);
      return { timer: viewTimer(timer, now()) };
    },
  };
  const cancel: ClientMethodDefinition<TimerCancelParams> = {
    params: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } },
    run: async (params: TimerCancelParams): Promise<TimerCancelResult> => {
      const timer = await scheduler().cancel(params.id);
      if (!timer) throw haError(ErrorCodes.NotFound, `there is no timer with id ${JSON.stringify(params.id)}; timer/list shows the timers`, { id: params.id });
      return { cancelled: viewTimer(timer, now()) };
    },
  };
  return { 'timer/list': list, 'timer/set': set, 'timer/cancel': cancel } as Record<string, ClientMethodDefinition<never>>;
}

/** Runs `make`; a TimerArgumentError (what the person asked for is wrong) reaches the client as HA_ERR_INVALID_VALUE. */
function asInvalidValue<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof TimerArgumentError) throw haError(ErrorCodes.InvalidValue, error.message);
    throw error;
  }
}
