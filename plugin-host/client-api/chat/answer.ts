// chat/say's core: sends one input to the kernel and turns its outputs into stream items and a result.
import { randomUUID } from 'node:crypto';
import type { PluginIO } from '../../sdk';
import { ErrorCodes, ErrorNames, type ChatSayParams, type ChatSayResult, type OutputParams } from '../../../protocol';
import { SocketFailure } from '../errors';
import type { SocketCall } from '../methods';
import { isFinal, toStreamItem } from './items';
import type { ChatRouter } from './router';

/**
 * Sends `params` as io/input and resolves with the answer once its `done` arrives; a turn that ends in
 * `error` rejects with that error's code, name and message.
 *
 * A client that disconnects mid-answer has nobody left to read it: its input is stopped at once with an
 * io/interrupt naming it (the running turn ends, or the input leaves the queue before it runs, even while
 * the model has not sent its first token), and the rest of its outputs are dropped.
 */
export function answerInput(io: PluginIO, router: ChatRouter, params: ChatSayParams, call: SocketCall): Promise<ChatSayResult | null> {
  if (call.signal.aborted) return Promise.resolve(null);
  const inputId = randomUUID();
  return new Promise((resolve, reject) => {
    let abandoned = false;
    const onAbort = (): void => {
      abandoned = true;
      io.interrupt({ session: params.session, inputId });
      resolve(null);
    };
    const settle = (): void => call.signal.removeEventListener('abort', onAbort);

    router.expect(inputId, (output) => {
      if (abandoned) return;
      if (!isFinal(output)) {
        // Deltas, notices (a question to the person rides on one, with its `ask`) and tool steps, as any stream shows them.
        call.stream(toStreamItem(output));
        return;
      }
      settle();
      if (output.kind === 'done') resolve({ text: output.text ?? '', interrupted: output.interrupted === true });
      else reject(turnFailure(output));
    });
    call.signal.addEventListener('abort', onAbort, { once: true });

    // The id is registered first: an output racing the answer to io/input still finds its handler.
    io.input({ session: params.session, text: params.text, inputId }).catch((error: unknown) => {
      router.forget(inputId);
      settle();
      reject(error);
    });
  });
}

/** The socket error for a turn that ended in `error`: the output's catalogue name, its number when known. */
export function turnFailure(output: OutputParams): SocketFailure {
  const name = output.code ?? ErrorNames[ErrorCodes.TurnFailed] ?? 'HA_ERR_TURN_FAILED';
  return new SocketFailure(codeOfName(name), output.error ?? output.text ?? 'the turn failed without saying why', { name });
}

function codeOfName(name: string): number {
  for (const [code, known] of Object.entries(ErrorNames)) if (known === name) return Number(code);
  return ErrorCodes.TurnFailed;
}
