// The socket's approval rows: any client answers a question the kernel put to a session's person, and lists the
// waiting ones (a client learns of new ones from the `approval.asked` event, or from the line in its chat). An answer
// is the owner's own only on the owner's transport (SocketCall.fromOwner): only such an answer gives an owner's choice.
import type { KernelClient } from '../sdk';
import { AnswerRequest, PendingRequest, SocketApi } from '../../protocol';
import { methodTable, row, type MethodTable } from './methods';
import { withoutOwnerChoices } from './owner-choices';

/** Builds approvals/answer and approvals/pending; each maps one to one onto the kernel's request. */
export function createApprovalMethods(kernel: KernelClient): MethodTable {
  return methodTable(
    row(SocketApi.ApprovalAnswer, (p, call) => kernel.call(AnswerRequest, { ...p, ...(call.fromOwner ? { owner: true } : {}) })),
    row(SocketApi.ApprovalPending, async (p, call) => {
      const { pending } = await kernel.call(PendingRequest, p);
      return { pending: call.fromOwner ? pending : pending.map(withoutOwnerChoices) };
    }),
  );
}
