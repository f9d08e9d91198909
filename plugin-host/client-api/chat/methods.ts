// The chat rows of the socket's dispatch table: chat/say, chat/interrupt, chat/subscribe.
import type { KernelClient, PluginIO } from '../../sdk';
import { InterruptRequest, SocketApi, type ChatStreamItem } from '../../../protocol';
import { methodTable, row, type MethodTable, type SocketCall } from '../methods';
import { answerInput } from './answer';
import type { ChatRouter } from './router';

/** Longest message accepted, in characters (the protocol's one bound on a person's message). */
export { MAX_INPUT_TEXT_CHARS as MAX_CHAT_TEXT } from '../../../protocol';

/** Builds the chat rows over the plugin's IO channels, its kernel client and its output router. */
export function createChatMethods(io: PluginIO, router: ChatRouter, kernel: KernelClient): MethodTable {
  return methodTable(
    row(SocketApi.ChatSay, async (p, call) => {
      // Turns that finished while nobody listened come first, so a reminder is not lost (a
      // notification could not receive them, so they stay for the next caller).
      if (!call.notification) for (const item of await router.takeMissed(p.session)) call.stream(item);
      return answerInput(io, router, p, call);
    }),
    row(SocketApi.ChatInterrupt, async (p, call) => {
      const params = p.text === undefined ? { session: p.session } : { session: p.session, text: p.text };
      // A notification wants no answer: the plain interrupt notification is the fastest path.
      if (call.notification) {
        io.interrupt(params);
        return { sent: true as const };
      }
      return { sent: true as const, ...(await kernel.call(InterruptRequest, params)) };
    }),
    row(SocketApi.ChatSubscribe, (p, call) => followSession(router, p.session, call)),
  );
}

/** Each client's running chat/subscribe, by connection: ended by the client's next one. */
const following = new WeakMap<object, () => void>();

/**
 * Streams the session's missed turns, then its live outputs no chat/say waits for, until the client goes or
 * subscribes again: a client follows one session at a time, so a page that switches conversation stops hearing
 * the old one (its chat/subscribe is answered with null).
 */
function followSession(router: ChatRouter, session: string, call: SocketCall): Promise<null> {
  return new Promise((resolve) => {
    if (call.signal.aborted || call.notification) {
      resolve(null);
      return;
    }
    following.get(call.client)?.();
    // Live items wait until the missed ones are out, so the client reads them in the order they happened.
    let held: ChatStreamItem[] | undefined = [];
    const unsubscribe = router.subscribe(session, (item) => (held ? held.push(item) : call.stream(item)));
    void router
      .takeMissed(session)
      .catch(() => [] as ChatStreamItem[])
      .then((missed) => {
        for (const item of [...missed, ...(held ?? [])]) call.stream(item);
        held = undefined;
      });
    const end = (): void => {
      call.signal.removeEventListener('abort', end);
      if (following.get(call.client) === end) following.delete(call.client);
      unsubscribe();
      resolve(null);
    };
    following.set(call.client, end);
    call.signal.addEventListener('abort', end, { once: true });
  });
}
