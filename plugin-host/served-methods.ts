// The client methods a plugin serves, as the host keeps them: by wire name for client/invoke, and as the handshake
// declares them (each from its descriptor, so the kernel checks exactly what protocol/ says).
import { clientMethodDecl, type ClientMethodDecl } from '../protocol';
import type { ClientMethodDefinition } from './sdk';

export class ServedMethods {
  private readonly byName = new Map<string, ClientMethodDefinition>();

  /** Indexes `methods`; an entry that is not serve()'s, or a second one of a name, is a mistake in the plugin. */
  constructor(methods: readonly ClientMethodDefinition[] = []) {
    methods.forEach((method, index) => {
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
