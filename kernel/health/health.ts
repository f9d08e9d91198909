// Whether the kernel is healthy, as the systemd watchdog asks it: every registered hook must say yes. The kernel
// registers its own (its event loop, its supervision of plugins); a health-check plugin can add one.

/** One hook's answer. */
export interface HealthVerdict {
  healthy: boolean;
  /** Why not, in words for `systemctl status` and the log. */
  reason?: string;
}

/** A named check the watchdog asks before each keep-alive; it must answer at once (no IO). */
export interface HealthHook {
  name: string;
  check(): HealthVerdict;
  /** The same answer without using up what the next check judges (for status); default: check. */
  peek?(): HealthVerdict;
}

/** The hooks that do not say yes, with why. */
export interface HealthReport {
  healthy: boolean;
  failing: { name: string; reason: string }[];
}

/** The set of hooks the watchdog consults. */
export class Health {
  private readonly hooks = new Map<string, HealthHook>();

  /** Adds a hook (replacing one of the same name); returns what removes it. */
  register(hook: HealthHook): () => void {
    this.hooks.set(hook.name, hook);
    return () => {
      if (this.hooks.get(hook.name) === hook) this.hooks.delete(hook.name);
    };
  }

  /** Asks every hook; a hook that throws counts as unhealthy, with its error as the reason. */
  check(): HealthReport {
    return this.ask((hook) => hook.check());
  }

  /** What check would answer now, for status, leaving each hook's samples to the watchdog's next check. */
  peek(): HealthReport {
    return this.ask((hook) => (hook.peek ? hook.peek() : hook.check()));
  }

  private ask(question: (hook: HealthHook) => HealthVerdict): HealthReport {
    const failing: { name: string; reason: string }[] = [];
    for (const hook of this.hooks.values()) {
      let verdict: HealthVerdict;
      try {
        verdict = question(hook);
      } catch (error) {
        verdict = { healthy: false, reason: `its check failed: ${(error as Error).message}` };
      }
      if (!verdict.healthy) failing.push({ name: hook.name, reason: verdict.reason ?? 'unhealthy' });
    }
    return { healthy: failing.length === 0, failing };
  }
}
