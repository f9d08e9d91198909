import type { MessageConnection } from 'vscode-jsonrpc';
import { HealthProbeRequest, HealthQuickCheckRequest, HealthReportNotification } from '../../protocol';
import type { HealthDesk } from '../health/health-desk';
import { bindNotification, bindRequest, type SdkCaller } from './binder';

/** health/probe, health/quick_check and health/report, for plugins granted `health` (the healthcheck plugin). */
export function bindHealthMethods(connection: MessageConnection, caller: SdkCaller, desk: HealthDesk): void {
  bindRequest(connection, caller, HealthProbeRequest, () => desk.probe());
  bindRequest(connection, caller, HealthQuickCheckRequest, () => desk.quickCheck());
  bindNotification(connection, caller, HealthReportNotification, (params) => desk.report(params.report));
}
