import { iconElement } from './icons';
import { h, type ComponentChild, type ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import type { JsonDocument, PageLayout } from '@app/content-model';
import sanitizeHtml from 'sanitize-html';
import { DocumentLinks, DocumentRenderer, Heading, type RenderOptions } from './document';
import type { CodeHighlighter } from './highlight';
import type { ApiOperations } from './api-reference';

export interface NavLink {
  title: string;
  href: string;
  current?: boolean;
  /** Leads away from the site (a site's external link): no referrer, marked for the eye and the ear. */
  external?: boolean;
}

/** An entry of the sidebar: a page (with its sub-pages), a group of pages, or a link. */
export interface NavNode {
  title: string;
  /** Null for a group: a heading, not a page. */
  href: string | null;
  current: boolean;
  /** The current page is inside it: shown open. */
  open: boolean;
  children: NavNode[];
  /** It has sub-pages that are not listed here (a large space): its link leads to them. */
  more?: boolean;
}

/** What every page of a site shares: its name, where it lives, its look and its top-level navigation. */
export interface SiteFrame {
  title: string;
  /** The site's root URL (ends with `/`). */
  home: string;
  /** The stylesheet and script (same origin: the Content-Security-Policy allows nothing inline). */
  assets: { css: string; js: string };
  theme: 'light' | 'dark' | 'auto';
  /** The header logo for each theme (https URLs). */
  logo?: { light: string; dark: string };
  /** The site's social preview image (customization `socialPreview.url`, https): pages without a cover show it. */
  socialImage?: string;
  /** The favicon: an image for each theme, an emoji, or the site's own `favicon.ico` (Quire's default icon, an SVG). */
  favicon?: { light: string; dark: string } | { emoji: string } | { svg: string };
  /** Corner style of the site's boxes (`rounded` by default). */
  corners?: 'straight' | 'rounded' | 'circular';
  /** Footer link groups and copyright line. */
  footer?: { groups: { title: string; links: NavLink[] }[]; copyright?: string };
  /** Ask search engines not to index (unlisted, share-link and visitor-auth sites). */
  noindex: boolean;
  headerLinks: NavLink[];
  /** Section tabs (empty without sections). */
  sections: NavLink[];
  /** The site spaces of the current section, when there are several (a variant switcher). */
  variants: NavLink[];
  nav: NavNode[];
  /** Where the site's script sends visitors' insights events, and what the page is (absent: no events, e.g. a member's preview). */
  insights?: FrameInsights;
}

/** The official SiteInsightsEventLocation ids of what a page shows (null: none). */
export interface InsightsLocation {
  siteSection: string | null;
  siteSpace: string | null;
  space: string | null;
  revision: string | null;
  page: string | null;
}

export interface FrameInsights {
  /** The official trackEventsInSiteById URL of the site. */
  endpoint: string;
  location: InsightsLocation;
}

/** What a page tells the script it is: a page (a page view), the 404 (a page view of no page), a search, or a message (nothing). */
type PageKind = 'page' | 'not-found' | 'search' | 'message';

export interface PageContent {
  title: string;
  description?: string;
  /** The page's canonical URL. */
  url: string;
  breadcrumbs: NavLink[];
  previous?: NavLink;
  next?: NavLink;
  document: JsonDocument | null;
  links: DocumentLinks;
  /** Code blocks are highlighted with it (its languages prepared), else rendered plain. */
  highlighter?: CodeHighlighter;
  /** The page's API operation blocks, resolved. */
  operations?: ApiOperations;
  /** The documents of the reusable contents the page includes (see `includedContents`). */
  reusable?: (id: string) => JsonDocument | null;
  /** An inline expression's value (null: it names no variable). */
  variables?: (expression: string) => string | null;
  /** The page's layout (what it shows: title, description, pages, outline, pagination; its width and cover size). */
  layout?: PageLayout;
  /** The page's cover image, its URL resolved. */
  cover?: { src: string };
  /** Links that lead nowhere marked as broken (a member's preview), not shown as their text. */
  markBroken?: boolean;
  /** When the page last changed (ISO), shown as "Last updated" unless the layout hides the metadata. */
  updatedAt?: string;
  /** Where the page is edited on its Git host (a Git-synced space), when known, and what the link says. */
  edit?: { url: string; label: string };
  /**
   * The page actions the site's customization enables (official `pageActions.items`): `markdown` (view as
   * Markdown, copy the page), `external-ai` (open in ChatGPT or Claude), `git` (edit on the Git host). All
   * three when not given; none: no actions.
   */
  actions?: readonly string[];
  /**
   * "Was this page helpful?" (the site's customization enables it): the form posts to `action` with the
   * page's path below the site's root.
   */
  feedback?: { action: string; page: string };
  /** A mermaid diagram's drawings (prepared before the render). */
  diagram?: RenderOptions['diagram'];
  webhooks?: RenderOptions['webhooks'];
  specFile?: RenderOptions['specFile'];
  schemas?: RenderOptions['schemas'];
}

function navTree(nodes: NavNode[], level: number): ComponentChild {
  return h(
    'ul',
    { class: level === 0 ? 'nav-tree' : 'nav-children' },
    nodes.map((n) => {
      if (n.href === null) return h('li', null, [h('span', { class: 'nav-group' }, n.title), navTree(n.children, level + 1)]);
      const link = h(
        'a',
        { href: n.href, 'aria-current': n.current ? 'page' : undefined, class: n.current ? 'current' : undefined },
        n.title,
      );
      if (n.more) return h('li', { class: 'has-more' }, [link, h('span', { class: 'visually-hidden' }, ' (has sub-pages)')]);
      if (n.children.length === 0) return h('li', null, link);
      // A page with sub-pages: its link, then its sub-pages behind a toggle of their own (a link inside a
      // summary would nest two controls); open when the current page is it or below it.
      return h('li', { class: 'has-children' }, [
        link,
        h('details', { open: n.open || n.current }, [
          h('summary', null, h('span', { class: 'visually-hidden' }, `Pages in ${n.title}`)),
          navTree(n.children, level + 1),
        ]),
      ]);
    }),
  );
}

function tabs(label: string, links: NavLink[], className: string): ComponentChild {
  if (links.length === 0) return null;
  return h(
    'nav',
    { class: className, 'aria-label': label },
    h(
      'ul',
      null,
      links.map((l) =>
        h(
          'li',
          null,
          l.external
            ? h('a', { href: l.href, rel: 'noopener noreferrer', class: 'external' }, [
                l.title,
                h('span', { class: 'visually-hidden' }, ' (another site)'),
                ' ↗',
              ])
            : h('a', { href: l.href, 'aria-current': l.current ? 'page' : undefined }, l.title),
        ),
      ),
    ),
  );
}

/** An emoji drawn as an SVG icon. */
export function emojiIconSvg(emoji: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</text></svg>`;
}

/** Quire's default icon, in the site's primary colour: a rounded square with a white Q. */
export function defaultIconSvg(color = '#346ddb'): string {
  const fill = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#346ddb';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${fill}"/>` +
    '<circle cx="15" cy="15" r="7.5" fill="none" stroke="#fff" stroke-width="3"/>' +
    '<path d="M19 19l6 6" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/></svg>'
  );
}

/** Favicon links: one image per theme (by `media`), an emoji drawn in an SVG data URL, or the site's own icon. */
function favicon(icon: SiteFrame['favicon']): ComponentChild[] {
  if (!icon) return [];
  if ('svg' in icon) return [h('link', { rel: 'icon', href: icon.svg, type: 'image/svg+xml' })];
  if ('emoji' in icon) return [h('link', { rel: 'icon', href: `data:image/svg+xml,${encodeURIComponent(emojiIconSvg(icon.emoji))}` })];
  return [
    h('link', { rel: 'icon', href: icon.light, media: '(prefers-color-scheme: light)' }),
    h('link', { rel: 'icon', href: icon.dark, media: '(prefers-color-scheme: dark)' }),
  ];
}

function footer(content: SiteFrame['footer']): ComponentChild {
  if (!content || (content.groups.length === 0 && !content.copyright)) return null;
  return h('footer', { class: 'site-footer' }, [
    content.groups.length
      ? h(
          'nav',
          { 'aria-label': 'Footer' },
          content.groups.map((g) =>
            h('div', { class: 'footer-group' }, [
              h('p', { class: 'footer-title' }, g.title),
              h(
                'ul',
                null,
                g.links.map((l) => h('li', null, h('a', { href: l.href }, l.title))),
              ),
            ]),
          ),
        )
      : null,
    content.copyright ? h('p', { class: 'copyright' }, content.copyright) : null,
  ]);
}

function frame(
  site: SiteFrame,
  title: string,
  head: ComponentChildren,
  main: ComponentChildren,
  options: { wide?: boolean; sidebar?: boolean; kind: PageKind; search?: { query: string; results: number } },
): string {
  // Data for the script, in a meta element (nothing inline runs): it sends the page's insights events.
  const insights = site.insights
    ? h('meta', { name: 'quire-insights', content: JSON.stringify({ ...site.insights, kind: options.kind, search: options.search }) })
    : null;
  const classes = [
    site.theme === 'auto' ? null : `theme-${site.theme}`,
    site.corners && site.corners !== 'rounded' ? `corners-${site.corners}` : null,
  ];
  const doc = h('html', { lang: 'en', class: classes.filter(Boolean).join(' ') || undefined }, [
    h('head', null, [
      h('meta', { charset: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, title === site.title ? title : `${title} | ${site.title}`),
      site.noindex ? h('meta', { name: 'robots', content: 'noindex' }) : null,
      ...favicon(site.favicon),
      h('link', { rel: 'stylesheet', href: site.assets.css }),
      h('script', { src: site.assets.js, defer: true }),
      insights,
      head,
    ]),
    h('body', null, [
      h('a', { class: 'skip', href: '#content' }, 'Skip to content'),
      h('header', { class: 'site-header' }, [
        h('a', { class: 'site-title', href: site.home }, [
          site.logo ? h('img', { class: 'logo-light', src: site.logo.light, alt: '' }) : null,
          site.logo ? h('img', { class: 'logo-dark', src: site.logo.dark, alt: '' }) : null,
          site.title,
        ]),
        tabs('Sections', site.sections, 'sections'),
        site.headerLinks.length
          ? h(
              'nav',
              { class: 'header-links', 'aria-label': 'Links' },
              h(
                'ul',
                null,
                site.headerLinks.map((l) => h('li', null, h('a', { href: l.href }, l.title))),
              ),
            )
          : null,
        h('form', { class: 'search', role: 'search', method: 'get', action: `${site.home}~search` }, [
          h('label', { for: 'q', class: 'visually-hidden' }, 'Search'),
          h('input', { id: 'q', name: 'q', type: 'search', placeholder: 'Search…' }),
        ]),
      ]),
      h('div', { class: options.sidebar === false ? 'layout no-sidebar' : 'layout' }, [
        options.sidebar === false
          ? null
          : h('nav', { class: 'sidebar', 'aria-label': 'Pages' }, [tabs('Variants', site.variants, 'variants'), navTree(site.nav, 0)]),
        h('main', { id: 'content', class: options.wide ? 'wide' : undefined }, main),
      ]),
      footer(site.footer),
    ]),
  ]);
  return `<!doctype html>${render(doc)}`;
}

function toc(headings: Heading[]): ComponentChild {
  if (headings.length < 2) return null;
  return h('nav', { class: 'toc', 'aria-label': 'On this page' }, [
    h('p', { class: 'toc-title' }, 'On this page'),
    h(
      'ul',
      null,
      headings.map((x) => h('li', { class: `toc-${x.level}` }, h('a', { href: `#${x.id}` }, x.text))),
    ),
  ]);
}

/** A page of a published site as a complete HTML document (server-rendered; works without JavaScript). */
export function renderPage(site: SiteFrame, page: PageContent): string {
  const renderer = new DocumentRenderer(page.links, {
    highlighter: page.highlighter,
    operations: page.operations,
    reusable: page.reusable,
    variables: page.variables,
    diagram: page.diagram,
    webhooks: page.webhooks,
    specFile: page.specFile,
    schemas: page.schemas,
    markBroken: page.markBroken,
  });
  const body = page.document ? renderer.render(page.document) : null;
  const layout = page.layout ?? {};
  const head = [
    h('link', { rel: 'canonical', href: page.url }),
    page.description ? h('meta', { name: 'description', content: page.description }) : null,
    h('meta', { property: 'og:title', content: page.title }),
    h('meta', { property: 'og:site_name', content: site.title }),
    h('meta', { property: 'og:url', content: page.url }),
    h('meta', { property: 'og:type', content: 'article' }),
    page.description ? h('meta', { property: 'og:description', content: page.description }) : null,
    ...socialImage(page.cover?.src ?? site.socialImage),
  ];
  const main = [
    page.breadcrumbs.length
      ? h(
          'nav',
          { class: 'breadcrumbs', 'aria-label': 'Breadcrumbs' },
          h(
            'ol',
            null,
            page.breadcrumbs.map((b) => h('li', null, h('a', { href: b.href }, b.title))),
          ),
        )
      : null,
    // The layout hides parts (the title stays for screen readers: every page has its one heading).
    page.cover && layout.cover !== false
      ? h('img', { class: `cover cover-${layout.coverSize === 'full' ? 'full' : 'hero'}`, src: page.cover.src, alt: '' })
      : null,
    h('article', null, [
      h('h1', { class: layout.title === false ? 'visually-hidden' : undefined }, page.title),
      page.description && layout.description !== false ? h('p', { class: 'description' }, page.description) : null,
      pageActions(page),
      body,
      page.feedback ? feedbackForm(page.feedback) : null,
      page.updatedAt && layout.metadata !== false ? lastUpdated(page.updatedAt) : null,
    ]),
    layout.outline === false ? null : toc(renderer.headings),
    layout.pagination !== false && (page.previous || page.next)
      ? h('nav', { class: 'pager', 'aria-label': 'Previous and next pages' }, [
          page.previous
            ? h('a', { class: 'previous', href: page.previous.href, rel: 'prev' }, [h('span', null, 'Previous'), page.previous.title])
            : null,
          page.next ? h('a', { class: 'next', href: page.next.href, rel: 'next' }, [h('span', null, 'Next'), page.next.title]) : null,
        ])
      : null,
  ];
  return frame(site, page.title, head, main, { wide: layout.width === 'wide', sidebar: layout.tableOfContents !== false, kind: 'page' });
}

/** The page's preview image for link unfurls (its cover, else the site's), with the large card it calls for. */
function socialImage(src: string | undefined): ComponentChild[] {
  return src
    ? [h('meta', { property: 'og:image', content: src }), h('meta', { name: 'twitter:card', content: 'summary_large_image' })]
    : [h('meta', { name: 'twitter:card', content: 'summary' })];
}

/**
 * What a reader can do with the page, as GitBook's page actions: "Copy page" (the markdown to the clipboard,
 * shown by the site's script, which it needs) and a menu (a disclosure: it opens without the script) to read
 * the page as markdown, hand it to an assistant (the prompt names the page's `.md`) or edit it on its Git host.
 */
function pageActions(page: PageContent): ComponentChild {
  const markdown = `${page.url}.md`;
  const prompt = encodeURIComponent(`Read ${markdown} so I can ask questions about it.`);
  const external = { rel: 'noopener noreferrer' };
  const shown = (action: string) => page.actions === undefined || page.actions.includes(action);
  const item = (href: string, icon: string, label: string, attrs: Record<string, string> = {}) =>
    h('a', { href, ...attrs }, [iconElement(icon), label]);
  const items = [
    shown('markdown') ? item(markdown, 'markdown', 'View as Markdown', { class: 'page-markdown' }) : null,
    shown('external-ai') ? item(`https://chatgpt.com/?hints=search&q=${prompt}`, 'comment', 'Open in ChatGPT', external) : null,
    shown('external-ai') ? item(`https://claude.ai/new?q=${prompt}`, 'comment-dots', 'Open in Claude', external) : null,
    shown('git') && page.edit ? item(page.edit.url, gitIcon(page.edit.url), page.edit.label, { class: 'page-edit', ...external }) : null,
  ].filter((i) => i !== null);
  if (!items.length) return null;
  return h(
    'nav',
    { class: 'page-actions', 'aria-label': 'Page actions' },
    h('div', null, [
      shown('markdown')
        ? h('button', { type: 'button', class: 'copy-page', hidden: true, 'data-markdown': markdown }, [iconElement('copy'), 'Copy page'])
        : null,
      h('details', { class: 'actions-menu' }, [
        h('summary', null, [h('span', { class: 'actions-label' }, 'Page actions'), iconElement('chevron-down')]),
        h('div', { class: 'actions-list' }, items),
      ]),
    ]),
  );
}

/** The brand icon of the Git host an edit link goes to (Font Awesome Free has GitHub's, GitLab's, Bitbucket's). */
function gitIcon(url: string): string {
  const host = /^https?:\/\/([^/]+)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return host.includes('github') ? 'github' : host.includes('gitlab') ? 'gitlab' : host.includes('bitbucket') ? 'bitbucket' : 'code-branch';
}

/**
 * "Was this page helpful?": the official ratings (good, ok, bad) as the form's submit buttons, and an optional
 * comment (up to 512 characters) written first. It works without the script (the post answers a thank-you
 * page); the script sends the rating at once and asks for the comment after, as GitBook's form does.
 */
function feedbackForm(feedback: { action: string; page: string }): ComponentChild {
  const rating = (value: string, label: string, icon: string) =>
    h('button', { type: 'submit', name: 'rating', value, class: `rating rating-${value}` }, [iconElement(icon), label]);
  return h('form', { class: 'page-feedback', method: 'post', action: feedback.action, 'aria-labelledby': 'feedback-question' }, [
    h('input', { type: 'hidden', name: 'page', value: feedback.page }),
    h('p', { id: 'feedback-question', class: 'feedback-question' }, 'Was this page helpful?'),
    h('div', { class: 'feedback-comment' }, [
      h('label', { for: 'feedback-comment' }, 'Anything to add? (optional)'),
      h('textarea', { id: 'feedback-comment', name: 'comment', maxlength: 512, rows: 3 }),
    ]),
    h('div', { class: 'ratings', role: 'group', 'aria-labelledby': 'feedback-question' }, [
      rating('good', 'Yes', 'face-smile'),
      rating('ok', 'Somewhat', 'face-meh'),
      rating('bad', 'No', 'face-frown'),
    ]),
  ]);
}

/** A short message in the site's frame (a form's answer): a title, what happened, and the way back. */
export function renderMessage(site: SiteFrame, title: string, text: string, back: { href: string; title: string }): string {
  return frame(
    site,
    title,
    h('meta', { name: 'robots', content: 'noindex' }),
    [
      h('article', { class: 'message' }, [
        h('h1', null, title),
        h('p', { role: 'status' }, text),
        h('p', null, h('a', { href: back.href }, back.title)),
      ]),
    ],
    { kind: 'message' },
  );
}

/**
 * "Last updated" with the date (a machine-readable `<time>`; the date in UTC, day month year). The site's script
 * says it as GitBook does, relative to the reader's now ("3 days ago"), the date in its title: a page served
 * from memory cannot know when it is read.
 */
function lastUpdated(iso: string): ComponentChild {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const text = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return h('p', { class: 'last-updated' }, ['Last updated ', h('time', { datetime: date.toISOString(), title: text }, text)]);
}

/** The site's 404 page, in its own style and navigation. */
export function renderNotFound(site: SiteFrame): string {
  return frame(
    site,
    'Page not found',
    null,
    [
      h('article', { class: 'not-found' }, [
        h('h1', null, 'Page not found'),
        h('p', null, ['This page does not exist, or it moved. ', h('a', { href: site.home }, 'Go to the home page'), '.']),
      ]),
    ],
    { kind: 'not-found' },
  );
}

/** A search hit on a site: the page (and the section of it that matched), where it is, and an excerpt. */
export interface SearchHit {
  title: string;
  section?: string;
  url: string;
  /** Where the page is on the site (its site space, and the section that holds it). */
  where: string;
  /** HTML text whose only markup is `<mark>` around the matched words (anything else is removed). */
  excerpt: string;
  /** The page's space and id (a click on the hit is counted as the official `search_open_result`). */
  spaceId?: string;
  pageId?: string;
}

/** A search excerpt as HTML with nothing but its `<mark>`s (the text escaped). */
export function markedExcerpt(excerpt: string): string {
  return sanitizeHtml(excerpt, { allowedTags: ['mark'], allowedAttributes: {} });
}

/** The site's search page: the form with the query, then the hits, or a line saying there are none. */
export function renderSearch(site: SiteFrame, query: string, hits: SearchHit[], problem?: string): string {
  return frame(
    site,
    query ? `Search: ${query}` : 'Search',
    h('meta', { name: 'robots', content: 'noindex' }),
    [
      h('article', { class: 'search-results' }, [
        h('h1', null, 'Search'),
        h('form', { method: 'get', action: `${site.home}~search`, role: 'search' }, [
          h('label', { for: 'search-page-q' }, 'Search the site'),
          h('input', { id: 'search-page-q', name: 'q', type: 'search', value: query }),
          h('button', { type: 'submit' }, 'Search'),
        ]),
        problem
          ? h('p', { role: 'alert' }, problem)
          : query
            ? h(
                'p',
                { role: 'status' },
                hits.length === 0 ? `No results for “${query}”.` : `${hits.length} result${hits.length === 1 ? '' : 's'} for “${query}”.`,
              )
            : null,
        // The script shows it: the query asked as a question of the site's pages (`~ask`).
        query && !problem
          ? h('section', { class: 'ask', hidden: true, 'data-question': query, 'data-action': `${site.home}~ask`, 'aria-label': 'Ask' }, [
              h('button', { type: 'button' }, 'Ask the documentation'),
              h('div', { class: 'ask-answer', 'aria-live': 'polite' }),
            ])
          : null,
        h(
          'ol',
          { class: 'hits' },
          hits.map((hit) =>
            h('li', null, [
              h(
                'a',
                { href: hit.url, 'data-space': hit.spaceId, 'data-page': hit.pageId },
                hit.section ? `${hit.title} › ${hit.section}` : hit.title,
              ),
              h('p', { class: 'where' }, hit.where),
              h('p', { dangerouslySetInnerHTML: { __html: markedExcerpt(hit.excerpt) } }),
            ]),
          ),
        ),
      ]),
    ],
    { kind: 'search', search: query && !problem ? { query, results: hits.length } : undefined },
  );
}
