// Joins an output the kernel sent in pieces (each but the last marked `more`) into the one output its
// plugin sees. Pieces of one output arrive in order, one output at a time per session and input.
import type { OutputParams } from '../protocol';

/** Most text held for outputs still arriving in pieces; past it the pieces are dropped and an error delivered. */
const MAX_HELD_CHARS = 64 * 1024 * 1024;

/** Collects pieces per (session, input) and hands whole outputs on. */
export class OutputJoiner {
  private readonly held = new Map<string, string[]>();
  private heldChars = 0;

  /** Takes one io/output; answers the whole output when this was its last (or only) piece. */
  take(output: OutputParams): OutputParams | undefined {
    const key = `${output.session}\u0000${output.inputId ?? ''}`;
    const parts = this.held.get(key);
    if (output.more === true) {
      const text = output.text ?? '';
      if (this.heldChars + text.length > MAX_HELD_CHARS) {
        this.release(key);
        return {
          session: output.session,
          ...(output.inputId !== undefined ? { inputId: output.inputId } : {}),
          kind: 'error',
          code: 'HA_ERR_INTERNAL',
          error: 'an output too large to hold arrived in pieces and was dropped',
        };
      }
      this.heldChars += text.length;
      if (parts) parts.push(text);
      else this.held.set(key, [text]);
      return undefined;
    }
    if (!parts) return output;
    this.release(key);
    const whole: OutputParams = { ...output, text: parts.join('') + (output.text ?? '') };
    return whole;
  }

  private release(key: string): void {
    for (const part of this.held.get(key) ?? []) this.heldChars -= part.length;
    this.held.delete(key);
  }
}
