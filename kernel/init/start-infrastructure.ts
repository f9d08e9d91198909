import type { Logger } from 'pino';
import { KernelEvents } from '../../protocol';
import { CORE_SCOPE, type ConfigRegistry } from '../config';
import { EventBus } from '../events/bus';
import { IOManager } from '../io/io-manager';
import { createRootLogger, followLogLevel } from '../log';
import { KernelLog } from '../logs/kernel-log';
import { loadSupervisorPolicy, type SupervisorPolicy } from '../supervisor/policy';

/** What every later part leans on: the log, the event bus, the IO channels and the supervision policy. */
export interface Infrastructure {
  log: Logger;
  bus: EventBus;
  io: IOManager;
  policy: SupervisorPolicy;
  /** Every line the log writes, kept for homectl logs (empty when a log is given: tests keep their own). */
  kernelLog: KernelLog;
}

/** Creates the log (unless one is given; either follows core.log.level), the bus that announces setting changes, the IO channels and the supervision policy. */
export function startInfrastructure(config: ConfigRegistry, env: NodeJS.ProcessEnv, log?: Logger): Infrastructure {
  const bus = new EventBus();
  config.onChange((change) => bus.publish(KernelEvents.ConfigChanged, 'kernel', change));
  const logPath = config.getValue(CORE_SCOPE, 'core.log.path');
  const kernelLog = new KernelLog(log === undefined && typeof logPath === 'string' ? logPath : undefined);
  const logger = log ?? createRootLogger(String(config.getValue(CORE_SCOPE, 'core.log.level') ?? 'info'), kernelLog);
  // core.log.level takes effect at once, in every child logger too.
  followLogLevel(config, logger);
  return {
    log: logger,
    bus,
    io: new IOManager(),
    policy: loadSupervisorPolicy((key) => config.getValue(CORE_SCOPE, key), env),
    kernelLog,
  };
}
