// The Chat page: the house's conversations (sessions/list), the chosen one's history (sessions/show), a message box,
// the answer streaming in as Markdown, Stop (chat/interrupt as a request), and turns nobody here started
// (chat/subscribe: a timer, another client's interrupt text) appearing live. The history is read again on every
// (re)connection, so a lost connection leaves the conversation as homed has it. Tool calls show as cards
// (chat-tools.ts), live from `tool` stream items and, for stored turns, from the calls and results kept. A question
// to the person in the stream opens the approval dialog (approval-dialog.ts); the message keeps its words.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import type { PageProps } from '../router';
import { renderMarkdown } from '../markdown';
import type { T } from '../i18n';
import { questions } from '../question-store';
import type { OutputAsk } from '../../../../protocol/io';
import { SocketApi } from '../../../../protocol/socket-api';
import { CommandMenu } from './chat-commands';
import { applyStep, storedCards, ToolCardView, type StoredToolEntry, type ToolCard, type ToolStep } from './chat-tools';

const html = htm.bind(h);

/** The page's own conversation when none was chosen: the house's web conversation. */
export const DEFAULT_SESSION = 'web:home';
const STORED_SESSION = 'homeagent.chat.session';

type Flag = 'interrupted' | 'cut_off' | 'capped' | 'failed' | 'dropped' | 'waiting' | 'running';

interface Entry extends StoredToolEntry {
  role: 'user' | 'assistant' | 'tool' | 'system';
  text: string;
  flag?: Flag;
  error?: string;
}

interface StreamItem {
  kind: 'missed' | 'delta' | 'notice' | 'tool' | 'done' | 'error';
  text?: string;
  error?: string;
  interrupted?: boolean;
  tool?: ToolStep;
  ask?: OutputAsk;
}

/** A message on screen: stored, or one of a turn still streaming. */
interface Shown extends Entry {
  key: string;
  notices?: string[];
  /** Its tool calls, one card each. */
  cards?: ToolCard[];
  live?: boolean;
  /** A turn of this page still running: kept when the history is read again meanwhile. */
  pending?: boolean;
}

let keys = 0;
const shown = (entry: Entry, extra: Partial<Shown> = {}): Shown => ({ key: `m${keys++}`, ...entry, ...extra });

function sayFlag(t: T, entry: Entry): string {
  switch (entry.flag) {
    case 'interrupted':
      return t('chat.stopped');
    case 'cut_off':
      return t('chat.cutOff');
    case 'failed':
      return t('chat.failed', { error: entry.error ?? '' });
    case 'dropped':
      return t('chat.noAnswer');
    default:
      return '';
  }
}

/** A live message with one stream item applied: text added, a notice kept, or a tool card started, fed or ended. */
function withItem(message: Shown, item: StreamItem): Shown {
  if (item.kind === 'delta') return { ...message, text: message.text + (item.text ?? '') };
  if (item.kind === 'notice') return { ...message, notices: [...(message.notices ?? []), item.text ?? ''] };
  if (item.kind === 'tool' && item.tool) return { ...message, cards: applyStep(message.cards ?? [], item.tool) };
  return message;
}

/** A question in the stream goes to the dialog; the message shows its words, not how to answer it from a shell. */
function takeQuestion(raw: unknown, session: string): StreamItem {
  const item = raw as StreamItem;
  if (item.kind !== 'notice' || !item.ask) return item;
  questions.add({ ...item.ask, session });
  return { ...item, text: item.ask.question };
}

/** Stored entries as messages: tool results go into the cards of the message that made the calls. */
function fromHistory(entries: Entry[]): Shown[] {
  return entries.flatMap((entry, i) => {
    if (entry.role === 'tool') return [];
    const cards = entry.role === 'assistant' ? storedCards(entry, entries.slice(i + 1)) : [];
    return [shown(entry, cards.length > 0 ? { cards } : {})];
  });
}

function Message({ message, t }: { message: Shown; t: T }) {
  const notices = message.notices ?? [];
  const cards = message.cards ?? [];
  const flag = sayFlag(t, message);
  return html`
    <li class="message ${message.role}${message.live ? ' live' : ''}">
      <span class="who">${t(`chat.role.${message.role}`)}</span>
      ${notices.map((notice) => html`<p class="notice">${notice}</p>`)}
      ${cards.map((card) => html`<${ToolCardView} key=${card.id} card=${card} live=${message.live === true} t=${t} />`)}
      ${
        message.role === 'assistant'
          ? html`<div class="text markdown" dangerouslySetInnerHTML=${{ __html: renderMarkdown(message.text) }}></div>`
          : html`<p class="text">${message.text}</p>`
      }
      ${message.live && message.text === '' && html`<p class="notice">${t('chat.thinking')}</p>`} ${flag && html`<p class="flag">${flag}</p>`}
      ${message.error && message.flag !== 'failed' && html`<p class="flag">${message.error}</p>`}
    </li>
  `;
}

export default function Chat({ client, t }: PageProps) {
  const [session, setSession] = useState(() => localStorage.getItem(STORED_SESSION) || DEFAULT_SESSION);
  const [sessions, setSessions] = useState<string[]>([]);
  const [messages, setMessages] = useState<Shown[]>([]);
  const [omitted, setOmitted] = useState(0);
  const [draft, setDraft] = useState('');
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState('');
  const [connected, setConnected] = useState(client.state === 'connected');
  const list = useRef<HTMLOListElement>(null);
  // Which session the page follows now: stream items of an older subscription are ignored.
  const following = useRef(session);

  useEffect(() => {
    const stop = client.onState((state) => setConnected(state === 'connected'));
    setConnected(client.state === 'connected');
    return stop;
  }, [client]);

  const loadHistory = async (name: string): Promise<void> => {
    const shownHistory = await client.call(SocketApi.SessionsShow, { session: name }).catch(() => ({ entries: [], omitted: 0 }));
    if (following.current !== name) return;
    const stored = fromHistory(shownHistory.entries);
    setMessages((now) => [...stored, ...now.filter((m) => m.pending)]);
    setOmitted(shownHistory.omitted);
  };

  // On every (re)connection and change of conversation: the list, the history, and the live turns of others.
  useEffect(() => {
    if (!connected) return;
    following.current = session;
    localStorage.setItem(STORED_SESSION, session);
    setProblem('');
    client.call(SocketApi.SessionsList, {}).then(
      (answer) => setSessions(answer.sessions.map((s) => s.session)),
      (error: Error) => setProblem(error.message),
    );
    void loadHistory(session);
    let liveKey: string | undefined;
    const leaving = new AbortController();
    const follow = (raw: unknown): void => {
      if (following.current !== session) return;
      const item = takeQuestion(raw, session);
      if (item.kind === 'delta' || item.kind === 'notice' || item.kind === 'tool') {
        setMessages((now) => {
          const at = now.findIndex((m) => m.key === liveKey);
          if (at < 0) {
            const added = withItem(shown({ role: 'assistant', text: '' }, { live: true, notices: [] }), item);
            liveKey = added.key;
            return [...now, added];
          }
          return [...now.slice(0, at), withItem(now[at] as Shown, item), ...now.slice(at + 1)];
        });
      } else {
        // A turn ended (or one finished while nobody listened): the stored history has it whole, with its question.
        liveKey = undefined;
        void loadHistory(session);
      }
    };
    client.call(SocketApi.ChatSubscribe, { session }, { onStream: (raw) => follow(raw), signal: leaving.signal }).catch(() => undefined);
    // Another conversation, or another page: the server stops streaming this one.
    return () => leaving.abort();
  }, [connected, session]);

  useEffect(() => {
    const box = list.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [messages]);

  const send = async (): Promise<void> => {
    const text = draft.trim();
    if (!text || running) return;
    setDraft('');
    setRunning(true);
    setProblem('');
    const question = shown({ role: 'user', text }, { pending: true });
    const answer = shown({ role: 'assistant', text: '' }, { live: true, notices: [], pending: true });
    const update = (change: (m: Shown) => Shown): void => setMessages((now) => now.map((m) => (m.key === answer.key ? change(m) : m)));
    setMessages((now) => [...now, question, answer]);
    try {
      const result = await client.call(SocketApi.ChatSay, { session, text }, { onStream: (raw) => update((m) => withItem(m, takeQuestion(raw, session))) });
      update((m) => {
        const done: Shown = { ...m, text: result.text || m.text, live: false };
        if (result.interrupted) done.flag = 'interrupted';
        return done;
      });
    } catch (error) {
      update((m) => ({ ...m, live: false, flag: 'failed', error: (error as Error).message }));
    } finally {
      setRunning(false);
      setMessages((now) => now.map((m) => (m.key === question.key || m.key === answer.key ? { ...m, pending: false } : m)));
    }
    if (!sessions.includes(session)) setSessions((now) => [session, ...now]);
  };

  const stop = (): void => {
    client.call(SocketApi.ChatInterrupt, { session }).catch((error: Error) => setProblem(error.message));
  };

  const choices = sessions.includes(session) ? sessions : [session, ...sessions];
  return html`
    <section class="chat">
      <label class="session">
        <span>${t('chat.session')}</span>
        <select value=${session} disabled=${running} onChange=${(e: Event) => setSession((e.target as HTMLSelectElement).value)}>
          ${choices.map((name) => html`<option value=${name}>${name}</option>`)}
        </select>
      </label>
      <ol class="messages" ref=${list} aria-label=${t('chat.history')} aria-live="polite">
        ${omitted > 0 && html`<li class="notice">${t('chat.omitted', { count: omitted })}</li>`}
        ${messages.length === 0 && html`<li class="notice">${t('chat.empty')}</li>`}
        ${messages.map((message) => html`<${Message} key=${message.key} message=${message} t=${t} />`)}
      </ol>
      ${problem && html`<p class="problem" role="alert">${problem}</p>`}
      <form
        class="composer"
        onSubmit=${(e: Event) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          aria-label=${t('chat.message')}
          placeholder=${t('chat.placeholder')}
          rows="2"
          value=${draft}
          onInput=${(e: Event) => setDraft((e.target as HTMLTextAreaElement).value)}
          onKeyDown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        ></textarea>
        <${CommandMenu} client=${client} t=${t} draft=${draft} choose=${(text: string) => setDraft(text)} />
        ${
          running
            ? html`<button type="button" class="stop" onClick=${stop}>${t('chat.stop')}</button>`
            : html`<button type="submit" disabled=${!connected || draft.trim() === ''}>${t('chat.send')}</button>`
        }
      </form>
    </section>
  `;
}
