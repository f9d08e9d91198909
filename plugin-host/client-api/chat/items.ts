// Turns the kernel's io/output into the items the socket streams to chat clients.
import type { ChatStreamItem, OutputParams } from '../../../protocol';

/** Whether an output ends its turn. */
export function isFinal(output: OutputParams): boolean {
  return output.kind === 'done' || output.kind === 'error';
}

/** The stream item of a live output (the fields that apply, nothing undefined). */
export function toStreamItem(output: OutputParams): ChatStreamItem {
  const item: ChatStreamItem = { kind: output.kind };
  if (output.text !== undefined) item.text = output.text;
  if (output.error !== undefined) item.error = output.error;
  if (output.code !== undefined) item.code = output.code;
  if (output.interrupted !== undefined) item.interrupted = output.interrupted;
  if (output.tool !== undefined) item.tool = output.tool;
  if (output.ask !== undefined) item.ask = output.ask;
  return item;
}

/** The `missed` item kept for a final output nobody received. */
export function toMissedItem(output: OutputParams, at: number): ChatStreamItem {
  return { ...toStreamItem(output), kind: 'missed', at };
}
