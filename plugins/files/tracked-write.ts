// Writing a file as one change set: the states of the file and of any folder made for it are taken before and after,
// and the set is recorded (mode 'direct'). The bytes go to a temporary file beside it, renamed over the old one, all
// inside the folder the walk holds open, so a reader never sees half a file and a swapped folder is never written
// through. The file keeps its mode without setuid or setgid, and (as root) gets the owner of its folder — the same
// rule as exec's copy-back and undo (see giveLandingOwner).
import type { ToolCall } from '../../plugin-host';
import { lstatAt, putFileAt, readStateAt, refuseHardLink, type ChangeEntry, type ChangeStore, type Place } from '../../plugin-host/tracker';

/** Writes `content` at `place` (walked with makeFolders) and records it; the change set's id, or undefined when nothing changed. */
export function writeTracked(
  store: ChangeStore,
  place: Place,
  input: string,
  content: string,
  call: Pick<ToolCall, 'name' | 'session' | 'callId'>,
  summary: string,
): string | undefined {
  const old = lstatAt(place);
  if (old?.isDirectory()) throw new Error(`${place.path} is a folder; give a file's path`);
  if (old && !old.isFile()) throw new Error(`${place.path} is not a regular file; write_file only replaces regular files`);
  refuseHardLink(input, place, 'writing it would change files that may be outside the allowed roots', old);
  const before = readStateAt(place, store.blobs, store.policy.maxKeepBytes);
  putFileAt(place, content, { mode: old ? old.mode & 0o7777 : 0o644 });
  const after = readStateAt(place, store.blobs, store.policy.maxKeepBytes);
  const entries: ChangeEntry[] = [
    ...place.made.map((p) => ({ path: p, before: { kind: 'absent' as const }, after: store.stateOf(p) })),
    { path: place.path, before, after },
  ];
  const recorded = store.record({ session: call.session ?? '', tool: call.name, callId: call.callId ?? '', summary, mode: 'direct', entries });
  return recorded?.id;
}
