// Which files of the knowledge folder are read, which are listed with a reason, and which are
// not seen at all (hidden folders, editors' temporary and lock files).
import * as path from 'node:path';

/** How a file's text is cut into sections. */
export type DocumentFormat = 'markdown' | 'text' | 'rst' | 'asciidoc' | 'html';

const FORMATS: Readonly<Record<string, DocumentFormat>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdown': 'markdown',
  '.mkd': 'markdown',
  '.mdx': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.org': 'text',
  '.rst': 'rst',
  '.adoc': 'asciidoc',
  '.asciidoc': 'asciidoc',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
};

const CONVERT = 'save it as Markdown or plain text to have it indexed';
const REASONS: Readonly<Record<string, string>> = {
  '.pdf': `PDF files are not read (no converter is bundled); ${CONVERT}, e.g. with pdftotext`,
  '.doc': `word-processor files are not read; ${CONVERT}`,
  '.docx': `word-processor files are not read; ${CONVERT}`,
  '.odt': `word-processor files are not read; ${CONVERT}`,
  '.rtf': `word-processor files are not read; ${CONVERT}`,
  '.epub': `e-books are not read; ${CONVERT}`,
  '.json': `data files (JSON, CSV, YAML) are not prose and are not indexed; ${CONVERT}`,
  '.csv': `data files (JSON, CSV, YAML) are not prose and are not indexed; ${CONVERT}`,
  '.tsv': `data files (JSON, CSV, YAML) are not prose and are not indexed; ${CONVERT}`,
  '.yaml': `data files (JSON, CSV, YAML) are not prose and are not indexed; ${CONVERT}`,
  '.yml': `data files (JSON, CSV, YAML) are not prose and are not indexed; ${CONVERT}`,
};

/** The extensions that are indexed, for messages. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(FORMATS);

/** The format of a file name, or why it is not indexed. */
export function classifyFile(name: string): { format: DocumentFormat } | { reason: string } {
  const ext = path.extname(name).toLowerCase();
  const format = FORMATS[ext];
  if (format) return { format };
  const reason =
    REASONS[ext] ?? `${ext ? `"${ext}" files are` : 'files without an extension are'} not indexed; the knowledge base reads ${SUPPORTED_EXTENSIONS.join(' ')}`;
  return { reason };
}

// Editors save through files like these (vim's swap files and its 4913 probe, emacs's #autosave# and
// .#lock, backup~ files, JetBrains' ___jb_tmp___, LibreOffice's .~lock, Office's ~$ owner files, partial downloads).
const TEMPORARY = [/~$/, /^#.*#$/, /^~\$/, /^4913$/, /\.(?:swp|swo|swx|swn|tmp|temp|part|partial|crdownload|download|kate-swp)$/i, /___jb_(?:tmp|old)___$/];

/** Whether a file or folder name is never looked at: hidden (dot) names and editors' temporary files. */
export function isIgnoredName(name: string): boolean {
  if (name.startsWith('.')) return true;
  return TEMPORARY.some((pattern) => pattern.test(name));
}
