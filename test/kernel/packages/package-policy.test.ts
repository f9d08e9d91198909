import assert from 'node:assert/strict';
import test from 'node:test';
import type { PluginManifest } from '../../../protocol';
import { InstallError } from '../../../kernel/packages/errors';
import { checkPolicy } from '../../../kernel/packages/package-policy';

const manifest = (homeagent?: string): PluginManifest => ({
  name: 'weather',
  version: '1.0.0',
  entry: 'index.mjs',
  ...(homeagent === undefined ? {} : { homeagent }),
});

function refusal(homeagent: string, running: string): string | undefined {
  try {
    checkPolicy(manifest(homeagent), { homeagentVersion: running });
    return undefined;
  } catch (error) {
    assert.ok(error instanceof InstallError, String(error));
    assert.equal(error.kind, 'INVALID_PACKAGE');
    assert.equal(error.rule, 'package.homeagent-version');
    return error.message;
  }
}

test('homeagent names the lowest version: this one, earlier ones, >= and > forms and build metadata are accepted', () => {
  for (const wanted of ['0.1.0', '0.0.9', ' 0.1.0 ', '>=0.0.9', '>= 0.1.0', '>0.1.0', '0.1.0+build.7', 'v0.1.0', '0.1.0-beta.2']) {
    assert.equal(refusal(wanted, '0.1.0'), undefined, `"${wanted}" on 0.1.0`);
  }
  assert.doesNotThrow(() => checkPolicy(manifest(), { homeagentVersion: '0.1.0' }), 'no homeagent field: any version');
  assert.doesNotThrow(() => checkPolicy(manifest('9.0.0'), {}), 'no running version given: nothing to compare');
});

test('a later version, pre-releases included, is refused naming both versions', () => {
  assert.match(refusal('0.2.0', '0.1.0') ?? '', /needs HomeAgent 0\.2\.0 or later, and this is 0\.1\.0/);
  assert.match(refusal('>=0.1.1', '0.1.0') ?? '', /needs HomeAgent >=0\.1\.1 or later, and this is 0\.1\.0/);
  assert.match(refusal('0.2.0-beta.1', '0.1.0') ?? '', /needs HomeAgent 0\.2\.0-beta\.1 or later/);
  assert.match(refusal('0.2.0', '0.2.0-rc.1') ?? '', /and this is 0\.2\.0-rc\.1/, 'a pre-release comes before its release');
  assert.equal(refusal('0.2.0-beta.1', '0.2.0-beta.2'), undefined, 'pre-releases of one version sort by their identifiers');
});

test('anything that is not a version is refused with the same clear error', () => {
  for (const wanted of ['soon', '', '1.2', '1', 'latest', '^0.1.0', '~0.1.0', '0.1.0 || 0.2.0', '1.2.3abc', 'abc1.2.3']) {
    const message = refusal(wanted, '0.1.0') ?? assert.fail(`"${wanted}" was accepted`);
    assert.ok(message.includes(`its plugin.json asks for HomeAgent "${wanted}", which is not a version like 1.2.0`), message);
    assert.match(message, /update HomeAgent, or install a version of the plugin made for this one/);
  }
});

test('a running version that is not a version leaves the package accepted, as a development build would', () => {
  assert.equal(refusal('0.2.0', 'dev'), undefined);
});
