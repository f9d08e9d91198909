import { ErrorCodes, haError } from '../../protocol';

/** Facts a ConfigError carries: which table and key it concerns. */
export interface ConfigErrorFacts {
  scope: string;
  key?: string;
  /** For an unknown key: the declared key it is most likely a typo of. */
  suggestion?: string;
  /** When the suggestion is another table's key (`exec.max_timeout` typed for `exec:max_timeout`): that table. */
  suggestionScope?: string;
}

/** A refused config operation: a bad value, definition or scope name (InvalidValue), or an unknown key (NotFound). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code: number;
  readonly scope: string;
  readonly key: string | undefined;
  readonly suggestion: string | undefined;
  readonly suggestionScope: string | undefined;

  constructor(message: string, facts: ConfigErrorFacts, code: number = ErrorCodes.InvalidValue) {
    super(message);
    this.code = code;
    this.scope = facts.scope;
    this.key = facts.key;
    this.suggestion = facts.suggestion;
    this.suggestionScope = facts.suggestionScope;
  }

  /** Turns the error into the wire error an SDK handler answers with. */
  toResponseError(): ReturnType<typeof haError> {
    const facts: ConfigErrorFacts = { scope: this.scope };
    if (this.key !== undefined) facts.key = this.key;
    if (this.suggestion !== undefined) facts.suggestion = this.suggestion;
    if (this.suggestionScope !== undefined) facts.suggestionScope = this.suggestionScope;
    return haError(this.code, this.message, { ...facts });
  }
}

/**
 * Names a key the way homectl takes it and the person typed it, in messages and in commands alike: a core key as
 * is (`core.log.level`, `llm.provider.work.model`, no `core.` they never wrote), a plugin's as `weather:api_key`.
 */
export function labelOf(scope: string, key: string): string {
  return scope === 'core' ? key : `${scope}:${key}`;
}
