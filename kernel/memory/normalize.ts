// How names, predicates and values are compared: two spellings that differ only in case, width,
// Latin diacritics, punctuation or spacing are the same name.

const LATIN_MARKS = /[\u0300-\u036f]/g;
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
const APOSTROPHES = /['’ʼ`]/g;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A name folded for comparison: NFKC (full-width → ASCII), lower case, Latin diacritics and punctuation gone, single spaces. */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC').replace(APOSTROPHES, '').replace(NOT_WORD, ' ').trim();
}

/** A normalised name with its spaces gone too ("lin-wei", "LinWei" and "Lin Wei" share one). */
export function looseKey(norm: string): string {
  return norm.replace(/ /g, '');
}

/** A predicate in snake_case: "Lives In" → "lives_in". */
export function normalizePredicate(predicate: string): string {
  return normalizeName(predicate).replace(/ /g, '_');
}

/** Whether a name is written in a script without spaces between words (Chinese, Japanese, Korean). */
export function isCjk(text: string): boolean {
  return CJK.test(text);
}

/** A note's text folded for spotting the same note twice. */
export function normalizeNoteText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The text as one Markdown line: newlines and comment delimiters cannot break the file's markers. */
export function lineText(text: string): string {
  return text
    .replace(/<!--|-->/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A file name for an entity's document: its normalised name with dashes, or `entity-<id>` when nothing is left. */
export function slugify(norm: string, entityId: number): string {
  const slug = norm
    .replace(/ /g, '-')
    .replace(/[./\\]/g, '')
    .slice(0, 80);
  return slug.length > 0 ? slug : `entity-${entityId}`;
}
