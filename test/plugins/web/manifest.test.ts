// The web plugin's manifest: it validates, its defaults are the ones the code falls back to, and its permissions
// are the two it needs (tools to declare web_fetch and web_search, net to say it reaches the network).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { validateDefs } from '../../../kernel/config/defs';
import { readManifest } from '../../../kernel/registry/discover';
import { MAX_TIMEOUT_MS } from '../../../plugins/web/policy';
import { DEFAULTS } from '../../../plugins/web/settings';
import { REPO_ROOT } from '../../harness/homed';

describe('the web plugin manifest', () => {
  it('validates, asks for tools and net only, and declares the defaults settings.ts falls back to', () => {
    const manifest = readManifest(path.join(REPO_ROOT, 'plugins', 'web'));
    assert.ok(typeof manifest !== 'string', manifest as string);
    assert.deepEqual(manifest.permissions, ['tools', 'net']);
    const defs = validateDefs('web', manifest.config ?? []);
    const defaults = Object.fromEntries(defs.map((def) => [def.key, def.default]));
    assert.deepEqual(defaults, DEFAULTS);
    assert.equal(defs.find((def) => def.key === 'timeout')?.max, MAX_TIMEOUT_MS);
    assert.equal(defs.find((def) => def.key === 'search_url')?.restart, true);
  });
});
