// The client methods a plugin serves, as the host keeps them: by wire name for client/invoke, and as the handshake
// declares them (each from its descriptor, so the kernel checks exactly what protocol/ says).
import { clientMethodDecl, request, type ClientMethodDecl, type JsonSchema, type Permission } from '../protocol';
import type { ClientMethodDefinition, PluginContext } from './sdk';

/**
 * A method as a package in plain JavaScript writes it, under its wire name in a `clientMethods` object: it has no
 * protocol file to declare a descriptor in, so the row carries the descriptor's fields (docs/ARCHITECTURE.md §16.4).
 */
interface PlainMethodRow {
  params: JsonSchema;
  permission?: Permission | Permission[];
  owner?: boolean;
  timeoutMs?: number;
  run: (params: never, ctx: PluginContext) => unknown;
}

export class ServedMethods {
  private readonly byName = new Map<string, ClientMethodDefinition>();

  /** Indexes `methods`; an entry that is not serve()'s, or a second one of a name, is a mistake in the plugin. */
  constructor(methods: readonly ClientMethodDefinition[] | Readonly<Record<string, PlainMethodRow>> = []) {
    fromRows(methods).forEach((method, index) => {
      const name: unknown = method?.descriptor?.method;
      if (typeof name !== 'string' || !Array.isArray(method.descriptor.permission) || typeof method.run !== 'function') {
        throw new Error(`clientMethods[${index}] is not a served method; make each with serve(descriptor, handler)`);
      }
      if (this.byName.has(name)) throw new Error(`clientMethods serves ${name} twice; keep one`);
      this.byName.set(name, method);
    });
  }

  /** The method served under `name`, if any. */
  get(name: string): ClientMethodDefinition | undefined {
    return this.byName.get(name);
  }

  /** The handshake's declarations; none when the plugin serves none. */
  declare(): ClientMethodDecl[] | undefined {
    if (this.byName.size === 0) return undefined;
    return [...this.byName.values()].map((method) => clientMethodDecl(method.descriptor));
  }
}

/** serve()'s list as it is; a plain-JavaScript object of rows, each made into what serve() would make of it. */
function fromRows(methods: readonly ClientMethodDefinition[] | Readonly<Record<string, PlainMethodRow>>): readonly ClientMethodDefinition[] {
  if (Array.isArray(methods)) return methods;
  if (typeof methods !== 'object' || methods === null)
    throw new Error('clientMethods is neither a list of served methods nor an object of rows by method name');
  return Object.entries(methods as Record<string, PlainMethodRow>).map(([name, row]) => {
    if (typeof row !== 'object' || row === null || typeof row.params !== 'object' || row.params === null || typeof row.run !== 'function') {
      throw new Error(`clientMethods["${name}"] needs params (a JSON Schema) and run(params, ctx)`);
    }
    const descriptor = request<never, unknown>(name, {
      params: row.params,
      permission: row.permission ?? null,
      ...(row.owner === true ? { owner: true } : {}),
      ...(typeof row.timeoutMs === 'number' ? { timeoutMs: row.timeoutMs } : {}),
    });
    return { descriptor, run: row.run };
  });
}
