// How a streamed body is cut into events: Server-Sent Events or newline-delimited JSON.

/** One framed event: the SSE `event:` name (undefined without one) and its data text. */
export interface FramedEvent {
  event: string | undefined;
  data: string;
}

/** Cuts decoded body text into events; push() may be called with any split of the text. */
export interface FrameParser {
  push(text: string): FramedEvent[];
  /** Called at the end of the body: returns what the format says a last unterminated record yields. */
  end(): FramedEvent[];
}

export type Framing = 'sse' | 'ndjson';

/** Makes the parser for a framing. */
export function createFrameParser(framing: Framing): FrameParser {
  return framing === 'sse' ? new SseParser() : new NdjsonParser();
}

const LINE_END = /\r\n|\r|\n/g;

/**
 * Server-Sent Events as the WHATWG HTML spec parses them: CRLF, LF or CR line ends (a CRLF may be split
 * across two pushes), a leading BOM dropped, `:` comment lines ignored, `data:` lines joined with `\n`,
 * one space after the colon dropped, a line without a colon as a field with an empty value, an event
 * dispatched at a blank line only if it had data, and an unterminated last event discarded.
 */
export class SseParser implements FrameParser {
  private rest = '';
  private started = false;
  private pendingCR = false;
  private data: string[] = [];
  private eventName: string | undefined;
  /** The last `id:` seen (what EventSource would send back as Last-Event-ID). */
  lastEventId = '';

  push(text: string): FramedEvent[] {
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.startsWith('\n')) text = text.slice(1);
    }
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const buffer = this.rest + text;
    const events: FramedEvent[] = [];
    let start = 0;
    LINE_END.lastIndex = 0;
    for (let m = LINE_END.exec(buffer); m !== null; m = LINE_END.exec(buffer)) {
      // A CR that ends this push may be the first half of a CRLF whose LF comes in the next one.
      if (m[0] === '\r' && m.index === buffer.length - 1) this.pendingCR = true;
      this.line(buffer.slice(start, m.index), events);
      start = m.index + m[0].length;
    }
    this.rest = buffer.slice(start);
    return events;
  }

  end(): FramedEvent[] {
    this.rest = '';
    this.data = [];
    this.eventName = undefined;
    return [];
  }

  private line(line: string, events: FramedEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push({ event: this.eventName, data: this.data.join('\n') });
      this.data = [];
      this.eventName = undefined;
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // ':' comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventName = value === '' ? undefined : value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
      // `retry` and unknown fields are ignored.
    }
  }
}

/** Newline-delimited JSON (Ollama): one record per line, CRLF tolerated, blank lines skipped, a last line without newline kept. */
export class NdjsonParser implements FrameParser {
  private rest = '';

  push(text: string): FramedEvent[] {
    const buffer = this.rest + text;
    const events: FramedEvent[] = [];
    let start = 0;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n', start)) {
      pushRecord(buffer.slice(start, nl), events);
      start = nl + 1;
    }
    this.rest = buffer.slice(start);
    return events;
  }

  end(): FramedEvent[] {
    const events: FramedEvent[] = [];
    pushRecord(this.rest, events);
    this.rest = '';
    return events;
  }
}

function pushRecord(line: string, events: FramedEvent[]): void {
  const record = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (record.trim() !== '') events.push({ event: undefined, data: record });
}
