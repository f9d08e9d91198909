// The approval dialog: a question waiting for a person, from any conversation (approvals/pending when the page
// connects, then the kernel's approval.asked / approval.answered events), or from the Chat page's stream. Allow once,
// Deny answer it with approvals/answer; answered elsewhere, run out of time or withdrawn, it closes. "Always" is the
// owner's to give at the machine (it adds a rule): the page is not offered it and shows the homectl command instead.
// The call is shown whole, never cut: a long one in a box of its own that scrolls, under the guard's warning.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import type { AnsweredAsk, PendingAsk } from '../../../protocol/approvals';
import { SocketApi } from '../../../protocol/socket-api';
import { ClientError, type Client } from './connection';
import type { T } from './i18n';
import { useLiveEvents, type LiveEvent } from './live-events';
import { questions, useQuestions, type Question } from './question-store';
import './approval-dialog.css';

const html = htm.bind(h);

const EVENTS = ['approval.asked', 'approval.answered'];
/** The buttons' words for the approvals' choices; another choice shows as its own word. */
const LABELS: Record<string, string> = { yes: 'approvals.allowOnce', no: 'approvals.deny', always: 'approvals.always' };
/** The order of the buttons: the refusal first, the widest permission last. */
const ORDER = ['no', 'always', 'yes'];

function toQuestion(ask: PendingAsk): Question {
  return {
    id: ask.id,
    session: ask.session,
    question: ask.question,
    choices: ask.choices,
    expiresAt: ask.expiresAt,
    ...(ask.ownerCommand === undefined ? {} : { ownerCommand: ask.ownerCommand }),
  };
}

/** Keeps the store in step with homed's questions while the page is open. */
function useKernelQuestions(client: Client): void {
  const load = (): void => {
    client.call(SocketApi.ApprovalPending, {}).then(
      (answer) => questions.reset(answer.pending.map(toQuestion)),
      () => undefined,
    );
  };
  const onEvent = (event: LiveEvent): void => {
    // Only the kernel speaks of questions; a plugin's event of the same name is not believed.
    if (event.source !== 'kernel') return;
    if (event.name === 'approval.asked') questions.add(toQuestion(event.data as PendingAsk));
    else if (event.name === 'approval.answered') questions.settle((event.data as AnsweredAsk).id);
  };
  useLiveEvents(client, EVENTS, load, onEvent);
}

/** A question longer than this shows its call whole in a scrolling box under a short heading. */
const LONG_QUESTION_CHARS = 300;
/** Where the guard's warning about variables that change what a program runs starts. */
const CAREFUL = ' Careful: ';

/** The call's words and the guard's warning, which is shown first, so that a long call cannot push it out of sight. */
function splitQuestion(question: string): { call: string; careful: string } {
  const at = question.indexOf(CAREFUL);
  return at < 0 ? { call: question, careful: '' } : { call: question.slice(0, at), careful: question.slice(at + 1) };
}

function sortChoices(choices: string[]): string[] {
  const rank = (choice: string): number => (ORDER.includes(choice) ? ORDER.indexOf(choice) : -1);
  return [...choices].sort((a, b) => rank(a) - rank(b));
}

/** The dialog of the oldest question waiting, over every page. */
export function ApprovalDialog({ client, t }: { client: Client; t: T }) {
  useKernelQuestions(client);
  const waiting = useQuestions();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const box = useRef<HTMLElement>(null);
  const current = waiting[0];

  useEffect(() => {
    setProblem('');
    setBusy(false);
    box.current?.focus();
  }, [current?.id]);

  if (!current) return null;

  const answer = async (choice: string): Promise<void> => {
    setBusy(true);
    setProblem('');
    try {
      await client.call(SocketApi.ApprovalAnswer, { id: current.id, choice });
      questions.settle(current.id);
    } catch (error) {
      // Settled meanwhile (answered elsewhere, out of time): it is gone either way.
      if (error instanceof ClientError && error.code === 'HA_ERR_NOT_FOUND') questions.settle(current.id);
      else setProblem(t('approvals.failed', { error: (error as Error).message }));
      setBusy(false);
    }
  };

  const expires = new Date(current.expiresAt).toLocaleTimeString(t('approvals.timeLocale'));
  const { call, careful } = splitQuestion(current.question);
  const long = call.length > LONG_QUESTION_CHARS;
  return html`
    <div class="approval-backdrop">
      <section
        class="approval-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="approval-question"
        aria-describedby="approval-details"
        tabindex="-1"
        ref=${box}
      >
        ${careful && html`<p class="approval-careful" role="alert">${careful}</p>`}
        <h2 id="approval-question">${long ? t('approvals.longCall', { count: call.length.toLocaleString(t('approvals.timeLocale')) }) : call}</h2>
        ${long && html`<pre class="approval-call">${call}</pre>`}
        <div id="approval-details">
          ${current.session && html`<p>${t('approvals.session', { session: current.session })}</p>`}
          <p>${t('approvals.expires', { time: expires })}</p>
        </div>
        ${waiting.length > 1 && html`<p class="approval-more">${t('approvals.more', { count: waiting.length - 1 })}</p>`}
        ${current.ownerCommand !== undefined && !current.choices.includes('always') && html`<p class="approval-owner">${t('approvals.ownerCommand')} <code>${current.ownerCommand}</code></p>`}
        ${problem && html`<p class="problem" role="alert">${problem}</p>`}
        <div class="approval-actions">
          ${sortChoices(current.choices).map(
            (choice) =>
              html`<button type="button" class="approval-${choice}" disabled=${busy} onClick=${() => void answer(choice)}>
                ${LABELS[choice] ? t(LABELS[choice]) : choice}
              </button>`,
          )}
        </div>
      </section>
    </div>
  `;
}
