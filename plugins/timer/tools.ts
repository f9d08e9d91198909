// timer_set, timer_list, timer_cancel: the tools the agent uses.
import type { PluginContext, ToolDefinition } from '../../plugin-host';
import type { ToolInvokeParams } from '../../protocol';
import { formatDuration } from '../../protocol/format';
import type { TimerView } from '../../protocol/timer';
import { AT_HINT } from './at';
import { DURATION_HINT } from './duration';
import type { TimerPolicy } from './policy';
import type { TimerScheduler } from './scheduler';
import { TimerArgumentError, createTimer, firesAt, iso, type Timer, type TimerSetArgs } from './timers';

export type { TimerView };

const DURATION_SCHEMA = { anyOf: [{ type: 'string' }, { type: 'number' }] } as const;

/** Builds the three tools over a scheduler that `scheduler()` gives once the plugin is active. */
export function createTimerTools(scheduler: () => TimerScheduler, policy: TimerPolicy, now: () => number): Record<string, ToolDefinition<never>> {
  const set: ToolDefinition<TimerSetArgs> = {
    description:
      'Set a timer or reminder. When it fires, the message comes back to you in this conversation as "[timer] <message>" ' +
      'so you can tell the person. Give exactly one of delay (how long from now) or at (a point in time); repeat makes it recurring.',
    parameters: {
      type: 'object',
      required: ['message'],
      additionalProperties: false,
      properties: {
        message: { type: 'string', minLength: 1, maxLength: 1000, description: 'What to remind of, e.g. "take the bread out"' },
        delay: { ...DURATION_SCHEMA, description: `How long from now; ${DURATION_HINT}` },
        at: { type: 'string', description: `When; ${AT_HINT}` },
        repeat: { ...DURATION_SCHEMA, description: `Fire again every this long (at least ${formatDuration(policy.minRepeatMs)}); ${DURATION_HINT}` },
      },
    },
    run: async (args: TimerSetArgs, _ctx: PluginContext, call: ToolInvokeParams) => {
      const timers = scheduler();
      if (timers.size >= policy.maxTimers) {
        throw new TimerArgumentError(`there are already ${policy.maxTimers} timers; cancel some first (timer_list shows them)`);
      }
      const timer = createTimer(args, call.session, now(), policy, (id) => timers.has(id));
      await timers.add(timer);
      return { id: timer.id, fires_at: timer.fires_at, ...(timer.repeat_ms === undefined ? {} : { repeat: formatDuration(timer.repeat_ms) }) };
    },
  };
  const list: ToolDefinition<Record<string, never>> = {
    description: 'List the timers that are set, the next to fire first, with their ids (for timer_cancel).',
    parameters: { type: 'object', additionalProperties: false, properties: {} },
    run: () => ({
      now: iso(now()),
      timers: scheduler()
        .list()
        .map((t) => viewTimer(t, now())),
    }),
  };
  const cancel: ToolDefinition<{ id: string }> = {
    description: 'Cancel a timer by its id (timer_list shows the ids).',
    parameters: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } },
    run: async (args: { id: string }) => {
      const timer = await scheduler().cancel(args.id);
      if (!timer) throw new TimerArgumentError(`there is no timer with id ${JSON.stringify(args.id)}; timer_list shows the timers`);
      return { cancelled: viewTimer(timer, now()) };
    },
  };
  return { timer_set: set, timer_list: list, timer_cancel: cancel } as Record<string, ToolDefinition<never>>;
}

/** A timer as the tools show it. */
export function viewTimer(timer: Timer, now: number): TimerView {
  const view: TimerView = {
    id: timer.id,
    message: timer.message,
    fires_at: timer.fires_at,
    fires_in: formatDuration(Math.max(0, firesAt(timer) - now)),
    session: timer.session,
  };
  if (timer.repeat_ms !== undefined) view.repeat = formatDuration(timer.repeat_ms);
  return view;
}
