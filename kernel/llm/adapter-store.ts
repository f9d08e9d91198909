import * as fs from 'node:fs';
import * as path from 'node:path';
import { LuaAdapter } from './adapter';
import { LlmError } from './errors';

/** The adapters shipped with the kernel, compiled beside this file. */
export const BUILTIN_ADAPTER_DIR = path.join(__dirname, 'adapters');
export const BUILTIN_ADAPTERS = ['openai', 'anthropic', 'ollama'] as const;

const ADAPTER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

interface Cached {
  adapter: LuaAdapter;
  mtimeMs: number;
  size: number;
}

/**
 * Finds and loads adapters. `llm.provider.<name>.adapter` is a name or a path: a name is looked up in
 * `<data>/adapters/NAME.lua` first (so an owner can replace a shipped adapter), then among the shipped
 * ones; a path (with a `/` or ending in `.lua`) is taken as is, relative to the data dir. A loaded
 * adapter is kept until its file changes.
 */
export class AdapterStore {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly dataDir: string,
    private readonly builtinDir: string = BUILTIN_ADAPTER_DIR,
    private readonly print?: (adapter: string, line: string) => void,
  ) {}

  /** The folder where an owner drops adapters of their own. */
  get userDir(): string {
    return path.join(this.dataDir, 'adapters');
  }

  /** Returns the file an adapter setting refers to; throws a config LlmError when there is none. */
  resolve(spec: string, provider: string): string {
    return this.find(spec, provider).file;
  }

  /** Loads (or returns the cached) adapter for a setting; errors name the adapter, the file and the line. */
  load(spec: string, provider: string): LuaAdapter {
    // Checked at every request, so an owner's edit applies to the next one: one stat when the file is shipped.
    const { file, stat } = this.find(spec, provider);
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.adapter;
    const name = path.basename(file, '.lua');
    let adapter: LuaAdapter;
    try {
      const print = this.print;
      adapter = new LuaAdapter(name, file, fs.readFileSync(file, 'utf8'), print === undefined ? {} : { print: (line) => print(name, line) });
    } catch (error) {
      throw new LlmError(`LLM provider "${provider}": ${(error as Error).message}`, { kind: 'adapter', provider, cause: error });
    }
    this.cache.set(file, { adapter, mtimeMs: stat.mtimeMs, size: stat.size });
    return adapter;
  }

  // The file of an adapter setting with its stat: the owner's <data>/adapters/NAME.lua, else the shipped one.
  private find(spec: string, provider: string): { file: string; stat: fs.Stats } {
    const key = `llm.provider.${provider}.adapter`;
    if (spec.includes('/') || spec.endsWith('.lua')) {
      const file = path.resolve(this.dataDir, spec);
      const stat = statFile(file);
      if (!stat) throw configError(provider, `${key} is ${JSON.stringify(spec)}, but ${file} does not exist`);
      return { file, stat };
    }
    if (!ADAPTER_NAME.test(spec)) {
      throw configError(
        provider,
        `${key} is ${JSON.stringify(spec)}; use ${BUILTIN_ADAPTERS.join(', ')}, the name of a file in ${this.userDir}, or the path of a .lua file`,
      );
    }
    const own = path.join(this.userDir, `${spec}.lua`);
    const ownStat = statFile(own);
    if (ownStat) return { file: own, stat: ownStat };
    const shipped = path.join(this.builtinDir, `${spec}.lua`);
    const shippedStat = statFile(shipped);
    if (shippedStat) return { file: shipped, stat: shippedStat };
    throw configError(provider, `${key} is "${spec}", but there is no such adapter; use ${BUILTIN_ADAPTERS.join(', ')}, or put ${spec}.lua in ${this.userDir}`);
  }
}

// A file's stat, or undefined when nothing is there (as fs.existsSync, any error counts as absent).
function statFile(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function configError(provider: string, problem: string): LlmError {
  return new LlmError(`LLM provider "${provider}": ${problem}`, { kind: 'config', provider });
}
