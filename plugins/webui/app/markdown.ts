// An answer's Markdown as safe HTML: marked renders it, DOMPurify keeps only harmless markup; links open in a new
// tab without the page's opener or referrer and only to http(s) and mailto; images and anything that would load
// from another origin are dropped.
import DOMPurify from 'dompurify';
import { marked } from 'marked';

const SAFE_LINK = /^(https?:|mailto:)/i;

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!SAFE_LINK.test(href)) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer nofollow');
  node.setAttribute('referrerpolicy', 'no-referrer');
});

/** The HTML of `text` read as Markdown, safe to put in the page. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'video', 'audio', 'source', 'picture', 'iframe', 'object', 'embed', 'svg', 'math'],
    FORBID_ATTR: ['style', 'srcset', 'src'],
  });
}
