// The address rule: which addresses count as non-public (IPv4 and IPv6, v4-mapped and NAT64 included), how
// web:allow_private entries read, and which entry allows which target.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAddress, classifyAddress, parseAllowList, RefusedAddressError } from '../../../plugins/web/address-policy';
import { guardedLookup } from '../../../plugins/web/guarded-lookup';

describe('the address rule of web_fetch', () => {
  it('names every non-public range, in IPv4 and IPv6, and passes public unicast addresses', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.10', 'private'],
      ['::ffff:192.168.1.10', 'private'],
      ['fd00::1', 'uniqueLocal'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['93.184.215.14', null],
      ['1.1.1.1', null],
      ['::ffff:1.1.1.1', null],
      ['64:ff9b::101:101', null],
      ['2606:4700::6810:84e5', null],
    ];
    for (const [address, range] of cases) assert.equal(classifyAddress(address)?.range ?? null, range, address);
    assert.equal(classifyAddress('100.64.0.1')?.words, 'a carrier-grade NAT (CGNAT) address');
  });

  it('reads allow_private entries: names, name:port, addresses, [v6]:port and CIDRs', () => {
    const rules = parseAllowList([
      'NAS.lan',
      'nas.lan:8080',
      '192.168.1.10',
      '192.168.1.11:443',
      '[fd00::1]:8443',
      '10.0.0.0/8',
      'fd00::/8',
      '::ffff:10.0.0.0/104',
    ]);
    assert.deepEqual(
      rules.map((r) => r.kind),
      ['host', 'host', 'address', 'address', 'address', 'cidr', 'cidr', 'cidr'],
    );
    for (const bad of ['', 'http://nas.lan', 'nas.lan:0', 'nas.lan:99999', '10.0.0.0/33', 'a b', 'nas:lan:1', '[fd00::1]']) {
      assert.throws(() => parseAllowList([bad]), /web:allow_private has an entry .* that is not a host name, host:port, address or CIDR/, bad);
    }
    assert.throws(() => parseAllowList([42]), /has an entry 42/);
    assert.deepEqual(parseAllowList(undefined), []);
  });

  it('allows a non-public address only where an entry names it, with its port when the entry gives one', () => {
    const rules = parseAllowList(['nas.lan', '192.168.1.11:443', '10.0.0.0/8', '[fd00::1]:8443']);
    const allowed = (host: string, port: number, address: string): boolean => {
      try {
        checkAddress({ host, port }, address, rules);
        return true;
      } catch (error) {
        assert.ok(error instanceof RefusedAddressError);
        return false;
      }
    };
    assert.equal(allowed('example.org', 443, '93.184.215.14'), true, 'a public address needs no entry');
    assert.equal(allowed('nas.lan', 5000, '192.168.1.2'), true, 'a name allows what it resolves to, on any port');
    assert.equal(allowed('evil.example', 5000, '192.168.1.2'), false, 'another name resolving there does not');
    assert.equal(allowed('192.168.1.11', 443, '192.168.1.11'), true);
    assert.equal(allowed('192.168.1.11', 80, '192.168.1.11'), false, 'the entry names port 443 only');
    assert.equal(allowed('printer', 631, '10.9.8.7'), true, 'inside the CIDR');
    assert.equal(allowed('x', 80, '::ffff:10.9.8.7'), true, 'v4-mapped is the IPv4 address it carries');
    assert.equal(allowed('x', 8443, 'fd00::1'), true);
    assert.equal(allowed('x', 8443, 'fd00::2'), false);
    assert.equal(allowed('x', 80, '127.0.0.1'), false);
    assert.throws(() => checkAddress({ host: 'metadata.internal', port: 80 }, '169.254.169.254', rules), {
      message:
        'metadata.internal resolves to 169.254.169.254, a link-local address; web_fetch refuses private, loopback, link-local and other non-public addresses ' +
        `unless the setting web:allow_private allows them (e.g. homectl config set web:allow_private '["169.254.169.254:80"]')`,
    });
  });

  it('resolves through the guarded lookup: a name for loopback is refused at lookup, a public one passes', async () => {
    const lookup = (host: string, all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        guardedLookup({ host, port: 80 }, [])(host, { all }, (error, address) => (error ? reject(error) : resolve(address))),
      );
    await assert.rejects(lookup('localhost', true), (error: unknown) => error instanceof RefusedAddressError && /localhost resolves to/.test(error.message));
    await assert.rejects(lookup('localhost', false), RefusedAddressError);
    const literal = await lookup('93.184.215.14', false);
    assert.equal(literal, '93.184.215.14');
  });
});
