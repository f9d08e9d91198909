/** A bounded FIFO: `offer` refuses when full (the sender is told, nothing is dropped), `take` waits for an item. */
export class BoundedChannel<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];

  constructor(
    readonly name: string,
    readonly capacity: number,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** Adds an item; false when the channel is full. */
  offer(item: T): boolean {
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(item);
      return true;
    }
    if (this.items.length >= this.capacity) return false;
    this.items.push(item);
    return true;
  }

  /** The next item, waiting for one if empty. */
  take(): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push(resolve));
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
