// One file's bytes into chunks with stable ids: decode (UTF-8, or UTF-16 with a byte-order mark),
// parse by format into blocks, pack the blocks under their headings.
import { createHash } from 'node:crypto';
import { packBlocks, type Block } from './blocks';
import type { DocumentFormat } from './formats';
import { parseHtml } from './parse-html';
import { parseMarkdown } from './parse-markdown';
import { parseText } from './parse-text';

/** A chunk as it is stored and indexed. */
export interface ChunkRecord {
  /** Stable id: a hash of file, heading and text (with `~N` for a repeat within the file). */
  id: string;
  file: string;
  /** Position in its file, from 0. */
  seq: number;
  heading: string;
  text: string;
  line: number;
}

/** Bumped whenever chunking changes what a file turns into; a store made by another version is rebuilt. */
export const CHUNKER_VERSION = 1;

/** Decodes a file's bytes, or says why they are not text. */
export function decodeDocument(bytes: Buffer): { text: string } | { reason: string } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  if (bytes.subarray(0, 8192).includes(0)) return { reason: 'it looks binary (it has NUL bytes), not text' };
  return { text: new TextDecoder('utf-8').decode(bytes) };
}

/** Parses a document of the given format into headings and paragraphs. */
export function parseDocument(text: string, format: DocumentFormat): Block[] {
  switch (format) {
    case 'markdown':
      return parseMarkdown(text);
    case 'html':
      return parseHtml(text);
    case 'text':
    case 'rst':
    case 'asciidoc':
      return parseText(text, format);
  }
}

/** Cuts a document into chunks of at most `maxChars` characters, each with its heading path and first line. */
export function chunkDocument(file: string, text: string, format: DocumentFormat, maxChars: number): ChunkRecord[] {
  const seen = new Map<string, number>();
  return packBlocks(parseDocument(text, format), maxChars).map((chunk, seq) => {
    const hash = createHash('sha1').update(`${file}\0${chunk.heading}\0${chunk.text}`).digest('base64url').slice(0, 16);
    const repeat = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, repeat);
    return { id: repeat === 1 ? hash : `${hash}~${repeat}`, file, seq, heading: chunk.heading, text: chunk.text, line: chunk.line };
  });
}
