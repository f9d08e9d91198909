// What web_fetch makes of a body by its content type: HTML becomes readable text, plain text, JSON and XML pass
// as text, anything else (images, PDFs, archives, octet-stream) is refused with its type and size.
import { formatBytes } from '../../protocol/format';

/** How a content type is read. */
export type ContentKind = 'html' | 'text' | 'unknown' | 'binary';

/** A Content-Type header, taken apart. */
export interface ContentType {
  /** `text/html`, lower case; '' when the server sent none. */
  mime: string;
  /** The charset parameter, if any. */
  charset: string | undefined;
  kind: ContentKind;
}

const TEXT_APPLICATION = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
]);

/** Reads a Content-Type header into its type, charset and kind. */
export function parseContentType(header: string | undefined): ContentType {
  const [mimePart = '', ...params] = (header ?? '').split(';');
  const mime = mimePart.trim().toLowerCase();
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  const charset = charsetParam?.slice('charset='.length).trim().replace(/^"|"$/g, '') || undefined;
  return { mime, charset, kind: kindOf(mime) };
}

function kindOf(mime: string): ContentKind {
  if (mime === '') return 'unknown';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime.startsWith('text/') || TEXT_APPLICATION.has(mime) || mime.endsWith('+json') || mime.endsWith('+xml')) return 'text';
  return 'binary';
}

/** A body that looks binary: a NUL byte in its first 8 KiB (text in UTF-8 or a legacy charset has none). */
export function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

/** The refusal of a type web_fetch does not read, with its size when the server said it. */
export function refuseType(url: string, mime: string, contentLength: string | undefined): Error {
  const size = contentLength !== undefined && /^\d+$/.test(contentLength) ? formatBytes(Number(contentLength)) : 'size not given';
  const type = mime === '' ? 'no content type, and the body is binary' : `content type ${mime}`;
  return new Error(`web_fetch does not read ${url}: ${type} (${size}); it reads HTML, plain text, JSON and XML only`);
}

/**
 * Decodes a body to text in its charset: the header's, else for HTML a `<meta charset>` near the top, else
 * UTF-8; a charset this Node does not know is read as UTF-8.
 */
export function decodeText(data: Buffer, type: ContentType): string {
  const label = type.charset ?? (type.kind === 'html' ? metaCharset(data) : undefined) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(data);
  } catch {
    return new TextDecoder('utf-8').decode(data);
  }
}

function metaCharset(data: Buffer): string | undefined {
  const head = data.subarray(0, 4096).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
