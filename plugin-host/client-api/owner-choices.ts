// A question's choices that only the owner may give (`always`, which adds a rule) are offered to the owner's own
// clients only: a client of the shared socket or the web page gets the question without them, with the command
// that does the same at the machine (ownerCommand). The kernel refuses such an answer from them anyway.
import { ApprovalEvents, type OwnerChoices } from '../../protocol';

type Offered = OwnerChoices & { choices: string[] };

/** The question without the choices only the owner may give. */
export function withoutOwnerChoices<Q extends Offered>(question: Q): Q {
  const held = question.ownerChoices;
  if (!held || held.length === 0) return question;
  return { ...question, choices: question.choices.filter((choice) => !held.includes(choice)) };
}

/** A stream item as a client that is not the owner's sees it: a chat item's `ask`, an `approval.asked` event's question. */
export function offeredToOthers(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const { ask, kind, name, data } = item as { ask?: unknown; kind?: unknown; name?: unknown; data?: unknown };
  if (isQuestion(ask)) return { ...item, ask: withoutOwnerChoices(ask) };
  if (kind === 'event' && name === ApprovalEvents.Asked && isQuestion(data)) return { ...item, data: withoutOwnerChoices(data) };
  return item;
}

function isQuestion(value: unknown): value is Offered {
  return typeof value === 'object' && value !== null && Array.isArray((value as { choices?: unknown }).choices);
}
