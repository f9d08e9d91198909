// Piped input for the prompt: a line longer than a message may be ends the input before it is sent.
import { Transform, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { MAX_CHAT_TEXT } from '../../../plugin-host/client-api/chat/methods';
import { countCharacters, messageTooLong, type MessageTooLongError } from './message-limit';

/**
 * Passes piped stdin on a whole line at a time. A line longer than MAX_CHAT_TEXT characters is not
 * passed on, nor anything after it: the stream ends there and `onTooLong` gets the error, so waiter
 * sends only the lines before it and exits non-zero. A line is held until its end, never longer than
 * the limit, so memory stays bounded whatever comes in.
 */
export function guardPipedLines(input: NodeJS.ReadableStream, onTooLong: (error: MessageTooLongError) => void): Readable {
  const decoder = new StringDecoder('utf8');
  let held = '';
  let heldCount = 0;
  let lineNumber = 1;
  let stopped = false;

  const guard = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      if (!stopped) take(this, typeof chunk === 'string' ? chunk : decoder.write(chunk));
      done();
    },
    flush(done) {
      if (!stopped) {
        take(this, decoder.end());
        if (!stopped && held !== '') this.push(held);
      }
      done();
    },
  });

  /** Passes on every complete line of `text`, holds the rest; stops at a line over the limit. */
  function take(stream: Transform, text: string): void {
    let start = 0;
    for (;;) {
      const end = lineEnd(text, start);
      const piece = text.slice(start, end < 0 ? text.length : end);
      heldCount += countCharacters(piece);
      if (heldCount > MAX_CHAT_TEXT) {
        stop(stream);
        return;
      }
      if (end < 0) {
        held += piece;
        return;
      }
      stream.push(held + piece + text.charAt(end));
      if (text.charAt(end) === '\n') lineNumber++;
      held = '';
      heldCount = 0;
      start = end + 1;
    }
  }

  function stop(stream: Transform): void {
    stopped = true;
    held = '';
    stream.push(null);
    input.unpipe(stream);
    (input as Partial<Readable>).destroy?.();
    onTooLong(messageTooLong(`line ${lineNumber} of stdin has more than ${MAX_CHAT_TEXT} characters`));
  }

  input.pipe(guard);
  return guard;
}

/** Where the line that starts at `from` ends: its \n, or a \r (readline ends lines at either). */
function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}
