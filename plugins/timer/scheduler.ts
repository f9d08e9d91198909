// Keeps the timers, fires the due ones, and sleeps until the nearest with one setTimeout.
import type { TimerPolicy } from './policy';
import { firesAt, iso, type Timer } from './timers';

/** Time and sleeping, behind an interface so tests can drive them. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock; its timeouts do not keep the process alive (the wire to the kernel does). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A timer that came due, and how long after its time it fired. */
export interface Firing {
  timer: Timer;
  lateMs: number;
}

/** What the scheduler needs from its plugin. */
export interface SchedulerDeps {
  fire(firing: Firing): void;
  /** Persists the whole list (called after every change, one call at a time). */
  save(timers: Timer[]): Promise<void>;
  onSaveError(error: unknown): void;
  /** A firing that threw (the timer still counts as fired). */
  onFireError?(firing: Firing, error: unknown): void;
  /** Told after a timer was set (and saved), fired, or cancelled. */
  changed?(kind: TimerChange, timer: Timer): void;
  policy: TimerPolicy;
  clock?: Clock;
}

/** What happened to a timer. */
export type TimerChange = 'set' | 'fired' | 'cancelled';

/** The timers of one plugin process. */
export class TimerScheduler {
  private readonly timers = new Map<string, Timer>();
  private readonly clock: Clock;
  private handle: unknown;
  private saving: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  /** Takes the stored timers and arms; those already due (missed while homed was down) fire on the next tick. */
  start(timers: readonly Timer[]): void {
    for (const timer of timers) this.timers.set(timer.id, timer);
    this.arm();
  }

  /** Every timer, the next to fire first. */
  list(): Timer[] {
    return [...this.timers.values()].sort((a, b) => firesAt(a) - firesAt(b));
  }

  has(id: string): boolean {
    return this.timers.has(id);
  }

  get size(): number {
    return this.timers.size;
  }

  /** Adds a timer and persists it; a timer that cannot be saved is not kept. */
  async add(timer: Timer): Promise<void> {
    this.timers.set(timer.id, timer);
    this.arm();
    try {
      await this.save();
    } catch (error) {
      this.timers.delete(timer.id);
      this.arm();
      throw error;
    }
    this.tell('set', timer);
  }

  /** Removes a timer and persists the change; answers it, or undefined when there is none with that id. */
  async cancel(id: string): Promise<Timer | undefined> {
    const timer = this.timers.get(id);
    if (!timer) return undefined;
    this.timers.delete(id);
    this.arm();
    await this.save();
    this.tell('cancelled', timer);
    return timer;
  }

  /** Stops firing and waits for the last save. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.handle);
    await this.saving.catch(() => undefined);
  }

  /** One setTimeout for the nearest timer, capped below 2^31 ms (a longer wait just re-arms). */
  private arm(): void {
    this.clock.clearTimeout(this.handle);
    this.handle = undefined;
    if (this.stopped) return;
    const next = this.list()[0];
    if (!next) return;
    const wait = Math.min(Math.max(0, firesAt(next) - this.clock.now()), this.deps.policy.maxSleepMs);
    this.handle = this.clock.setTimeout(() => this.tick(), wait);
  }

  private tick(): void {
    this.handle = undefined;
    if (this.stopped) return;
    const now = this.clock.now();
    const due = this.list().filter((timer) => firesAt(timer) <= now);
    for (const timer of due) {
      this.fireOne({ timer, lateMs: now - firesAt(timer) });
      if (timer.repeat_ms === undefined) this.timers.delete(timer.id);
      else this.timers.set(timer.id, { ...timer, fires_at: iso(nextAfter(firesAt(timer), timer.repeat_ms, now)) });
      this.tell('fired', this.timers.get(timer.id) ?? timer);
    }
    this.arm();
    // Saved after firing: a crash in between fires the timer again at start rather than losing it.
    if (due.length > 0) this.save().catch((error: unknown) => this.deps.onSaveError(error));
  }

  // One timer whose firing throws must not keep the others from firing or the next from being armed.
  private fireOne(firing: Firing): void {
    try {
      this.deps.fire(firing);
    } catch (error) {
      this.deps.onFireError?.(firing, error);
    }
  }

  // A listener that throws must not undo what it is told of.
  private tell(kind: TimerChange, timer: Timer): void {
    try {
      this.deps.changed?.(kind, timer);
    } catch {
      // the listener's failure is its own
    }
  }

  private save(): Promise<void> {
    const next = this.saving.catch(() => undefined).then(() => this.deps.save(this.list()));
    this.saving = next;
    return next;
  }
}

/** The first occurrence of `start + k·every` after `now`: missed repeats fire once, not once per miss. */
export function nextAfter(start: number, every: number, now: number): number {
  if (start > now) return start;
  return start + (Math.floor((now - start) / every) + 1) * every;
}
