// timer/list, timer/set and timer/cancel (TimerApi, protocol/timer.ts): the timers for clients (the web page's
// Timers page), the same operations as the tools.
import { serve, type ClientMethodDefinition } from '../../plugin-host';
import { ErrorCodes, haError } from '../../protocol';
import { TimerApi } from '../../protocol/timer';
import type { TimerPolicy } from './policy';
import type { TimerScheduler } from './scheduler';
import { TimerArgumentError, createTimer, iso } from './timers';
import { viewTimer } from './tools';

/** The client methods, over a scheduler that `scheduler()` gives once the plugin is active. */
export function createTimerClientMethods(scheduler: () => TimerScheduler, policy: TimerPolicy, now: () => number): ClientMethodDefinition[] {
  return [
    serve(TimerApi.List, () => ({
      now: iso(now()),
      timers: scheduler()
        .list()
        .map((t) => viewTimer(t, now())),
    })),
    serve(TimerApi.Set, async (params) => {
      const timers = scheduler();
      if (timers.size >= policy.maxTimers)
        throw haError(ErrorCodes.Conflict, `there are already ${policy.maxTimers} timers; cancel some first (timer/list shows them)`);
      const { session, ...args } = params;
      const timer = asInvalidValue(() => createTimer(args, session, now(), policy, (id) => timers.has(id)));
      await timers.add(timer);
      return { timer: viewTimer(timer, now()) };
    }),
    serve(TimerApi.Cancel, async (params) => {
      const timer = await scheduler().cancel(params.id);
      if (!timer) throw haError(ErrorCodes.NotFound, `there is no timer with id ${JSON.stringify(params.id)}; timer/list shows the timers`, { id: params.id });
      return { cancelled: viewTimer(timer, now()) };
    }),
  ];
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
