// Whether a write failed for want of space, and the error a person reads then (kernel/files/disk-full.ts), and the
// free space a turn needs before it starts.
export { diskFullError, isDiskFull } from '../files/disk-full';

/** Below this much free space a turn does not start: its answer could not be stored. */
export const TURN_MIN_FREE_BYTES = 256 * 1024;
