// HTML to readable, Markdown-ish text with html-to-text: headings as `#`, lists as `*`, links as `text [url]`
// (made absolute against the page's URL), and no scripts, styles, navigation, forms' furniture or images.
import { compile, type FormatCallback } from 'html-to-text';

const heading =
  (level: number): FormatCallback =>
  (elem, walk, builder) => {
    builder.openBlock({ leadingLineBreaks: 2 });
    builder.addInline(`${'#'.repeat(level)} `);
    walk(elem.children, builder);
    builder.closeBlock({ trailingLineBreaks: 1 });
  };

const SKIPPED = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'nav',
  'button',
  'select',
  'input',
  'textarea',
  'img',
  'picture',
  'video',
  'audio',
  'head',
];

function converter(baseUrl: string): (html: string) => string {
  return compile({
    wordwrap: false,
    formatters: Object.fromEntries([1, 2, 3, 4, 5, 6].map((level) => [`h${level}`, heading(level)])),
    selectors: [
      ...[1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: `h${level}` })),
      {
        selector: 'a',
        options: { pathRewrite: (href: string) => absoluteLink(href, baseUrl), hideLinkHrefIfSameAsText: true, linkBrackets: ['[', ']'] as [string, string] },
      },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      { selector: '[hidden]', format: 'skip' },
      { selector: '[aria-hidden=true]', format: 'skip' },
      ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
    ],
  });
}

// A link as the agent can fetch it: absolute against the page; '' (the text alone) for script and data links.
function absoluteLink(href: string, baseUrl: string): string {
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === 'javascript:' || url.protocol === 'data:' ? '' : url.href;
  } catch {
    return href;
  }
}

/** The page's readable text, links made absolute against `baseUrl`. */
export function htmlToReadableText(html: string, baseUrl: string): string {
  return converter(baseUrl)(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const plainText = compile({ wordwrap: false });

/** The text of the page's `<title>`, entities decoded and spaces collapsed; '' when it has none. */
export function htmlTitle(html: string): string {
  const inner = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  if (inner === undefined) return '';
  return plainText(inner).replace(/\s+/g, ' ').trim();
}
