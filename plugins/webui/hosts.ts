// Which `Host` and `Origin` headers name this server. A page on another name that resolves here (DNS
// rebinding) or a script on another origin is refused before any route runs.
import { hostname, networkInterfaces } from 'node:os';
import type { BindMode } from './settings';

/** The names this server answers to, once its port is known. */
export class HostPolicy {
  private port = 0;

  constructor(
    private readonly bind: BindMode,
    private readonly scheme: 'http' | 'https',
    /** The machine's own names under `lan` (addresses and host name); read from the OS unless given. */
    private readonly lanNames: () => string[] = machineNames,
    /** Names the owner added (`webui:hosts`), answered to under `lan`; the first is the sign-in links' host. */
    private readonly extraNames: readonly string[] = [],
  ) {}

  /** Called once the server listens (a `0` port becomes the one the OS chose). */
  setPort(port: number): void {
    this.port = port;
  }

  get listeningPort(): number {
    return this.port;
  }

  /** Whether a request's `Host` header names this server: a loopback name, or under `lan` one of the machine's. */
  allowsHost(host: string | undefined): boolean {
    if (host === undefined || this.port === 0) return false;
    const wanted = host.toLowerCase();
    return this.names().some((name) => `${name}:${this.port}` === wanted);
  }

  /** Whether an `Origin` header is this very server, reached by the name the request's Host gives. */
  allowsOrigin(origin: string | undefined, host: string | undefined): boolean {
    if (origin === undefined || host === undefined) return false;
    return origin.toLowerCase() === `${this.scheme}://${host.toLowerCase()}`;
  }

  /** The base URL a sign-in link uses: loopback, or under `lan` the first added name, else the machine's first network address. */
  baseUrl(): string {
    const host =
      this.bind === 'lan'
        ? (this.extraNames[0] ?? this.lanNames().find((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n) && !n.startsWith('127.')) ?? '127.0.0.1')
        : '127.0.0.1';
    return `${this.scheme}://${host}:${this.port}`;
  }

  private names(): string[] {
    const loopback = ['127.0.0.1', 'localhost', '[::1]'];
    return this.bind === 'lan' ? [...loopback, ...this.extraNames, ...this.lanNames().map((n) => n.toLowerCase())] : loopback;
  }
}

/** The machine's addresses (IPv6 in brackets) and host name, with its `.local` form. */
export function machineNames(): string[] {
  const names = [hostname(), `${hostname()}.local`];
  for (const list of Object.values(networkInterfaces())) {
    for (const address of list ?? []) names.push(address.family === 'IPv6' ? `[${address.address.replace(/%.*$/, '')}]` : address.address);
  }
  return names;
}
