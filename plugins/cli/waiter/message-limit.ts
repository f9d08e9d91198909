// The longest message homed takes, checked by waiter before anything is sent.
import { MAX_CHAT_TEXT } from '../../../plugin-host/client-api/chat/methods';

/** A message longer than homed takes: waiter says so and exits 2, having sent nothing of it. */
export class MessageTooLongError extends Error {
  override name = 'MessageTooLongError';
}

/** Characters as homed counts them: code points, as its schema check (ajv maxLength) does. */
export function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/** Throws MessageTooLongError when `text` is longer than MAX_CHAT_TEXT; `where` names it for the message (e.g. "the -say message"). */
export function checkMessageLength(text: string, where: string): void {
  const count = countCharacters(text);
  if (count > MAX_CHAT_TEXT) throw messageTooLong(`${where} has ${count} characters`);
}

/** The error for a message over the limit; `what` says which and how long, e.g. "line 3 of stdin has more than 100000 characters". */
export function messageTooLong(what: string): MessageTooLongError {
  return new MessageTooLongError(
    `${what}, over the limit of ${MAX_CHAT_TEXT} characters a message may have; nothing of it was sent (shorten it or split it into several messages)`,
  );
}
