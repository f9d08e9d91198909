import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { isOurUnit, renderUnit, userOfUnit } from '../../../kernel/service/unit-file';
import { dataDirOfUnit, SERVICE_FILE_MARK } from '../../../protocol';
import { securityScore } from '../../systemd/security-score';

const FIELDS = { node: '/usr/bin/node', packageRoot: '/opt/homeagent', dataDir: '/var/lib/homeagent', user: 'homeagent', group: 'homeagent' };

describe('the unit file', () => {
  it('fills the template: node, the package, the data dir and the user, marked as written by install-service', () => {
    const unit = renderUnit(FIELDS);
    assert.ok(unit.startsWith(SERVICE_FILE_MARK));
    assert.match(unit, /^ExecStart=\/usr\/bin\/node \/opt\/homeagent\/dist\/kernel\/main\.js -data \/var\/lib\/homeagent$/m);
    assert.match(unit, /^ReadWritePaths=\/var\/lib\/homeagent$/m);
    assert.match(unit, /^WatchdogSec=30$/m);
    assert.match(unit, /^NotifyAccess=main$/m);
    assert.match(unit, /^SystemCallFilter=@system-service @pkey$/m);
    assert.doesNotMatch(unit, /@[A-Z]+@/);
    assert.equal(dataDirOfUnit(unit), '/var/lib/homeagent');
    assert.equal(userOfUnit(unit), 'homeagent');
  });

  it('refuses a path systemd would split or expand, or a relative one, naming it', () => {
    assert.throws(() => renderUnit({ ...FIELDS, dataDir: '/srv/home agent' }), /the dataDir "\/srv\/home agent" has a space/);
    assert.throws(() => renderUnit({ ...FIELDS, packageRoot: '/opt/100%' }), /packageRoot .* a unit file cannot take/);
    assert.throws(() => renderUnit({ ...FIELDS, dataDir: 'data' }), /the dataDir "data" must be an absolute path/);
    assert.throws(() => renderUnit(FIELDS, '[Service]\nExecStart=@NODE@ @WHAT@\n'), /a field install-service does not know: @WHAT@/);
  });

  it('scores 2.5 or better in systemd-analyze security --offline', (t) => {
    if (spawnSync('systemd-analyze', ['--version']).status !== 0) return t.skip('systemd-analyze is not installed here (apt-get install systemd)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unit-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'homed.service');
    fs.writeFileSync(file, renderUnit(FIELDS));
    assert.ok(isOurUnit(file));
    const score = securityScore(spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', file], { encoding: 'utf8' }).stdout);
    t.diagnostic(`systemd-analyze security --offline=yes: ${score}`);
    assert.ok(score <= 2.5, String(score));
  });
});
