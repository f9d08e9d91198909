// The openclaw plugin's limits and timings, in one place.
import { SKILLS_SETUP_TIMEOUT_MS } from '../../protocol/skills';

export interface OpenclawPolicy {
  /** A refresh waits this long after the last change it heard of… */
  debounceMs: number;
  /** …but never longer than this after the first, so a stream of changes is still seen within a second. */
  maxWaitMs: number;
  /** The most folders followed with a watch (inotify watches are a shared, per-user resource). */
  maxWatches: number;
  /** A full rescan this often anyway (what a watch cannot see: a folder of PATH that did not exist yet). */
  rescanMs: number;
  /** The rescan period while some folders are past `maxWatches`. */
  busyRescanMs: number;
  /** `skills install` of a folder: the most files and bytes copied, and how deep. */
  install: { maxFiles: number; maxBytes: number; maxDepth: number };
  /** `skills setup`: its deadline (SkillsApi.Setup's answer waits a minute longer), the largest download, and how much of the output's end is answered. */
  setup: { timeoutMs: number; maxDownloadBytes: number; outputTailChars: number };
}

export const OPENCLAW_POLICY: OpenclawPolicy = {
  debounceMs: 200,
  maxWaitMs: 600,
  maxWatches: 1000,
  rescanMs: 30_000,
  busyRescanMs: 5_000,
  install: { maxFiles: 1000, maxBytes: 32 * 1024 * 1024, maxDepth: 16 },
  setup: { timeoutMs: SKILLS_SETUP_TIMEOUT_MS, maxDownloadBytes: 512 * 1024 * 1024, outputTailChars: 4000 },
};
