// One question on a terminal's readline: the query shown where the answer is typed, the line typed back, the input's
// end (Ctrl-D) reported as such, and an abort (the time ran out, Ctrl-C, the turn ended) taking the query away.
import * as readline from 'node:readline';

/** What a question ended with when the input ended (Ctrl-D, or closed before). */
export const INPUT_ENDED = Symbol('input-ended');

/** Shows `query` and resolves with the line typed, or INPUT_ENDED; resolves undefined once `signal` aborts. */
export type AskLine = (query: string, signal: AbortSignal) => Promise<string | typeof INPUT_ENDED | undefined>;

/** An AskLine on `rl`, a readline that stays (waiter's prompt). */
export function askOnReadline(rl: readline.Interface): AskLine {
  return (query, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const asked = new AbortController();
      const end = (value: string | typeof INPUT_ENDED | undefined): void => {
        rl.off('close', onClose);
        signal.removeEventListener('abort', onAbort);
        asked.abort();
        resolve(value);
      };
      const onClose = (): void => end(INPUT_ENDED);
      const onAbort = (): void => end(undefined);
      rl.once('close', onClose);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        rl.question(query, { signal: asked.signal }, (line) => end(line));
      } catch {
        // The input already ended (Ctrl-D at the prompt while an answer streamed).
        end(INPUT_ENDED);
      }
    });
}

/**
 * An AskLine on a terminal nothing else reads (waiter -say): a readline for each question, Ctrl-C in it (the terminal
 * is in raw mode, so it is a key, not a signal) passed to `onCtrlC`.
 */
export function askOnTerminal(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onCtrlC: () => void): AskLine {
  return async (query, signal) => {
    const rl = readline.createInterface({ input, output, terminal: true });
    rl.on('SIGINT', onCtrlC);
    try {
      return await askOnReadline(rl)(query, signal);
    } finally {
      rl.close();
    }
  };
}
