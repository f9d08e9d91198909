// After a crash: inputs the journal still holds open were cut off. Each is put in its session's
// conversation with what was said so far, marked, and its reader is told once; none is re-run (its tools
// may have acted already).
import { ErrorCodes, ErrorNames, type OutputParams } from '../../protocol';
import type { JournalRow } from './input-journal';
import type { SessionStore } from './sessions';

/** How a cut-off answer is marked in the conversation. */
export const CUT_OFF_MARK = '[cut off: homed stopped]';
/** The answer of an input that was still waiting when homed stopped. */
export const NOT_STARTED_MARK = '[cut off: homed stopped before answering this]';

/** A turn found cut off at start. */
export interface CutOffTurn {
  row: JournalRow;
  /** The answer as stored, with its mark. */
  answer: string;
}

/** Moves every open journal row into its session's conversation, marked; answers what it moved. */
export function recoverCutOffTurns(sessions: SessionStore): CutOffTurn[] {
  const rows = sessions.journal.open();
  if (rows.length === 0) return [];
  return sessions.transaction(() =>
    rows.map((row) => {
      const partial = row.partial ?? '';
      const answer = partial === '' ? (row.state === 'running' ? CUT_OFF_MARK : NOT_STARTED_MARK) : `${partial} ${CUT_OFF_MARK}`;
      sessions.appendNow(
        row.session,
        [
          { role: 'user', content: row.text },
          { role: 'assistant', content: answer, flag: 'cut_off' },
        ],
        undefined,
        row.id,
        row.receivedAt,
      );
      return { row, answer };
    }),
  );
}

/** The `error` output that tells a cut-off turn's reader what happened (it reaches them as a `missed` item). */
export function cutOffNotice(turn: CutOffTurn): Omit<OutputParams, 'session'> {
  const { row } = turn;
  const asked = row.text.length > 80 ? `${row.text.slice(0, 77)}...` : row.text;
  const when = new Date(row.receivedAt).toISOString().replace('T', ' ').slice(0, 19);
  return {
    kind: 'error',
    code: ErrorNames[ErrorCodes.CutOff]!,
    error: `homed stopped while answering "${asked}" (sent ${when} UTC); what it had said is kept in the session (homectl sessions show ${row.session}). It was not run again: send it again if you still need it`,
    text: turn.answer,
  };
}
