// The timer plugin's definition: tools to set, list and cancel timers (and client methods doing the same for the web
// page: timer/list, timer/set, timer/cancel); a firing timer interrupts the
// session that set it with "[timer] <message>". Timers live in the plugin's `timers` setting, so they
// survive a restart; one missed while homed was down fires at start, marked late.
//
// Only types are imported from the SDK; from the protocol, the shared units (durations as people write them).
import type { PluginContext, PluginDefinition } from '../../plugin-host';
import { formatDuration } from '../../protocol/format';
import { TIMER_POLICY, type TimerPolicy } from './policy';
import { TimerScheduler, systemClock, type Clock, type Firing, type TimerChange } from './scheduler';
import type { TimerEventData } from '../../protocol/timer';
import { readStoredTimers, type Timer } from './timers';
import { createTimerTools } from './tools';
import { createTimerClientMethods } from './client-methods';

/** The setting that holds the timers. */
export const TIMERS_KEY = 'timers';

/** The interrupt text of a firing: `[timer] msg`, or `[timer, late by 12 min] msg` when it fired late. */
export function firingText(firing: Firing, policy: TimerPolicy = TIMER_POLICY): string {
  const late = firing.lateMs >= policy.lateAfterMs ? `, late by ${formatDuration(firing.lateMs)}` : '';
  return `[timer${late}] ${firing.timer.message}`;
}

/** Builds the plugin; tests may give their own clock and policy. */
export function createTimerPlugin(policy: TimerPolicy = TIMER_POLICY, clock: Clock = systemClock): PluginDefinition {
  let scheduler: TimerScheduler | undefined;
  const active = (): TimerScheduler => {
    if (!scheduler) throw new Error('the timer plugin is not active');
    return scheduler;
  };

  return {
    activate: async (ctx: PluginContext) => {
      const { timers, dropped } = readStoredTimers(await ctx.config.get(TIMERS_KEY));
      if (dropped > 0) ctx.log.warn(`ignored ${dropped} malformed entries of the ${TIMERS_KEY} setting`);
      scheduler = new TimerScheduler({
        fire: (firing) => fire(ctx, firing, policy),
        save: async (list: Timer[]) => {
          await ctx.config.set(TIMERS_KEY, list);
        },
        onSaveError: (error) => ctx.log.error('cannot save the timers', { error: String(error) }),
        onFireError: (firing, error) => ctx.log.error('a timer failed to fire', { id: firing.timer.id, error: String(error) }),
        changed: (kind, timer) => publishChange(ctx, kind, timer),
        policy,
        clock,
      });
      scheduler.start(timers);
      ctx.log.info('timers loaded', { count: timers.length });
    },
    deactivate: async () => {
      await scheduler?.stop();
      scheduler = undefined;
    },
    tools: createTimerTools(active, policy, () => clock.now()),
    clientMethods: createTimerClientMethods(active, policy, () => clock.now()),
  };
}

/** `timer.set`, `timer.fired`, `timer.cancelled`: pages showing the timers follow these instead of asking again. */
function publishChange(ctx: PluginContext, kind: TimerChange, timer: Timer): void {
  const data: TimerEventData = { id: timer.id, message: timer.message, session: timer.session, fires_at: timer.fires_at };
  ctx.events.publish(kind, data);
}

function fire(ctx: PluginContext, firing: Firing, policy: TimerPolicy): void {
  const text = firingText(firing, policy);
  ctx.log.info('timer fired', { id: firing.timer.id, session: firing.timer.session, lateMs: firing.lateMs });
  ctx.io.interrupt({ session: firing.timer.session, text });
}
