// Per-session lanes: a session's inputs run one at a time, in order; different lanes run at once, up to
// a number of slots per class (a person's sessions, and the background: timer turns, the kernel's own
// loop-back questions), so no session, timer or slow provider holds up another. A lane that waits for a
// slot queues behind the lanes that waited before it.

/** How many turns run at once, and how much may wait. */
export interface LaneLimits {
  /** Turns of people's sessions running at once (core.agent.max_concurrent_turns). */
  personTurns: number;
  /** Background turns (timers, loop-back) running at once. */
  backgroundTurns: number;
  /** Inputs waiting in one lane. */
  perLane: number;
  /** Inputs waiting in all lanes. */
  total: number;
}

export const DEFAULT_LANE_LIMITS: LaneLimits = { personTurns: 4, backgroundTurns: 2, perLane: 64, total: 1024 };

/** Which slots a lane's turns take. */
export type LaneClass = 'person' | 'background';

interface Lane<T> {
  key: string;
  cls: LaneClass;
  queue: T[];
  running: T | undefined;
  /** In its class's ready list, waiting for a slot. */
  ready: boolean;
}

/** Why an offer was refused. */
export type LaneRefusal = { full: 'lane'; limit: number } | { full: 'total'; limit: number };

/** Runs items lane by lane; `run` is called for one item at a time per lane. */
export class Lanes<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private readonly readyLanes: Record<LaneClass, Lane<T>[]> = { person: [], background: [] };
  private readonly active: Record<LaneClass, number> = { person: 0, background: 0 };
  private queuedCount = 0;
  private readonly settled = new Set<Promise<void>>();
  /** Items are taken but not started until `resume` (the agent is not running yet). */
  private paused = true;

  constructor(
    private readonly limits: () => LaneLimits,
    private readonly run: (item: T, lane: string) => Promise<void>,
  ) {}

  /** Whether `item` would be refused, and why; nothing is changed. */
  refusal(key: string): LaneRefusal | undefined {
    const limits = this.limits();
    if (this.queuedCount >= limits.total) return { full: 'total', limit: limits.total };
    if ((this.lanes.get(key)?.queue.length ?? 0) >= limits.perLane) return { full: 'lane', limit: limits.perLane };
    return undefined;
  }

  /** Queues an item in its lane (check `refusal` first); answers how many wait ahead of it in that lane. */
  offer(key: string, cls: LaneClass, item: T): number {
    const lane = this.lanes.get(key) ?? this.open(key, cls);
    const ahead = lane.queue.length + (lane.running === undefined ? 0 : 1);
    lane.queue.push(item);
    this.queuedCount++;
    this.markReady(lane);
    this.pump();
    return ahead;
  }

  /** The item running in a lane. */
  running(key: string): T | undefined {
    return this.lanes.get(key)?.running;
  }

  /** The items waiting in a lane, oldest first (a copy). */
  queued(key: string): T[] {
    return [...(this.lanes.get(key)?.queue ?? [])];
  }

  /** Removes and answers a lane's waiting items that match. */
  remove(key: string, match: (item: T) => boolean = () => true): T[] {
    const lane = this.lanes.get(key);
    if (!lane) return [];
    const kept: T[] = [];
    const removed: T[] = [];
    for (const item of lane.queue) (match(item) ? removed : kept).push(item);
    lane.queue = kept;
    this.queuedCount -= removed.length;
    if (kept.length === 0) this.unready(lane);
    this.closeIfEmpty(lane);
    return removed;
  }

  /** Removes every waiting item of every lane. */
  removeAll(): T[] {
    return [...this.lanes.keys()].flatMap((key) => this.remove(key));
  }

  /** Waiting items in all lanes, and in lanes of one class. */
  waiting(cls?: LaneClass): number {
    if (cls === undefined) return this.queuedCount;
    let count = 0;
    for (const lane of this.lanes.values()) if (lane.cls === cls) count += lane.queue.length;
    return count;
  }

  /** Turns running now, in all classes or one. */
  activeCount(cls?: LaneClass): number {
    return cls === undefined ? this.active.person + this.active.background : this.active[cls];
  }

  /** Starts running queued items (lanes begin paused). */
  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Settles once every running item has finished. */
  async idle(): Promise<void> {
    while (this.settled.size > 0) await Promise.all([...this.settled]);
  }

  private open(key: string, cls: LaneClass): Lane<T> {
    const lane: Lane<T> = { key, cls, queue: [], running: undefined, ready: false };
    this.lanes.set(key, lane);
    return lane;
  }

  private markReady(lane: Lane<T>): void {
    if (lane.ready || lane.running !== undefined || lane.queue.length === 0) return;
    lane.ready = true;
    this.readyLanes[lane.cls].push(lane);
  }

  private unready(lane: Lane<T>): void {
    if (!lane.ready) return;
    lane.ready = false;
    const list = this.readyLanes[lane.cls];
    list.splice(list.indexOf(lane), 1);
  }

  private closeIfEmpty(lane: Lane<T>): void {
    if (lane.running === undefined && lane.queue.length === 0) this.lanes.delete(lane.key);
  }

  /** Starts the next item of each ready lane while its class has a free slot. */
  private pump(): void {
    if (this.paused) return;
    const limits = this.limits();
    for (const cls of ['person', 'background'] as const) {
      const max = Math.max(1, cls === 'person' ? limits.personTurns : limits.backgroundTurns);
      const list = this.readyLanes[cls];
      while (this.active[cls] < max && list.length > 0) this.start(list.shift()!);
    }
  }

  private start(lane: Lane<T>): void {
    lane.ready = false;
    const item = lane.queue.shift()!;
    this.queuedCount--;
    lane.running = item;
    this.active[lane.cls]++;
    const done = this.run(item, lane.key)
      .catch(() => undefined)
      .finally(() => {
        this.settled.delete(done);
        lane.running = undefined;
        this.active[lane.cls]--;
        this.markReady(lane);
        this.closeIfEmpty(lane);
        this.pump();
      });
    this.settled.add(done);
  }
}
