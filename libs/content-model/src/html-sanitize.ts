import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

/** Raw HTML in markdown: kept as written unless it could run something, then sanitized. */

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'picture',
    'source',
    'details',
    'summary',
    'figure',
    'figcaption',
    'kbd',
    'sup',
    'sub',
    'br',
    'center',
    'font',
    'ins',
    'del',
    'video',
  ],
  allowedAttributes: {
    '*': ['align', 'width', 'height', 'title', 'id', 'name', 'class', 'dir', 'lang'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'srcset', 'loading'],
    source: ['srcset', 'media', 'type', 'src'],
    video: ['src', 'controls', 'poster'],
    details: ['open'],
    font: ['color', 'size'],
    td: ['colspan', 'rowspan', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'align', 'valign'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: true,
};

/**
 * Raw HTML is kept verbatim — unless it could run something (script or style elements, event handler
 * attributes, `javascript:`/`data:` URLs, frames, forms): then only what sanitize-html lets through remains.
 */
const DANGEROUS_HTML =
  /<\s*\/?\s*(script|style|iframe|object|embed|form|input|button|textarea|select|link|meta|base|svg|math)\b|\son[a-z]+\s*=|javascript:|vbscript:|data:/i;

export function safeHtml(html: string): string {
  // Entities are decoded first: `java&#115;cript:` is `javascript:` to a browser.
  if (!DANGEROUS_HTML.test(html) && !(html.includes('&') && DANGEROUS_HTML.test(decodeHTML(html).replace(/[\t\n\r]/g, '')))) return html;
  // Inline HTML comes in fragments (`<a …>`, text, `</a>`): the sanitizer closes what it opens, so a
  // closing tag the fragment did not have is taken off again.
  return sanitizeHtml(html, SANITIZE).replace(/<\/([a-z][a-z0-9]*)>/gi, (tag, name: string) =>
    new RegExp(`</\\s*${name}\\s*>`, 'i').test(html) ? tag : '',
  );
}
