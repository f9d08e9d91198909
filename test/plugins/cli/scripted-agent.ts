// Stands in for the kernel's agent behind the cli plugin's io channels: records io/input and
// io/interrupt, answers each input by streaming a scripted reply into the real ChatRouter.
import type { KernelClient, PluginContext } from '../../../plugin-host';
import { InterruptRequest, type InputParams, type InterruptParams, type InterruptResult, type OutputParams, type ToolOutputEvent } from '../../../protocol';
import type { ChatRouter } from '../../../plugin-host/client-api/chat/router';

/** How the agent answers one message. */
export interface ScriptedReply {
  /** Text pieces streamed as deltas. */
  chunks?: string[];
  /** Notices sent before the first chunk. */
  notices?: string[];
  /** Tool call steps sent after the notices, before the first chunk. */
  tools?: ToolOutputEvent[];
  /** Wait before each chunk. */
  delayMs?: number;
  /** Ends the turn with this error instead of `done`. */
  error?: { code: string; message: string };
}

interface RunningTurn {
  session: string;
  inputId?: string;
  stop(): void;
}

/** The kernel side of the cli plugin's chat, scripted: `reply(text)` decides each answer. */
export class ScriptedAgent {
  readonly inputs: InputParams[] = [];
  readonly interrupts: InterruptParams[] = [];
  /** Makes io/input fail (e.g. a full queue). */
  refuseWith: Error | undefined;
  private readonly running = new Set<RunningTurn>();

  constructor(
    private readonly router: ChatRouter,
    private readonly reply: (text: string) => ScriptedReply = (text) => ({ chunks: [`you said: ${text}`] }),
  ) {}

  /** The io channels, as `ctx.io`. */
  readonly io: PluginContext['io'] = {
    input: (params) => {
      if (this.refuseWith) return Promise.reject(this.refuseWith);
      this.inputs.push(params);
      void this.play(params.session, this.reply(params.text), params.inputId);
      return Promise.resolve({ accepted: true as const, position: 0 });
    },
    interrupt: (params) => void this.stop(params),
  };

  /** The kernel client, as `ctx.kernel`: io/interrupt as a request answers what it stopped. */
  readonly kernel: KernelClient = {
    call: <P, R>(type: { method: string }, params: P): Promise<R> => {
      if (type.method !== InterruptRequest.method) return Promise.reject(new Error(`the scripted agent serves no ${type.method}`));
      return Promise.resolve(this.stop(params as InterruptParams) as R);
    },
    notify: () => undefined,
  };

  private stop(params: InterruptParams): InterruptResult {
    this.interrupts.push(params);
    if (params.text !== undefined) return { running: false, dropped_queued: 0, queued: true };
    let running = false;
    for (const turn of this.running) {
      if (turn.session !== params.session || (params.inputId !== undefined && turn.inputId !== params.inputId)) continue;
      turn.stop();
      running = true;
    }
    return { running, dropped_queued: 0 };
  }

  /** Plays a turn nobody of this plugin asked for (a timer firing while idle). */
  unsolicited(session: string, reply: ScriptedReply): Promise<void> {
    return this.play(session, reply);
  }

  /** Turns still streaming. */
  get busy(): number {
    return this.running.size;
  }

  private async play(session: string, reply: ScriptedReply, inputId?: string): Promise<void> {
    let stopped = false;
    const turn: RunningTurn = { session, stop: () => (stopped = true), ...(inputId === undefined ? {} : { inputId }) };
    this.running.add(turn);
    const send = (output: Omit<OutputParams, 'session' | 'inputId'>): void =>
      this.router.deliver({ ...output, session, ...(inputId === undefined ? {} : { inputId }) });
    let text = '';
    try {
      await tick(0);
      for (const notice of reply.notices ?? []) send({ kind: 'notice', text: notice });
      for (const tool of reply.tools ?? []) send({ kind: 'tool', tool });
      for (const chunk of reply.chunks ?? []) {
        await tick(reply.delayMs ?? 0);
        if (stopped) break;
        text += chunk;
        send({ kind: 'delta', text: chunk });
      }
      if (reply.error && !stopped) send({ kind: 'error', code: reply.error.code, error: reply.error.message });
      else send({ kind: 'done', text, ...(stopped ? { interrupted: true } : {}) });
    } finally {
      this.running.delete(turn);
    }
  }
}

function tick(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
