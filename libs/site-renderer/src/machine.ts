import { h } from 'preact';
import { render } from 'preact-render-to-string';

/** A listed page of a site, for the files crawlers and agents read instead of the HTML. */
export interface ListedPage {
  title: string;
  description?: string;
  /** The page's URL (its markdown is at `${url}.md`). */
  url: string;
  lastModified: Date;
}

/** The pages of one site space, under the heading it has on the site (its section's and its own title). */
export interface ListedGroup {
  title: string;
  pages: ListedPage[];
}

/** `sitemap.xml` (sitemaps.org 0.9): every listed page with its last modification; escaped by construction. */
export function renderSitemap(pages: ListedPage[]): string {
  const urlset = h(
    'urlset',
    { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' },
    pages.map((p) => h('url', null, [h('loc', null, p.url), h('lastmod', null, p.lastModified.toISOString())])),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${render(urlset)}\n`;
}

/** Markdown text on one line: link labels and descriptions cannot break the list (brackets escaped). */
function inline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/([[\]\\])/g, '\\$1')
    .trim();
}

/**
 * `llms.txt` (llmstxt.org): the site's title, then a section per site space listing its pages as links
 * to their markdown, each with its description.
 */
export function renderLlmsTxt(title: string, groups: ListedGroup[]): string {
  const parts = [`# ${inline(title)}\n`];
  for (const g of groups) {
    if (g.pages.length === 0) continue;
    parts.push(`\n## ${inline(g.title)}\n\n`);
    for (const p of g.pages) parts.push(`- [${inline(p.title)}](${p.url}.md)${p.description ? `: ${inline(p.description)}` : ''}\n`);
  }
  return parts.join('');
}

/** `llms-full.txt`: every listed page's markdown, in reading order, each under its title and source URL. */
export function renderLlmsFullTxt(title: string, pages: { page: ListedPage; markdown: string }[]): string {
  const parts = [`# ${inline(title)}\n`];
  for (const { page, markdown } of pages) parts.push(`\n---\n\n# ${inline(page.title)}\n\nSource: ${page.url}\n\n${markdown.trim()}\n`);
  return parts.join('');
}

/** `robots.txt`: a public site invites crawlers and names its sitemap; any other site asks them to stay out. */
export function renderRobotsTxt(indexable: boolean, sitemapUrl: string): string {
  return indexable ? `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n` : 'User-agent: *\nDisallow: /\n';
}
