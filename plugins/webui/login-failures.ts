// Wrong sign-in tries, counted per address. Past the allowance a wrong try is answered 429 until the window moves
// on; a valid one-time secret is never counted and never refused: every local user reaches the page from
// 127.0.0.1, so limiting every try would let any of them lock the owner out with a few wrong ones.

/** Wrong tries allowed per address and window. */
export interface FailurePolicy {
  max: number;
  windowMs: number;
}

/** Ten wrong tries a minute per address. */
export const LOGIN_FAILURES: FailurePolicy = { max: 10, windowMs: 60_000 };

/** Addresses remembered at once; past it the one that failed longest ago is forgotten (a LAN scan cannot grow the map). */
const MAX_ADDRESSES = 10_000;

/** The wrong tries of each address within the window. */
export class LoginFailures {
  /** The most recent wrong tries (at most `max`) per address, oldest first; the Map keeps addresses in order of their last try. */
  private readonly tries = new Map<string, number[]>();

  constructor(
    private readonly policy: FailurePolicy = LOGIN_FAILURES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a wrong try from `address`: 0 while it is within the allowance, else the ms until the address may try again. */
  fail(address: string): number {
    const at = this.now();
    const recent = (this.tries.get(address) ?? []).filter((t) => at - t < this.policy.windowMs);
    const limited = recent.length >= this.policy.max;
    recent.push(at);
    if (recent.length > this.policy.max) recent.shift();
    this.tries.delete(address);
    this.tries.set(address, recent);
    if (this.tries.size > MAX_ADDRESSES) this.tries.delete(this.tries.keys().next().value as string);
    return limited ? Math.max(1, (recent[0] as number) + this.policy.windowMs - at) : 0;
  }
}
