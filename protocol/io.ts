import { NotificationType, RequestType } from 'vscode-jsonrpc';

export interface InputParams {
  /** Conversation id chosen by the client. */
  session: string;
  /** The person's message. */
  text: string;
  /** Id the plugin uses to match output to this input. */
  inputId: string;
}
export interface InputResult {
  /** Whether the input was queued (a full queue answers with an error instead). */
  accepted: true;
  /** Position in the queue when accepted. */
  position: number;
}
/** plugin → kernel: a person's message for the agent. */
export namespace InputRequest {
  export const method = 'io/input' as const;
  export const type = new RequestType<InputParams, InputResult, void>(method);
}

export interface InterruptParams {
  /** Conversation to interrupt. */
  session: string;
  /** Text handed to the running turn (or a new turn when idle). */
  text?: string;
}
/** plugin → kernel: interrupt, acted on ahead of queued work. */
export namespace InterruptNotification {
  export const method = 'io/interrupt' as const;
  export const type = new NotificationType<InterruptParams>(method);
}

export interface OutputParams {
  /** Input this output answers. */
  inputId: string;
  /** Conversation. */
  session: string;
  /** `delta` streamed text, `done` final, `error` failure. */
  kind: 'delta' | 'done' | 'error';
  /** Text of a delta or of the final answer. */
  text?: string;
  /** Error message when kind is `error`. */
  error?: string;
}
/** kernel → plugin: output for an input that plugin sent. */
export namespace OutputNotification {
  export const method = 'io/output' as const;
  export const type = new NotificationType<OutputParams>(method);
}
