// The environment a turn was granted: variables a plugin with `env.grant` gave beside a tool result (a skill's
// api key once the skill was read), kept in memory for the rest of the turn (its sub-agents share it) and handed
// to each later call of a plugin with `env.receive`. Values are never logged, stored or shown; only names are.

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** How much of a refused name a warning repeats. */
const SHOWN_NAME_CHARS = 64;

/** What one grant did: the names kept, and why each refused entry was refused (in words without its value). */
export interface GrantOutcome {
  granted: string[];
  refused: string[];
}

/** The variables granted to one turn so far; a later grant of a name replaces the earlier value. */
export class TurnEnv {
  private readonly vars = new Map<string, string>();

  /** Adds a plugin's grant, checked entry by entry: a name must be a variable name, a value a string without NUL. */
  grant(env: unknown): GrantOutcome {
    if (typeof env !== 'object' || env === null || Array.isArray(env)) {
      return { granted: [], refused: [`the grant is ${Array.isArray(env) ? 'an array' : env === null ? 'null' : typeof env}, not an object of variables`] };
    }
    const outcome: GrantOutcome = { granted: [], refused: [] };
    for (const [name, value] of Object.entries(env)) {
      if (!ENV_NAME.test(name)) outcome.refused.push(`${JSON.stringify(name.slice(0, SHOWN_NAME_CHARS))} is not a variable name ([A-Za-z_][A-Za-z0-9_]*)`);
      else if (typeof value !== 'string') outcome.refused.push(`the value of ${name} is ${value === null ? 'null' : typeof value}, not a string`);
      else if (value.includes('\0')) outcome.refused.push(`the value of ${name} holds a NUL character, which no environment can`);
      else {
        this.vars.set(name, value);
        outcome.granted.push(name);
      }
    }
    return outcome;
  }

  /** The variables as an object; undefined when none was granted. */
  read(): Record<string, string> | undefined {
    return this.vars.size === 0 ? undefined : Object.fromEntries(this.vars);
  }

  /** The names granted so far (for tests and logs: never the values). */
  names(): string[] {
    return [...this.vars.keys()];
  }

  /** Forgets every variable (the turn ended). */
  clear(): void {
    this.vars.clear();
  }
}
