// The LLM's answers, scripted (the only fake allowed): each request is answered by a function of it.
import type { LlmRequest, LlmResult, LlmToolCall, StreamHooks } from '../../../kernel/llm/types';

export interface ScriptedAnswer {
  text?: string;
  toolCalls?: { id?: string; name: string; args: unknown }[];
  /** Delay before each text chunk (the text streams word by word). */
  tokenDelayMs?: number;
  /** Throw this instead of answering. */
  error?: Error;
  /** Answer only once this settles (an abort still ends the call at once). */
  hold?: Promise<void>;
}

export interface RecordedCall {
  request: LlmRequest;
  startedAt: number;
  endedAt?: number;
  abortedAt?: number;
}

/** An LlmClient whose answers come from `answer(request, index)`, recording every request and every abort. */
export class ScriptedLlm {
  readonly calls: RecordedCall[] = [];

  constructor(private readonly answer: (request: LlmRequest, index: number) => ScriptedAnswer) {}

  async complete(request: LlmRequest, hooks: StreamHooks): Promise<LlmResult> {
    const record: RecordedCall = { request: structuredClone(request), startedAt: Date.now() };
    this.calls.push(record);
    const script = this.answer(request, this.calls.length - 1);
    const signal = hooks.signal;
    const abortError = (): Error => Object.assign(new Error('aborted'), { name: 'AbortError' });
    const until = (settled: Promise<void>, cancel: () => void = () => {}): Promise<void> =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(abortError());
        const onAbort = (): void => {
          cancel();
          record.abortedAt = Date.now();
          reject(abortError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        void settled.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    const wait = (ms: number): Promise<void> => {
      let timer: NodeJS.Timeout | undefined;
      return until(new Promise((resolve) => (timer = setTimeout(resolve, ms))), () => clearTimeout(timer));
    };
    try {
      if (script.error) throw script.error;
      if (script.hold) await until(script.hold);
      let text = '';
      for (const word of (script.text ?? '').split(/(?<= )/)) {
        if (!word) continue;
        await wait(script.tokenDelayMs ?? 0);
        text += word;
        hooks.onText?.(word);
      }
      await wait(0);
      const toolCalls: LlmToolCall[] = (script.toolCalls ?? []).map((c, i) => ({
        id: c.id ?? `call_${this.calls.length}_${i}`,
        name: c.name,
        args: c.args,
        argsText: JSON.stringify(c.args),
        complete: true,
      }));
      return { text, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage: {}, provider: 'scripted', model: 'scripted' };
    } finally {
      record.endedAt = Date.now();
    }
  }
}

/** The last user message of a request. */
export function lastUser(request: LlmRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** Whether the request already carries a tool result (the second round of a tool loop). */
export function toolResults(request: LlmRequest): string[] {
  const lastUserAt = request.messages.map((m) => m.role).lastIndexOf('user');
  return request.messages
    .slice(lastUserAt)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
}
