// homectl approvals list|allow|revoke|pending|answer: the guard's rules and its record of decisions (served by the
// approvals plugin), and the questions waiting for a person (served by the kernel; any client may answer them).
import { ApprovalsApi, SocketApi, type ApprovalRule, type ApprovalsAllowParams } from '../../../protocol';
import { parseCountFlag } from './flags';
import { formatTime } from './format';
import { renderTable } from './table';
import { printJson, UsageError, type Command } from './types';

const json = { json: { type: 'boolean' } } as const;

/** What a rule matches, in one cell: `prefix "git status"`, `glob /home/lin/**`, `any call`, with ` in DIR` and ` with NAME="…"` when it says. */
export function describeMatch(rule: ApprovalRule): string {
  const where = rule.cwd === undefined ? '' : rule.cwd === '.' ? ' in the default folder' : ` in ${JSON.stringify(rule.cwd)}`;
  const variables = rule.env
    ? ` with ${Object.entries(rule.env)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join(' ')}`
    : '';
  return `${describePattern(rule)}${where}${variables}`;
}

function describePattern(rule: ApprovalRule): string {
  if (rule.prefix !== undefined) return `prefix ${JSON.stringify(rule.prefix)}`;
  if (rule.command !== undefined) return `command ${JSON.stringify(rule.command)}`;
  if (rule.glob !== undefined) return `glob ${rule.glob}`;
  if (rule.path !== undefined) return `path ${rule.path}`;
  return 'any call';
}

/** `approvals allow`'s rule: exec takes a command (words: a prefix; --exact: the whole line), other tools a path (a glob; --exact: the path). */
export function ruleFromWords(tool: string, words: string[], exact: boolean, deny: boolean): ApprovalsAllowParams {
  const action = deny ? 'deny' : 'allow';
  if (words.length === 0) {
    if (exact) throw new UsageError('--exact needs a command or a path after the tool');
    return { tool, action };
  }
  const pattern = words.join(' ');
  if (tool === 'exec') return exact ? { tool, action, command: pattern } : { tool, action, prefix: pattern };
  if (words.length > 1) throw new UsageError(`${tool} takes one path or glob; quote it if it has spaces`);
  return exact ? { tool, action, path: pattern } : { tool, action, glob: pattern };
}

export const approvalsCommands: Command[] = [
  {
    words: 'approvals list',
    args: [],
    options: { ...json, session: { type: 'string' }, limit: { type: 'string' } },
    flags: '[--session S] [--limit N] [--json]',
    summary: 'the rules of the tool guard and its newest decisions: each tool call allowed or denied, by whom',
    async run(_args, values, ctx) {
      const limit = parseCountFlag('limit', values['limit'], 10_000);
      const session = typeof values['session'] === 'string' ? values['session'] : undefined;
      const listed = await ctx.call(ApprovalsApi.List, { ...(limit ? { limit } : {}), ...(session ? { session } : {}) });
      if (values['json']) return printJson(ctx, listed);
      const rules = listed.rules.length
        ? renderTable(
            listed.rules.map((r) => [r.id, r.action, r.tool, describeMatch(r), r.added_by]),
            ['RULE', 'ACTION', 'TOOL', 'MATCHES', 'ADDED BY'],
          )
        : 'no rules (homectl approvals allow TOOL [PATTERN] adds one)';
      const decisions = listed.decisions.length
        ? renderTable(
            listed.decisions.map((d) => [String(d.id), formatTime(Date.parse(d.at)), d.session, d.tool, d.decision, d.by, d.args, d.detail ?? '']),
            ['ID', 'AT', 'SESSION', 'TOOL', 'DECISION', 'BY', 'ARGS', 'DETAIL'],
          )
        : 'no decisions yet';
      ctx.print(`${rules}\n\n${decisions}`);
    },
  },
  {
    words: 'approvals allow',
    args: ['TOOL', '[PATTERN…]'],
    options: { ...json, exact: { type: 'boolean' }, deny: { type: 'boolean' }, cwd: { type: 'string' } },
    flags: '[--exact] [--deny] [--cwd DIR] [--json]',
    summary:
      'adds a rule: exec and the first words of a command (git status, quoted or not), a file tool and a path glob, or a tool alone; --exact: that very command or path; ' +
      '--cwd: only in that folder; --deny: refuse instead. A call that sets variables is allowed only by a rule naming them, never one that changes what a program runs (PATH, LD_*, GIT_*…)',
    async run([tool, ...words], values, ctx) {
      const params = ruleFromWords(tool as string, words, values['exact'] === true, values['deny'] === true);
      const cwd = typeof values['cwd'] === 'string' ? values['cwd'] : undefined;
      if (cwd === '') throw new UsageError('--cwd needs a folder');
      const { rule } = await ctx.call(ApprovalsApi.Allow, { ...params, ...(cwd === undefined ? {} : { cwd }) });
      if (values['json']) return printJson(ctx, rule);
      ctx.print(`added rule ${rule.id}: ${rule.action} ${rule.tool}, ${describeMatch(rule)} (homectl approvals revoke ${rule.id} removes it)`);
    },
  },
  {
    words: 'approvals revoke',
    args: ['ID'],
    options: json,
    flags: '[--json]',
    summary: 'removes a rule (its ID from homectl approvals list)',
    async run([id], values, ctx) {
      const { revoked } = await ctx.call(ApprovalsApi.Revoke, { id: id as string });
      if (values['json']) return printJson(ctx, revoked);
      ctx.print(`removed rule ${revoked.id}: ${revoked.action} ${revoked.tool}, ${describeMatch(revoked)}`);
    },
  },
  {
    words: 'approvals pending',
    args: [],
    options: { ...json, session: { type: 'string' } },
    flags: '[--session S] [--json]',
    summary: 'the questions waiting for a person to answer',
    async run(_args, values, ctx) {
      const session = typeof values['session'] === 'string' ? values['session'] : undefined;
      const { pending } = await ctx.call(SocketApi.ApprovalPending, session ? { session } : {});
      if (values['json']) return printJson(ctx, pending);
      if (pending.length === 0) return ctx.print('no question is waiting');
      ctx.print(
        renderTable(
          pending.map((q) => [q.id, q.session, q.question, q.choices.join('|'), formatTime(Date.parse(q.expiresAt))]),
          ['ID', 'SESSION', 'QUESTION', 'ANSWERS', 'DENIED AT'],
        ),
      );
    },
  },
  {
    words: 'approvals answer',
    args: ['ID', 'CHOICE'],
    options: json,
    flags: '[--json]',
    summary: 'answers a waiting question (yes, no or always), as the person of its session',
    async run([id, choice], values, ctx) {
      const { answered } = await ctx.call(SocketApi.ApprovalAnswer, { id: id!, choice: choice! });
      if (values['json']) return printJson(ctx, answered);
      ctx.print(`answered ${choice} to ${answered.id}: ${answered.question}`);
    },
  },
];
