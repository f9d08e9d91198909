// The questions plugins put to a session's person (approvals/ask), held until a client answers one
// (approvals/answer), its time runs out, nobody is left to ask, or its asker withdraws it. Every question ends
// in exactly one answer to its asker; a question nobody answered is settled `no`.
import { randomBytes } from 'node:crypto';
import { ApprovalEvents, ErrorCodes, haError, type AnsweredAsk, type AskParams, type AskResult, type PendingAsk } from '../../protocol';
import { formatDuration } from '../../protocol/format';

/** The choice of a question nobody answered. */
export const NO_CHOICE = 'no';

/** Where a question is shown: the plugin serving the session's client, and the input it answers (to reach its chat stream). */
export interface AskRoute {
  target: string;
  inputId?: string;
}

/** What the registry leans on: where a session's client is, how to show it a line, the event bus, a clock. */
export interface AskDeps {
  /** The session's client, or why nobody can be asked. */
  route(session: string): AskRoute | { nobody: string };
  /** Shows the question in the client's chat stream: `text` for a person, `view` for a client that renders questions. */
  show(route: AskRoute, view: PendingAsk, text: string): void;
  publish(name: string, data: unknown): void;
  now?(): number;
}

interface Question {
  view: PendingAsk;
  route: AskRoute;
  timer: NodeJS.Timeout;
  settle(result: AskResult): void;
}

/** The questions waiting for an answer, by id. */
export class AskRegistry {
  private readonly pending = new Map<string, Question>();

  constructor(private readonly deps: AskDeps) {}

  /** Puts a question to the session's person; resolves once it is settled. An abort of `signal` withdraws it. */
  ask(asker: string, params: AskParams, signal?: AbortSignal): Promise<AskResult> {
    const route = this.deps.route(params.session);
    if ('nobody' in route) return Promise.resolve(this.publishSettled(newId(), params.session, { choice: NO_CHOICE, by: 'no-client', reason: route.nobody }));
    if (signal?.aborted) return Promise.resolve({ choice: NO_CHOICE, by: 'withdrawn', reason: 'the asker withdrew the question before it was shown' });
    const now = this.deps.now?.() ?? Date.now();
    const view: PendingAsk = {
      id: newId(),
      session: params.session,
      question: params.question,
      choices: [...params.choices],
      asker,
      shownVia: route.target,
      askedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + params.timeoutMs).toISOString(),
      ...(params.ownerChoices && params.ownerChoices.length > 0 ? { ownerChoices: [...params.ownerChoices] } : {}),
      ...(params.ownerCommand === undefined ? {} : { ownerCommand: params.ownerCommand }),
    };
    return new Promise<AskResult>((resolve) => {
      const onAbort = (): void =>
        this.settle(view.id, { choice: NO_CHOICE, by: 'withdrawn', reason: `plugin "${asker}" withdrew the question (the call was stopped)` });
      const question: Question = {
        view,
        route,
        timer: setTimeout(
          () => this.settle(view.id, { choice: NO_CHOICE, by: 'timeout', reason: `nobody answered within ${formatDuration(params.timeoutMs)}` }),
          params.timeoutMs,
        ),
        settle: (result) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
      };
      question.timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(view.id, question);
      this.deps.publish(ApprovalEvents.Asked, view);
      this.deps.show(route, view, showText(view, params.timeoutMs));
    });
  }

  /**
   * A client's answer; throws a clear error for a question that no longer waits, a choice it does not offer, or one
   * of its owner's choices in an answer that is not the owner's (`from.owner`). With `from.unasked` (why the client
   * could not ask a person) the answer must be no, and the question is settled `no-client`.
   */
  answer(id: string, choice: string, via: string, from: { owner?: boolean; unasked?: string } = {}): PendingAsk {
    const { unasked } = from;
    const question = this.pending.get(id);
    if (!question) {
      throw haError(
        ErrorCodes.NotFound,
        `no question "${id}" is waiting for an answer (it was answered, ran out of time or was withdrawn); approvals/pending lists the waiting ones`,
        { id },
      );
    }
    if (!question.view.choices.includes(choice)) {
      throw haError(ErrorCodes.InvalidValue, `"${choice}" is not an answer to question ${id}; answer one of ${question.view.choices.join(', ')}`, {
        id,
        choices: question.view.choices,
      });
    }
    if (question.view.ownerChoices?.includes(choice) && from.owner !== true) throw ownerChoiceRefused(question.view, choice);
    if (unasked !== undefined) {
      if (choice !== NO_CHOICE) throw haError(ErrorCodes.InvalidValue, `a question nobody was asked is answered ${NO_CHOICE}, not "${choice}"`, { id, choice });
      this.settle(id, { choice, by: 'no-client', reason: `nobody could be asked through ${via}: ${unasked}` });
      return question.view;
    }
    this.settle(id, { choice, by: 'person', via });
    return question.view;
  }

  /** The questions waiting, the oldest first; only one session's when named. */
  list(session?: string): PendingAsk[] {
    return [...this.pending.values()].map((q) => q.view).filter((view) => session === undefined || view.session === session);
  }

  /**
   * A plugin left `ready`: the questions it asked are withdrawn (nobody waits for their answer), and the questions
   * shown through it are settled `no-client` (its clients went with it).
   */
  pluginGone(plugin: string, state: string): void {
    for (const question of [...this.pending.values()]) {
      if (question.view.asker === plugin)
        this.settle(question.view.id, { choice: NO_CHOICE, by: 'withdrawn', reason: `plugin "${plugin}", which asked, is ${state}` });
      else if (question.route.target === plugin)
        this.settle(question.view.id, { choice: NO_CHOICE, by: 'no-client', reason: `plugin "${plugin}", which showed the question, is ${state}` });
    }
  }

  /** How many questions wait. */
  get size(): number {
    return this.pending.size;
  }

  private settle(id: string, result: AskResult): void {
    const question = this.pending.get(id);
    if (!question) return;
    this.pending.delete(id);
    clearTimeout(question.timer);
    question.settle(this.publishSettled(id, question.view.session, result));
  }

  private publishSettled(id: string, session: string, result: AskResult): AskResult {
    const answered: AnsweredAsk = { id, session, ...result };
    this.deps.publish(ApprovalEvents.Answered, answered);
    return result;
  }
}

/** Why a client that is not the owner's may not give `choice`, and what the person can do instead. */
function ownerChoiceRefused(view: PendingAsk, choice: string): Error {
  const others = view.choices.filter((c) => !view.ownerChoices?.includes(c));
  const instead = view.ownerCommand === undefined ? '' : `, and make it last with: ${view.ownerCommand}`;
  return haError(
    ErrorCodes.PermissionDenied,
    `"${choice}" widens what the agent may do, so only the owner gives it, on the machine running homed (waiter or homectl as homed's user); ` +
      `answer ${others.join(' or ')} here${instead}`,
    { id: view.id, choice },
  );
}

/** `q-` and 8 hex digits. */
function newId(): string {
  return `q-${randomBytes(4).toString('hex')}`;
}

/** The line a client shows in its chat stream until it renders questions itself. */
function showText(view: PendingAsk, timeoutMs: number): string {
  const others = view.choices.filter((c) => c !== view.choices[0]);
  return (
    `[approval] ${view.question} Answer ${view.choices.join(', ')} ` +
    `(homectl approvals answer ${view.id} ${view.choices[0]}${others.length ? `|${others.join('|')}` : ''}); no answer within ${formatDuration(timeoutMs)} means ${NO_CHOICE}`
  );
}
