// An output whose text is too big for one wire message goes in pieces: every piece but the last says
// `more`, and the plugin host joins them before its plugin sees the output.
import type { OutputParams } from '../../protocol';

/**
 * Characters of text in one io/output. JSON spends at most 6 bytes on one UTF-16 unit (`\u0001`), so a
 * piece stays well under the wire's 4 MiB body cap whatever the text holds.
 */
export const OUTPUT_PIECE_CHARS = 256 * 1024;

/** The output as one or more wire messages, in order. */
export function splitOutput(output: OutputParams, maxChars = OUTPUT_PIECE_CHARS): OutputParams[] {
  const text = output.text;
  if (text === undefined || text.length <= maxChars) return [output];
  const pieces: OutputParams[] = [];
  let start = 0;
  while (text.length - start > maxChars) {
    let end = start + maxChars;
    // Never split a surrogate pair: each piece must be valid text on its own.
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    pieces.push(piece(output, text.slice(start, end)));
    start = end;
  }
  pieces.push({ ...output, text: text.slice(start) });
  return pieces;
}

function piece(output: OutputParams, text: string): OutputParams {
  const part: OutputParams = { session: output.session, kind: output.kind, text, more: true };
  if (output.inputId !== undefined) part.inputId = output.inputId;
  return part;
}
