/**
 * A bounded FIFO: `offer` refuses when full (the sender is told, nothing is dropped), `take` waits for an item.
 * An item stays in the channel until its taker runs, so `remove` always finds every item not yet taken, in order.
 */
export class BoundedChannel<T> {
  private readonly items: T[] = [];
  private readonly waiters: (() => void)[] = [];

  constructor(
    readonly name: string,
    readonly capacity: number,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** Adds an item and wakes a waiting taker; false when the channel is full. */
  offer(item: T): boolean {
    if (this.items.length >= this.capacity) return false;
    this.items.push(item);
    this.waiters.shift()?.();
    return true;
  }

  /** The next item, waiting for one if empty. */
  async take(): Promise<T> {
    while (this.items.length === 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.items.shift() as T;
  }

  /** Removes and returns every queued item matching `match`. */
  remove(match: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (let i = this.items.length - 1; i >= 0; i--) {
      if (match(this.items[i] as T)) removed.unshift(...this.items.splice(i, 1));
    }
    return removed;
  }
}
