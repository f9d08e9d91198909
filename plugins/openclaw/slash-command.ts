// on_input: `/name args` for a skill a person may invoke becomes a message asking the model to read and follow that
// skill with the args; a known skill that cannot be used now is refused at once with why (the turn fails, so
// `waiter -say` exits 1); any other `/word` passes unchanged. `command-dispatch: tool` skills are not run behind
// the model's back: the message asks the model to call the named tool with OpenClaw's raw-args shape, so that call
// goes through approvals like any other.
import type { StagePatch, StageSnapshot } from '../../protocol/stages';
import { findByName, whyNotReady } from './availability';
import type { Invocations } from './invocations';
import type { CatalogEntry } from './skills/catalog';

const SLASH = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/;

/** The on_input handler over the skills in effect. */
export function handleSlashCommand(snapshot: StageSnapshot, skills: readonly CatalogEntry[], invocations: Invocations): StagePatch | null {
  const match = SLASH.exec((snapshot.raw_message ?? '').trim());
  const entry = match ? findByName(skills, match[1] ?? '') : undefined;
  if (!entry || (entry.skill && !entry.skill.userInvocable)) {
    invocations.record(snapshot.session, undefined);
    return null;
  }
  const why = whyNotReady(entry);
  if (why) {
    invocations.record(snapshot.session, undefined);
    return { response: `${capitalise(why)}.`, refused: true };
  }
  invocations.record(snapshot.session, entry.name);
  return { raw_message: invocationText(entry, (match?.[2] ?? '').trim()) };
}

/** The message the model gets for `/name args`. */
export function invocationText(entry: CatalogEntry, args: string): string {
  const name = JSON.stringify(entry.name);
  const asked = `The person invoked the skill ${name} ${args === '' ? 'with no arguments' : `with: ${args}`}`;
  const skill = entry.skill;
  if (skill?.commandDispatch === 'tool' && skill.commandTool) {
    const call = JSON.stringify({ command: args, commandName: entry.name, skillName: entry.name });
    return `${asked}\nThis skill dispatches to a tool: call the tool ${JSON.stringify(skill.commandTool)} with ${call}, then answer with what it returns.`;
  }
  return `${asked}\nCall skill_read {"name": ${name}} first, then follow that skill's instructions for this request.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
