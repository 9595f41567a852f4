import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';

/** Official Embed: what a URL shows as a card (`link`) or as the provider's own HTML (`rich`). */
export type Embed = { title: string; site: string; icon?: string } & ({ type: 'link' } | { type: 'rich'; html: string });

/** What a page's head says of itself: its oEmbed endpoint, Open Graph and Twitter tags, title, icon. */
export interface PageMeta {
  oembed?: string;
  title?: string;
  siteName?: string;
  icon?: string;
}

const TEXT_MAX = 300;

function clean(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const out = text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, TEXT_MAX);
  return out || undefined;
}

/** An http(s) URL resolved against the page's, or undefined. */
function absolute(href: string | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a page's head (htmlparser2): the oEmbed discovery link, og:/twitter: title and site name, `<title>`, the icon. */
export function pageMeta(html: string, url: string): PageMeta {
  const meta: Record<string, string> = {};
  let title = '';
  let inTitle = false;
  let oembed: string | undefined;
  let icon: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === 'title') inTitle = true;
        if (name === 'meta') {
          const key = (a.property ?? a.name ?? '').toLowerCase();
          if (key && a.content !== undefined && !(key in meta)) meta[key] = a.content;
        }
        if (name === 'link') {
          const rel = (a.rel ?? '').toLowerCase().split(/\s+/);
          if (rel.includes('alternate') && (a.type ?? '').toLowerCase() === 'application/json+oembed' && !oembed) oembed = a.href;
          if ((rel.includes('icon') || rel.includes('apple-touch-icon')) && !icon) icon = a.href;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return {
    oembed: absolute(oembed, url),
    title: clean(meta['og:title'] ?? meta['twitter:title'] ?? title),
    siteName: clean(meta['og:site_name'] ?? meta['application-name']),
    icon: absolute(icon ?? '/favicon.ico', url),
  };
}

/** The provider's HTML, kept to what an embed may hold: iframes over https, and plain text markup around them. */
export function sanitizeEmbedHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['iframe', 'blockquote', 'p', 'a', 'br', 'div', 'span', 'strong', 'em'],
    allowedAttributes: {
      iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'frameborder', 'loading'],
      a: ['href', 'title'],
      blockquote: ['cite'],
    },
    allowedSchemes: ['https'],
    allowedSchemesByTag: { a: ['https', 'http'] },
    allowedIframeHostnames: undefined,
  });
}

const EMBED_HTML_MAX = 20_000;

/** The embed of a URL from what its page and its oEmbed answer said. */
export function embedOf(url: string, page: PageMeta, oembed: Record<string, unknown> | null): Embed {
  const host = new URL(url).hostname;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const title = clean(str(oembed?.title)) ?? page.title ?? host;
  const site = clean(str(oembed?.provider_name)) ?? page.siteName ?? host;
  const base = { title, site, ...(page.icon ? { icon: page.icon } : {}) };
  const html = str(oembed?.html);
  if (html && (oembed?.type === 'rich' || oembed?.type === 'video')) {
    const safe = sanitizeEmbedHtml(html);
    // Too long to keep whole (cutting it could break a tag): a link instead.
    if (safe.trim() && safe.length <= EMBED_HTML_MAX) return { ...base, type: 'rich', html: safe };
  }
  return { ...base, type: 'link' };
}
