// The plugin tool calls running now, by (plugin, call id), so that a plugin's tool/progress reaches the session
// of its own running call and nothing else.

/** Receives one piece of a running call's output. */
export type ProgressSink = (text: string) => void;

/** Registry of running plugin tool calls; each call id is unique per plugin while the call runs. */
export class InFlightToolCalls {
  private readonly calls = new Map<string, ProgressSink>();
  private issued = 0;
  /** Progress pieces dropped: their call had ended, or never ran under that plugin and id. */
  dropped = 0;

  /**
   * Registers a call to `plugin` and answers the id `tool/invoke` names it by: the model's id when it has one
   * that no running call of that plugin uses, else one made unique (`<id>#<n>`, or `call-<n>` without one).
   */
  open(plugin: string, wanted: string | undefined, sink: ProgressSink): string {
    let id = wanted !== undefined && wanted !== '' ? wanted : `call-${++this.issued}`;
    while (this.calls.has(keyOf(plugin, id))) id = `${wanted || 'call'}#${++this.issued}`;
    this.calls.set(keyOf(plugin, id), sink);
    return id;
  }

  /** The call ended: later progress under its id is dropped. */
  close(plugin: string, id: string): void {
    this.calls.delete(keyOf(plugin, id));
  }

  /** Hands a progress piece to its call; answers false (dropped) when `plugin` runs no call of that id. */
  progress(plugin: string, id: string, text: string): boolean {
    const sink = this.calls.get(keyOf(plugin, id));
    if (!sink) {
      this.dropped++;
      return false;
    }
    sink(text);
    return true;
  }

  /** Calls running now. */
  get size(): number {
    return this.calls.size;
  }
}

function keyOf(plugin: string, id: string): string {
  return `${plugin}\u0000${id}`;
}
