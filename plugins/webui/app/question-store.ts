// The questions waiting for a person that this page knows of: from approvals/pending on (re)connection, the kernel's
// `approval.asked` / `approval.answered` events, and the Chat page's stream. One store for the page, read by the dialog.
import { useEffect, useState } from 'preact/hooks';

/** A question as the dialog shows it. */
export interface Question {
  id: string;
  /** The conversation it is about, when known. */
  session?: string;
  question: string;
  choices: string[];
  /** The homectl command that makes it last, for a choice only the owner gives at the machine (`always`), when there is one. */
  ownerCommand?: string;
  /** ISO 8601 UTC: it is answered no by itself then. */
  expiresAt: string;
}

type Listener = (questions: Question[]) => void;

class QuestionStore {
  private questions: Question[] = [];
  /** Ids settled while this page looked, so a late copy (a stream item after the event) does not open them again. */
  private readonly settled = new Set<string>();
  private readonly listeners = new Set<Listener>();

  /** Adds a question unless it is known or already settled. */
  add(question: Question): void {
    if (this.settled.has(question.id)) return;
    const known = this.questions.find((q) => q.id === question.id);
    if (known) {
      if (known.session === undefined && question.session !== undefined)
        this.set(this.questions.map((q) => (q.id === question.id ? { ...q, session: question.session } : q)));
      return;
    }
    this.set([...this.questions, question]);
  }

  /** A question was answered (here or elsewhere), ran out of time, or was withdrawn. */
  settle(id: string): void {
    this.settled.add(id);
    if (this.questions.some((q) => q.id === id)) this.set(this.questions.filter((q) => q.id !== id));
  }

  /** The questions waiting now, as homed lists them (after a (re)connection). */
  reset(questions: Question[]): void {
    this.set(questions.filter((q) => !this.settled.has(q.id)));
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.questions);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private set(questions: Question[]): void {
    this.questions = questions;
    for (const listener of [...this.listeners]) listener(questions);
  }
}

/** The page's questions. */
export const questions = new QuestionStore();

/** The questions waiting, the oldest first, kept up to date. */
export function useQuestions(): Question[] {
  const [list, setList] = useState<Question[]>([]);
  useEffect(() => questions.subscribe(setList), []);
  return list;
}
