// The homectl command that adds the rule an "always" answer would add, for a person asked through a client that is
// not the owner's (the web page, the shared socket): "always" widens what the agent may do, so it is the owner's to
// give, at the machine. homectl takes no variables for a rule, so a call that sets some gets no command.
import type { RuleSpec } from './rules';

/** `homectl approvals allow exec --exact 'git status' --cwd /home/lin`, or undefined when homectl cannot say the rule. */
export function ownerCommandFor(spec: RuleSpec): string | undefined {
  if (spec.env !== undefined && Object.keys(spec.env).length > 0) return undefined;
  const exact = spec.command ?? spec.path;
  const words = ['homectl', 'approvals', 'allow', shellWord(spec.tool)];
  if (exact !== undefined) words.push('--exact', shellWord(exact));
  if (spec.cwd !== undefined) words.push('--cwd', shellWord(spec.cwd));
  return words.join(' ');
}

/** A word for a POSIX shell: left bare when it is plain, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) && !text.startsWith('-') ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
