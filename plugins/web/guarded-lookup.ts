// The DNS lookup node:http uses for web_fetch: it resolves as usual, then keeps only the addresses the address
// rule allows, so the socket can only ever connect to one of those (a name that resolves to 127.0.0.1, or starts
// to after a first check, is caught here at connect time; so is each redirect's host).
import * as dns from 'node:dns';
import * as net from 'node:net';
import { checkAddress, RefusedAddressError, type AllowRule, type Target } from './address-policy';

/** A lookup for one target (host and port) that refuses every address the rules do not allow. */
export function guardedLookup(target: Target, rules: readonly AllowRule[]): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refusals: RefusedAddressError[] = [];
      const allowed = addresses.filter((entry) => {
        try {
          checkAddress(target, entry.address, rules);
          return true;
        } catch (refusal) {
          if (!(refusal instanceof RefusedAddressError)) throw refusal;
          refusals.push(refusal);
          return false;
        }
      });
      const first = allowed[0];
      if (!first) return callback(refusals[0] ?? new Error(`${hostname} resolved to no address`), '', 0);
      if (options.all) return callback(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}

/** Checks a host written as an address in the URL (no lookup happens for one), so it meets the same rule. */
export function checkLiteralHost(target: Target, rules: readonly AllowRule[]): void {
  if (net.isIP(target.host) !== 0) checkAddress(target, target.host, rules);
}
