// The page's words in English and Chinese: every page's strings (app/strings/<page>.ts, gathered by the asset build
// into `homeagent:strings`) merged into one table per language, the language chosen from the browser's and
// switchable (remembered in this browser), and `t(key, values)` to say a key with its `{name}` slots filled.
import allStrings from 'homeagent:strings';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** One page's strings: the same keys in each language (the type checker holds them to it). */
export interface PageStrings<K extends string = string> {
  en: Record<K, string>;
  zh: Record<K, string>;
}

/** A strings file's default export: `export default defineStrings({ en: {…}, zh: {…} })`. */
export function defineStrings<K extends string>(strings: PageStrings<K>): PageStrings<K> {
  return strings;
}

/** Says a key in the current language, `{name}` slots filled from `values`. */
export type T = (key: string, values?: Record<string, string | number>) => string;

const STORED = 'homeagent.language';

function merge(): Record<Language, Record<string, string>> {
  const tables: Record<Language, Record<string, string>> = { en: {}, zh: {} };
  for (const [file, strings] of Object.entries(allStrings)) {
    for (const language of LANGUAGES) {
      for (const [key, text] of Object.entries<string>(strings[language])) {
        if (key in tables[language])
          throw new Error(`strings/${file}: the key ${key} is already defined by another strings file; prefix it with the page's name`);
        tables[language][key] = text;
      }
    }
  }
  return tables;
}

const tables = merge();

/** The language to start in: the one chosen before in this browser, else the browser's own, else English. */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(STORED);
  if (stored === 'en' || stored === 'zh') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** Remembers the choice and marks the document's language. */
export function chooseLanguage(language: Language): void {
  localStorage.setItem(STORED, language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

/** The `t` of a language; a key missing from it falls back to English, then to the key itself. */
export function translator(language: Language): T {
  const table = tables[language];
  return (key, values) => {
    const text = table[key] ?? tables.en[key] ?? key;
    return values ? text.replace(/\{(\w+)\}/g, (slot, name: string) => (name in values ? String(values[name]) : slot)) : text;
  };
}
