// Writing a file as one change set: the states of the file and of any folder made for it are taken before and after,
// and the set is recorded (mode 'direct'). The bytes go to a temporary file renamed over the old one, keeping its
// mode (and owner, as root), so a reader never sees half a file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolCall } from '../../plugin-host';
import type { ChangeEntry, ChangeStore } from '../../plugin-host/tracker';

/** Writes `content` to `file` (a resolved path) and records it; the change set's id, or undefined when nothing changed. */
export function writeTracked(store: ChangeStore, file: string, content: string, call: Pick<ToolCall, 'name' | 'session' | 'callId'>, summary: string): string | undefined {
  const made = missingFolders(path.dirname(file));
  const paths = [...made, file];
  const before = paths.map((p) => store.stateOf(p));
  if (before[before.length - 1]?.kind === 'dir') throw new Error(`${file} is a folder; give a file's path`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  replaceFile(file, content);
  const entries: ChangeEntry[] = paths.map((p, i) => ({ path: p, before: before[i] ?? { kind: 'absent' }, after: store.stateOf(p) }));
  const recorded = store.record({ session: call.session ?? '', tool: call.name, callId: call.callId ?? '', summary, mode: 'direct', entries });
  return recorded?.id;
}

/** The folders that do not exist yet on the way to `dir`, outermost first. */
function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let current = dir; !fs.existsSync(current); current = path.dirname(current)) missing.unshift(current);
  return missing;
}

function replaceFile(file: string, content: string): void {
  const old = fs.lstatSync(file, { throwIfNoEntry: false });
  if (old && !old.isFile()) throw new Error(`${file} is not a regular file; write_file only replaces regular files`);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, content, { mode: old ? old.mode & 0o7777 : 0o644, flag: 'wx' });
    if (old) {
      fs.chmodSync(tmp, old.mode & 0o7777);
      if (process.getuid?.() === 0) fs.chownSync(tmp, old.uid, old.gid);
    }
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
