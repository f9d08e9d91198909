// homectl backup FILE and homectl restore FILE: done by homectl itself on the data dir (no request to homed).
import * as path from 'node:path';
import { formatBytes, formatDuration } from '../../../protocol/format';
import { printJson, type Command } from '../commands/types';
import { takeBackup, type BackupResult } from './take-backup';
import { restoreBackup, type RestoreResult } from './restore-backup';

const backupCommand: Command = {
  words: 'backup',
  args: ['FILE'],
  options: { 'with-secrets': { type: 'boolean' }, json: { type: 'boolean' } },
  flags: '[--with-secrets] [--json]',
  summary: 'one archive (.tar.gz) of the data dir, consistent while homed runs; passwords only with --with-secrets',
  async run([file], values, ctx) {
    const result = await takeBackup({
      dataDir: ctx.dataDir,
      archive: path.resolve(ctx.cwd, file as string),
      withSecrets: values['with-secrets'] === true,
      progress: ctx.progress,
    });
    if (values['json']) printJson(ctx, result);
    else ctx.print(renderBackup(result));
  },
};

const restoreCommand: Command = {
  words: 'restore',
  args: ['FILE'],
  options: { stop: { type: 'boolean' }, json: { type: 'boolean' } },
  flags: '[--stop] [--data DIR] [--json]',
  summary: 'checks the whole archive, then replaces the data dir with it (the old one kept as DIR.before-restore-DATE)',
  async run([file], values, ctx) {
    const result = await restoreBackup({
      archive: path.resolve(ctx.cwd, file as string),
      dataDir: ctx.dataDir,
      stop: values['stop'] === true,
      progress: ctx.progress,
    });
    if (values['json']) printJson(ctx, result);
    else ctx.print(renderRestore(result));
  },
};

/** The backup commands, for homectl's table. */
export const backupCommands: Command[] = [backupCommand, restoreCommand];

function renderBackup(result: BackupResult): string {
  const lines = [
    `backed up ${result.files} files (${formatBytes(result.dataBytes)}, ${result.databases.length} databases) into ${result.archive} (${formatBytes(result.archiveBytes)}) in ${formatDuration(result.durationMs)}`,
  ];
  if (result.secretsLeftOut.length > 0) {
    lines.push(`secrets left out (set each again after a restore with: homectl config set KEY): ${result.secretsLeftOut.join(', ')}`);
  }
  if (result.secretsIncluded.length > 0) {
    lines.push(`secrets included in clear: ${result.secretsIncluded.join(', ')}; keep the archive as safe as the data dir`);
  }
  for (const left of result.leftOut) lines.push(`left out: ${left.path}: ${left.reason}`);
  return lines.join('\n');
}

function renderRestore(result: RestoreResult): string {
  const lines = [`restored ${result.files} files from ${result.archive} (taken ${result.createdAt} of ${result.sourceDataDir}) into ${result.dataDir}`];
  if (result.stopped === 'systemctl') lines.push('homed was stopped with systemctl stop homed; start it again with: systemctl start homed');
  if (result.stopped === 'SIGTERM') lines.push(`homed was stopped; start it again with: homed -data ${result.dataDir}`);
  if (result.previous) lines.push(`the former data dir is kept as ${result.previous} (remove it once the restored one serves you well)`);
  if (result.secretsLeftOut.length > 0) {
    lines.push(`the archive holds no secrets; set each again with homectl config set KEY (it asks for the value): ${result.secretsLeftOut.join(', ')}`);
  }
  return lines.join('\n');
}
