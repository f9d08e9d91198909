// homectl doctor's findings: what homed's healthcheck plugin finds (a fresh round with the provider asked), the
// skills that lack something, and what doctor checks itself (modes, the unit, Node.js; free space and databases
// too when homed is down). With homed unreachable, that is a finding, and the local checks still run.
import { dirname, basename } from 'node:path';
import { HealthcheckApi, SERVICE_USER, SkillsApi, SocketApi, type HealthFinding, type KernelStatus, type SkillsListResult } from '../../../protocol';
import { HomedUnreachableError } from '../client';
import { defaultDatabases, diskFindingOf, modeFindings, offlineDatabaseFindings } from './doctor-files';
import { sqliteBinding } from '../../../protocol/runtime/internals/sqlite';
import { nodeVersionFinding, sqliteFinding } from './doctor-node';
import { unitFinding } from './doctor-unit';
import type { CommandContext } from './types';

/** What the gathering needs besides the socket. */
export interface DoctorInputs {
  socketPath: string;
  /** Whether the systemd unit file is installed (then the data dir's group should be the service's). */
  serviceInstalled: boolean;
  /** The unit check (tests give their own). */
  unit?: () => Promise<HealthFinding>;
  now?: Date;
}

/** Every finding, in the order they are shown. */
export async function gatherFindings(ctx: CommandContext, inputs: DoctorInputs): Promise<HealthFinding[]> {
  const findings: HealthFinding[] = [];
  const status = await askStatus(ctx);
  const dataDir = status.ok ? status.value.dataDir : dataDirOfSocket(inputs.socketPath);
  if (status.ok) {
    findings.push({
      check: 'homed',
      severity: 'ok',
      title: 'homed is running',
      detail: `pid ${status.value.pid}, ${status.value.plugins.ready} of ${status.value.plugins.enabled} enabled plugins ready`,
    });
    findings.push(...(await healthFindings(ctx)), ...(await skillFindings(ctx)));
  } else {
    findings.push(status.finding);
  }
  if (dataDir) {
    findings.push(...modeFindings(dataDir, inputs.socketPath, inputs.serviceInstalled));
    if (!status.ok) findings.push(await diskFindingOf(dataDir), ...(await offlineDatabaseFindings(defaultDatabases(dataDir))));
  }
  findings.push(await (inputs.unit ?? unitFinding)(), nodeVersionFinding(process.version, inputs.now ?? new Date()), sqliteFinding(sqliteBinding));
  return findings;
}

type Asked<T> = { ok: true; value: T } | { ok: false; finding: HealthFinding };

async function askStatus(ctx: CommandContext): Promise<Asked<KernelStatus>> {
  try {
    return { ok: true, value: await ctx.call(SocketApi.KernelStatus, {}) };
  } catch (error) {
    if (!(error instanceof HomedUnreachableError)) throw error;
    if (error.reason === 'denied') {
      return {
        ok: false,
        finding: {
          check: 'homed',
          severity: 'error',
          title: 'homed cannot be reached by this user',
          detail: error.message,
          fix: `sudo usermod -aG ${SERVICE_USER} $USER   (then log in again)`,
        },
      };
    }
    return {
      ok: false,
      finding: {
        check: 'homed',
        severity: 'error',
        title: 'homed is not running (or cannot be reached)',
        detail: error.message,
        fix: 'sudo systemctl start homed   (or: homed -data DIR)',
      },
    };
  }
}

/** A fresh round of the healthcheck plugin, with the provider asked; when it cannot answer, that is the finding. */
async function healthFindings(ctx: CommandContext): Promise<HealthFinding[]> {
  try {
    const report = await ctx.call(HealthcheckApi.Report, { provider: true });
    return report.findings;
  } catch (error) {
    const silent: HealthFinding = {
      check: 'healthcheck',
      severity: 'warning',
      title: 'the healthcheck plugin did not answer',
      detail: `${(error as Error).message}; the provider, the disk and the databases were not checked`,
      fix: 'homectl plugins enable healthcheck; homectl plugins restart healthcheck',
    };
    return [silent, ...(await notReadyPlugins(ctx))];
  }
}

/** Without the healthcheck plugin: each enabled plugin that is not ready, from plugins/list. */
async function notReadyPlugins(ctx: CommandContext): Promise<HealthFinding[]> {
  const { plugins } = await ctx.call(SocketApi.PluginsList, {});
  return plugins
    .filter((p) => p.state !== 'ready' && p.state !== 'disabled' && p.name !== 'healthcheck')
    .map((p) => ({
      check: `plugin:${p.name}`,
      severity: p.state === 'failed' ? 'error' : 'warning',
      title: `plugin ${p.name} is ${p.state}`,
      detail: p.detail ?? p.last_exit?.detail ?? p.last_exit?.reason ?? `it is ${p.state}, not ready`,
      fix: `homectl plugins logs ${p.name}; homectl plugins restart ${p.name}`,
    }));
}

/** One finding per skill that lacks a requirement (none when there are no skills or openclaw is off). */
async function skillFindings(ctx: CommandContext): Promise<HealthFinding[]> {
  let listed: SkillsListResult;
  try {
    listed = await ctx.call(SkillsApi.List, {});
  } catch (error) {
    return [{ check: 'skills', severity: 'info', title: 'skills not checked', detail: (error as Error).message }];
  }
  if (listed.total === 0) return [];
  const missing = listed.skills.filter((s) => s.status === 'missing');
  if (missing.length === 0)
    return [{ check: 'skills', severity: 'ok', title: `no skill lacks a requirement (${listed.ready} of ${listed.total} ready)`, detail: '' }];
  return missing.map((s) => ({
    check: `skill:${s.name}`,
    severity: 'warning',
    title: `skill ${s.name} lacks a requirement`,
    detail: Object.entries(s.missing ?? {})
      .map(([kind, names]) => `${kind}: ${names.join(', ')}`)
      .join('; '),
    fix: `homectl skills info ${s.name}; homectl skills setup ${s.name}`,
  }));
}

/** The data dir of a socket in its run folder (`<data>/run/homed.sock`), else null. */
function dataDirOfSocket(socketPath: string): string | null {
  const run = dirname(socketPath);
  return basename(run) === 'run' ? dirname(run) : null;
}
