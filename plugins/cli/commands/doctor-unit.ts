// The systemd unit: installed, and in what state, when systemd runs this machine; not applicable otherwise.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVICE_UNIT, type HealthFinding } from '../../../protocol';

/** Whether systemd is PID 1 here (`/proc/1/comm`). */
export function systemdIsInit(): boolean {
  try {
    return readFileSync('/proc/1/comm', 'utf8').trim() === 'systemd';
  } catch {
    return false;
  }
}

/** `systemctl show` of the unit as key → value, or the error. */
export function showUnit(unit: string = SERVICE_UNIT): Promise<Record<string, string>> {
  const props = ['LoadState', 'ActiveState', 'SubState', 'UnitFileState', 'NRestarts', 'Result', 'StatusText'];
  return new Promise((resolve, reject) => {
    execFile('systemctl', ['show', unit, ...props.map((p) => `--property=${p}`)], { timeout: 10_000 }, (error, stdout) => {
      if (error) return reject(error);
      resolve(
        Object.fromEntries(
          stdout
            .split('\n')
            .filter((line) => line.includes('='))
            .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
        ),
      );
    });
  });
}

/** The finding for the unit; `show` and `isInit` are given by tests. */
export async function unitFinding(isInit: () => boolean = systemdIsInit, show: () => Promise<Record<string, string>> = showUnit): Promise<HealthFinding> {
  const check = 'service';
  if (!isInit())
    return {
      check,
      severity: 'info',
      title: 'service: not applicable',
      detail: 'systemd is not PID 1 on this machine, so homed cannot run as its service here',
    };
  let unit: Record<string, string>;
  try {
    unit = await show();
  } catch (error) {
    return {
      check,
      severity: 'warning',
      title: `cannot ask systemd about ${SERVICE_UNIT}`,
      detail: (error as Error).message,
      fix: `systemctl status ${SERVICE_UNIT}`,
    };
  }
  if (unit['LoadState'] === 'not-found') {
    return {
      check,
      severity: 'info',
      title: `${SERVICE_UNIT} is not installed`,
      detail: 'homed does not run as a systemd service',
      fix: 'sudo homed install-service',
    };
  }
  const detail = `${unit['ActiveState']} (${unit['SubState']}), ${unit['UnitFileState']}, ${unit['NRestarts'] ?? '0'} restarts, last result ${unit['Result']}${unit['StatusText'] ? `; status: ${unit['StatusText']}` : ''}`;
  if (unit['ActiveState'] !== 'active') {
    return {
      check,
      severity: 'error',
      title: `${SERVICE_UNIT} is installed but ${unit['ActiveState']}`,
      detail,
      fix: `sudo systemctl start ${SERVICE_UNIT}; journalctl -u ${SERVICE_UNIT} -n 50`,
    };
  }
  if (unit['UnitFileState'] !== 'enabled')
    return { check, severity: 'warning', title: `${SERVICE_UNIT} runs but does not start at boot`, detail, fix: `sudo systemctl enable ${SERVICE_UNIT}` };
  return { check, severity: 'ok', title: `${SERVICE_UNIT} is active`, detail };
}
