// The healthcheck plugin's definition: a round of checks every interval (schedule.ts, round.ts), each report
// published as the event healthcheck.report and sent to the kernel (health/report), which keeps the latest for
// homectl status, the STATUS= line and its watchdog; the client method healthcheck/report runs a fresh round for
// homectl doctor. The databases are the kernel's to read: it runs their quick_check in a worker thread of its own.
import { serve, type PluginContext, type PluginDefinition } from '../../plugin-host';
import { HealthcheckApi, HealthQuickCheckRequest, HealthReportNotification, KernelEvents, type EventDeliverParams, type HealthReport } from '../../protocol';
import { runRound } from './round';
import { HealthSchedule } from './schedule';
import { readSettings } from './settings';

/** The event name under the plugin's namespace: healthcheck.report. */
const REPORT_EVENT = 'report';

/** Builds the plugin. */
export function createHealthcheckPlugin(): PluginDefinition {
  let schedule: HealthSchedule | undefined;
  let lastOverall: HealthReport['overall'] = 'ok';
  const active = (): HealthSchedule => {
    if (!schedule) throw new Error('the healthcheck plugin is not active');
    return schedule;
  };
  return {
    activate: async (ctx: PluginContext) => {
      schedule = new HealthSchedule({
        settings: () => readSettings(ctx),
        round: (databases, firstCheckDueAt, providerTimeoutMs) =>
          runRound({ kernel: ctx.kernel, databases, firstCheckDueAt, ...(providerTimeoutMs === undefined ? {} : { providerTimeoutMs }) }),
        quickCheck: () => ctx.kernel.call(HealthQuickCheckRequest, {}),
        publish: (finished) => {
          publish(ctx, finished, lastOverall);
          lastOverall = finished.overall;
        },
        onError: (error) => ctx.log.error('a health round failed', { error: String(error) }),
      });
      await schedule.start();
    },
    deactivate: () => {
      schedule?.stop();
      schedule = undefined;
    },
    events: {
      [KernelEvents.ConfigChanged]: (event: EventDeliverParams, ctx) => {
        if ((event.data as { scope?: unknown } | undefined)?.scope !== ctx.name) return;
        schedule?.reschedule().catch((error: unknown) => ctx.log.error('cannot read the changed settings', { error: String(error) }));
      },
    },
    clientMethods: [serve(HealthcheckApi.Report, (params) => active().runNow(params))],
  };
}

/** The report as an event and to the kernel; a change of the overall severity leaves a log line. */
function publish(ctx: PluginContext, report: HealthReport, previous: HealthReport['overall']): void {
  ctx.events.publish(REPORT_EVENT, report);
  ctx.kernel.notify(HealthReportNotification, { report });
  const calm = (severity: HealthReport['overall']): boolean => severity === 'ok' || severity === 'info';
  if (report.overall === previous || (calm(report.overall) && calm(previous))) return;
  if (calm(report.overall)) ctx.log.info(`health ${report.overall} again`);
  else {
    const bad = report.findings.filter((f) => f.severity === 'warning' || f.severity === 'error');
    ctx.log.warn(`health ${report.overall}: ${bad.map((f) => f.title).join('; ')}`, { findings: bad.map((f) => f.check) });
  }
}
