// The socket's approval rows: any client answers a question the kernel put to a session's person, and lists the
// waiting ones (a client learns of new ones from the `approval.asked` event, or from the line in its chat).
import type { KernelClient } from '../sdk';
import { AnswerRequest, PendingRequest, SocketApi } from '../../protocol';
import { methodTable, row, type MethodTable } from './methods';

/** Builds approval/answer and approval/pending; each maps one to one onto the kernel's request. */
export function createApprovalMethods(kernel: KernelClient): MethodTable {
  return methodTable(
    row(SocketApi.ApprovalAnswer, (p) => kernel.request(AnswerRequest.type, p)),
    row(SocketApi.ApprovalPending, (p) => kernel.request(PendingRequest.type, p)),
  );
}
