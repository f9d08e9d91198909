// Which addresses web_fetch may connect to: public unicast ones, and the non-public ones the owner allowed in
// `web:allow_private` (host names, host:port, addresses or CIDRs). Checked against the address a socket is about
// to connect to, not the URL's text, so a name that resolves to 127.0.0.1 is caught as well as 127.0.0.1 itself.
import ipaddr from 'ipaddr.js';
import { SETTING } from './policy';

type IP = ipaddr.IPv4 | ipaddr.IPv6;

/** One entry of `web:allow_private`, parsed. */
export type AllowRule =
  | { kind: 'cidr'; text: string; range: [IP, number] }
  | { kind: 'address'; text: string; address: IP; port?: number }
  | { kind: 'host'; text: string; host: string; port?: number };

/** Where a request goes: the URL's host (lower case, no brackets) and port. */
export interface Target {
  host: string;
  port: number;
}

/** A request refused by the address rule; the message says which address, why, and which setting allows it. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  constructor(
    message: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(message);
  }
}

/** A value of `web:allow_private` that cannot be read. */
export class AllowListError extends Error {
  override readonly name = 'AllowListError';
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (CGNAT) address',
  private: 'a private address',
  uniqueLocal: 'a unique local (private) address',
  deprecatedSiteLocal: 'a site-local (private) address',
};

/** Why an address is not public (`a loopback address`), with the range's name; null for a public unicast address. */
export function classifyAddress(text: string): { range: string; words: string } | null {
  const address = normalize(ipaddr.parse(text));
  const range = address.range();
  if (range === 'unicast') return null;
  // NAT64 (64:ff9b::/96) and IPv4-translated addresses carry an IPv4 address in their last 32 bits: judge that one.
  if (address.kind() === 'ipv6' && (range === 'rfc6052' || range === 'rfc6145')) {
    const parts = (address as ipaddr.IPv6).parts;
    const embedded = new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
    return classifyAddress(embedded.toString());
  }
  return { range, words: RANGE_WORDS[range] ?? `a special-purpose address (${range})` };
}

/** Reads `web:allow_private`: a list of strings, each a host name, host:port, an address, [v6]:port or a CIDR. */
export function parseAllowList(value: unknown): AllowRule[] {
  if (value === undefined || value === null || value === '') return [];
  if (!Array.isArray(value)) {
    throw new AllowListError(
      `the setting web:${SETTING.allowPrivate} must be a list of strings, like ["nas.lan", "192.168.1.10:8080", "10.0.0.0/8"]; it is ${JSON.stringify(value)}`,
    );
  }
  return value.map((entry: unknown) => {
    const rule = typeof entry === 'string' ? parseAllowEntry(entry.trim()) : undefined;
    if (!rule) {
      throw new AllowListError(
        `the setting web:${SETTING.allowPrivate} has an entry ${JSON.stringify(entry)} that is not a host name, host:port, address or CIDR; ` +
          'write entries like "nas.lan", "nas.lan:8080", "192.168.1.10", "[fd00::1]:443" or "10.0.0.0/8"',
      );
    }
    return rule;
  });
}

function parseAllowEntry(text: string): AllowRule | undefined {
  if (text === '') return undefined;
  if (text.includes('/')) {
    return ipaddr.isValidCIDR(text) ? { kind: 'cidr', text, range: normalizeRange(ipaddr.parseCIDR(text)) } : undefined;
  }
  if (ipaddr.isValid(text)) return { kind: 'address', text, address: normalize(ipaddr.parse(text)) };
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text);
  if (bracketed) {
    const port = parsePort(bracketed[2]!);
    return ipaddr.IPv6.isValid(bracketed[1]!) && port !== undefined
      ? { kind: 'address', text, address: normalize(ipaddr.parse(bracketed[1]!)), port }
      : undefined;
  }
  const [host = '', portText, ...rest] = text.split(':');
  if (rest.length > 0) return undefined;
  const port = portText === undefined ? undefined : parsePort(portText);
  if (portText !== undefined && port === undefined) return undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return { kind: 'address', text, address: ipaddr.parse(host), ...(port === undefined ? {} : { port }) };
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(host)) return undefined;
  return { kind: 'host', text, host: host.toLowerCase().replace(/\.$/, ''), ...(port === undefined ? {} : { port }) };
}

function parsePort(text: string): number | undefined {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * Throws a RefusedAddressError unless `target` may connect to `address`: a public unicast address always may,
 * another one only when a rule of the allow list names it (its address or CIDR, or the host name asked for,
 * with the port when the rule gives one).
 */
export function checkAddress(target: Target, address: string, rules: readonly AllowRule[]): void {
  const why = classifyAddress(address);
  if (!why) return;
  const ip = normalize(ipaddr.parse(address));
  if (rules.some((rule) => allows(rule, target, ip))) return;
  const shown = ip.toString();
  const where = target.host === shown || target.host === address ? `${shown} is` : `${target.host} resolves to ${shown},`;
  const example = ip.kind() === 'ipv6' ? `[${shown}]:${target.port}` : `${shown}:${target.port}`;
  throw new RefusedAddressError(
    `${where} ${why.words}; web_fetch refuses private, loopback, link-local and other non-public addresses unless the setting ` +
      `web:${SETTING.allowPrivate} allows them (e.g. homectl config set web:${SETTING.allowPrivate} '${JSON.stringify([example])}')`,
    shown,
    why.range,
  );
}

function allows(rule: AllowRule, target: Target, ip: IP): boolean {
  switch (rule.kind) {
    case 'cidr':
      return ip.kind() === rule.range[0].kind() && ip.match(rule.range);
    case 'address':
      return (
        ip.kind() === rule.address.kind() &&
        ip.toNormalizedString() === rule.address.toNormalizedString() &&
        (rule.port === undefined || rule.port === target.port)
      );
    case 'host':
      return rule.host === target.host.replace(/\.$/, '') && (rule.port === undefined || rule.port === target.port);
  }
}

// An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it carries.
function normalize(ip: IP): IP {
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

function normalizeRange([ip, bits]: [IP, number]): [IP, number] {
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96 ? [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96] : [ip, bits];
}
