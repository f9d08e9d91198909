// The guard's matching and decisions, on plain values: argv prefixes, shell operators, path globs, defaults, order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalRule } from '../../../protocol';
import { commandWords } from '../../../plugins/approvals/command-line';
import { decide } from '../../../plugins/approvals/decide';
import { globMatches, prefixMatches, ruleMatches } from '../../../plugins/approvals/match';
import { DEFAULT_POLICY, parsePolicy, policyOf } from '../../../plugins/approvals/policy';
import { questionFor, summarizeArgs } from '../../../plugins/approvals/question';
import { alwaysRuleFor, makeRule, parseRules, RuleError } from '../../../plugins/approvals/rules';

function rule(fields: Partial<ApprovalRule> & Pick<ApprovalRule, 'tool'>): ApprovalRule {
  return { id: 'r-test', action: 'allow', added_at: '2024-01-01T00:00:00.000Z', added_by: 'test', ...fields };
}

describe('argv prefix rules', () => {
  it('match the first words of a plain command, as a line or an argv array', () => {
    assert.equal(prefixMatches('git status', 'git status'), true);
    assert.equal(prefixMatches('git status', 'git status -s'), true);
    assert.equal(prefixMatches('git status', '  git   status  --short '), true);
    assert.equal(prefixMatches('git status', ['git', 'status', '-s']), true);
    assert.equal(prefixMatches('git status', 'git "status" -s'), true, 'quotes around a word do not change it');
  });

  it('never match another command, a shorter one, or a word that only starts the same', () => {
    assert.equal(prefixMatches('git status', 'git statusx'), false);
    assert.equal(prefixMatches('git status', 'git'), false);
    assert.equal(prefixMatches('git status', 'git commit -m status'), false);
    assert.equal(prefixMatches('git status', 'sudo git status'), false);
    assert.equal(prefixMatches('git status', ['git', 'status; rm -rf ~']), false, 'an argv word is compared whole');
  });

  it('never match a command line with shell operators: it asks', () => {
    for (const line of [
      'git status; rm -rf ~',
      'git status && rm -rf ~',
      'git status || true',
      'git status | sh',
      'git status & rm x',
      'git status $(rm -rf ~)',
      'git status `rm -rf ~`',
      'git status > /etc/passwd',
      'git status < /dev/zero',
      'git status\nrm -rf ~',
      'git status "; rm -rf ~"',
    ]) {
      assert.equal(prefixMatches('git status', line), false, line);
      assert.equal(commandWords(line), undefined, line);
    }
  });

  it('an unclosed quote makes no words', () => {
    assert.equal(commandWords('git status "oops'), undefined);
    assert.equal(prefixMatches('git status', 'git status "oops'), false);
  });
});

describe('path rules', () => {
  it('globs match paths under them, dot files included', () => {
    assert.equal(globMatches('/home/lin/notes/**', '/home/lin/notes/a.md'), true);
    assert.equal(globMatches('/home/lin/notes/**', '/home/lin/notes/sub/.hidden'), true);
    assert.equal(globMatches('/home/lin/notes/*.md', '/home/lin/notes/a.md'), true);
    assert.equal(globMatches('/home/lin/notes/*.md', '/home/lin/notes/a.txt'), false);
    assert.equal(globMatches('/home/lin/notes/**', '/home/lin/other/a.md'), false);
  });

  it('resolve .. before matching, so a path cannot climb out of the glob', () => {
    assert.equal(globMatches('/home/lin/notes/**', '/home/lin/notes/../.ssh/authorized_keys'), false);
    assert.equal(globMatches('/home/lin/notes/**', '/home/lin/x/../notes/a.md'), true);
    assert.equal(globMatches('notes/**', '../notes/a.md'), false);
    assert.equal(globMatches('/home/lin/**', 'a\0b'), false);
    assert.equal(globMatches('/home/lin/**', 42), false);
  });

  it('an exact path rule matches that path only', () => {
    const exact = rule({ tool: 'write_file', path: '/home/lin/a.txt' });
    assert.equal(ruleMatches(exact, { name: 'write_file', args: { path: '/home/lin/./a.txt', content: 'x' } }), true);
    assert.equal(ruleMatches(exact, { name: 'write_file', args: { path: '/home/lin/a.txt.bak', content: 'x' } }), false);
    assert.equal(ruleMatches(exact, { name: 'edit_file', args: { path: '/home/lin/a.txt' } }), false, 'a rule is about its tool only');
  });
});

describe('decisions', () => {
  it('read-only tools are allowed, exec and writes ask, unknown tools ask', () => {
    for (const tool of ['read_file', 'list_files', 'search_files', 'web_fetch', 'web_search', 'memory_search', 'knowledge_search', 'timer_list', 'child_result']) {
      assert.equal(policyOf(tool, {}), 'allow', tool);
    }
    for (const tool of ['exec', 'write_file', 'edit_file', 'add', 'plugin_install', 'plugin_remove']) assert.equal(policyOf(tool, {}), 'ask', tool);
    assert.equal(policyOf('timer_set', { timer_set: 'ask' }), 'ask', 'the owner overrides a default');
    assert.equal(DEFAULT_POLICY['exec'], 'ask');
  });

  it('deny rules come first, then a tool denied outright, then allow rules, then the policy', () => {
    const call = { name: 'exec', args: { command: 'git push origin main' } };
    const allowGit = rule({ id: 'r-allow', tool: 'exec', prefix: 'git' });
    const denyPush = rule({ id: 'r-deny', tool: 'exec', prefix: 'git push', action: 'deny' });
    assert.deepEqual(decide(call, [allowGit, denyPush], {}), { action: 'deny', by: 'rule', rule: denyPush });
    assert.deepEqual(decide(call, [allowGit], { exec: 'deny' }), { action: 'deny', by: 'policy' });
    assert.deepEqual(decide(call, [allowGit], {}), { action: 'allow', by: 'rule', rule: allowGit });
    assert.deepEqual(decide({ name: 'exec', args: { command: 'git push; rm -rf ~' } }, [allowGit], {}), { action: 'ask', by: 'policy' });
    assert.deepEqual(decide({ name: 'read_file', args: { path: '/etc/hosts' } }, [], {}), { action: 'allow', by: 'policy' });
  });

  it('a tool-only rule matches every call of its tool', () => {
    assert.deepEqual(decide({ name: 'add', args: { a: 1, b: 2 } }, [rule({ tool: 'add' })], {}).action, 'allow');
  });
});

describe('rules from the setting and from answers', () => {
  it('keeps the well-formed rules and names each one left out', () => {
    const good = rule({ tool: 'exec', prefix: 'ls' });
    const { rules, problems } = parseRules([good, { tool: 'exec' }, rule({ tool: 'exec', prefix: 'ls', glob: '/x' }), rule({ tool: 'exec', prefix: 'ls; rm' }), 'x']);
    assert.deepEqual(rules, [good]);
    assert.equal(problems.length, 4);
    assert.match(problems[0]!, /rules\[1\] is left out: it has no "id"/);
    assert.match(problems[1]!, /gives prefix and glob/);
    assert.match(problems[2]!, /has shell operators/);
    assert.match(parseRules({}).problems[0]!, /must be a list/);
  });

  it('refuses to make a prefix rule with shell operators', () => {
    assert.throws(() => makeRule({ tool: 'exec', action: 'allow', prefix: 'git status; rm' }, 'test', 0), RuleError);
  });

  it('"always" allows that very command or path again, else the tool', () => {
    assert.deepEqual(alwaysRuleFor({ name: 'exec', args: { command: ' rm -r old/ ' } }), { tool: 'exec', action: 'allow', command: 'rm -r old/' });
    assert.deepEqual(alwaysRuleFor({ name: 'exec', args: { command: ['rm', '-r', 'my dir'] } }), { tool: 'exec', action: 'allow', command: "rm -r 'my dir'" });
    assert.deepEqual(alwaysRuleFor({ name: 'write_file', args: { path: '/a', content: 'x' } }), { tool: 'write_file', action: 'allow', path: '/a' });
    assert.deepEqual(alwaysRuleFor({ name: 'add', args: { a: 1 } }), { tool: 'add', action: 'allow' });
    const exact = rule({ tool: 'exec', command: 'rm -r old/' });
    assert.equal(ruleMatches(exact, { name: 'exec', args: { command: 'rm -r old/' } }), true);
    assert.equal(ruleMatches(exact, { name: 'exec', args: { command: 'rm -r old/ ~' } }), false, 'an exact rule is no prefix');
  });

  it('reads the per-tool policy, naming bad entries', () => {
    assert.deepEqual(parsePolicy({ exec: 'deny', add: 'sometimes' }), { policy: { exec: 'deny' }, problems: ['approvals:policy.add is "sometimes", not one of allow, ask, deny; the default applies'] });
  });
});

describe('questions', () => {
  it('say what would run, where, or on which path', () => {
    assert.equal(questionFor({ name: 'exec', args: { command: 'rm -r old/', cwd: '/home/lin' } }), 'Allow exec "rm -r old/" in /home/lin?');
    assert.equal(questionFor({ name: 'write_file', args: { path: '/home/lin/a.txt', content: 'x' } }), 'Allow write_file on /home/lin/a.txt?');
    assert.equal(questionFor({ name: 'add', args: { a: 1, b: 2 } }), 'Allow add {"a":1,"b":2}?');
    assert.match(summarizeArgs({ content: 'x'.repeat(10_000) }), /^\{"content":"x{119}…"\}$/);
  });
});
