import { formatDuration } from '../../protocol/format';
/** What the registry needs of a sub-agent's turn: run it to its end, or cut it short. */
export interface ChildTurn {
  run(): Promise<{ text: string; interrupted: boolean }>;
  interrupt(): void;
}

/** A sub-agent: its own task and brief, run beside its parent's turn. */
export interface ChildRun {
  id: string;
  task: string;
  state: 'running' | 'done' | 'error' | 'cancelled' | 'timeout';
  text?: string;
  error?: string;
  startedAt: number;
  finished: Promise<void>;
  turn: ChildTurn;
}

export interface ChildLimits {
  maxDepth: number;
  maxRunning: number;
  timeoutMs: number;
}

/** The sub-agents of one turn, within limits on depth, count and time; they end with their parent. */
export class ChildRegistry {
  private readonly children = new Map<string, ChildRun>();
  private next = 0;

  constructor(
    readonly depth: number,
    private readonly limits: ChildLimits,
    private readonly startTurn: (task: string, brief: string | undefined, depth: number, id: string) => ChildTurn,
  ) {}

  /** Starts a child; throws with the limit's name when depth or count would exceed it. */
  spawn(task: string, brief?: string): ChildRun {
    if (this.depth >= this.limits.maxDepth) {
      throw new Error(`sub-agents may nest ${this.limits.maxDepth} deep; this one is at depth ${this.depth} and may not spawn`);
    }
    const running = [...this.children.values()].filter((c) => c.state === 'running').length;
    if (running >= this.limits.maxRunning) {
      throw new Error(`${running} sub-agents are already running (the limit is ${this.limits.maxRunning}); wait for one with child_result`);
    }
    const id = `child-${++this.next}`;
    const turn = this.startTurn(task, brief, this.depth + 1, id);
    const child: ChildRun = { id, task, state: 'running', startedAt: Date.now(), turn, finished: Promise.resolve() };
    const timer = setTimeout(() => {
      if (child.state !== 'running') return;
      child.state = 'timeout';
      child.error = `did not finish within ${formatDuration(this.limits.timeoutMs)}`;
      turn.interrupt();
    }, this.limits.timeoutMs);
    child.finished = turn
      .run()
      .then(
        (outcome) => {
          if (child.state === 'running') child.state = outcome.interrupted ? 'cancelled' : 'done';
          child.text = outcome.text;
        },
        (error: Error) => {
          if (child.state === 'running') child.state = 'error';
          child.error ??= error.message;
        },
      )
      .finally(() => clearTimeout(timer));
    this.children.set(id, child);
    return child;
  }

  get(id: string): ChildRun | undefined {
    return this.children.get(id);
  }

  list(): ChildRun[] {
    return [...this.children.values()];
  }

  /** Cancels every running child (the parent was interrupted or ended). */
  cancelAll(): void {
    for (const child of this.children.values()) {
      if (child.state !== 'running') continue;
      child.state = 'cancelled';
      child.turn.interrupt();
    }
  }
}
