import { Controller, Get, Inject, Optional, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { parse as parseCookies, serialize as cookie } from 'cookie';
import type { Request, Response } from 'express';
import { documentToMarkdown, pathOf, type ContentRef, type JsonDocument, type PageTree } from '@app/content-model';
import { FrontDoor, Links, Public, ReadCacheSettings, RenderedJson, RequestLinks } from '@app/http-kit';
import {
  markedExcerpt,
  CodeHighlighter,
  defaultIconSvg,
  emojiIconSvg,
  codeBlocks,
  codeSyntaxes,
  includedContents,
  operationRefs,
  type ApiOperation,
  renderLlmsFullTxt,
  renderLlmsTxt,
  renderNotFound,
  renderPage,
  renderRobotsTxt,
  renderSearch,
  renderSitemap,
  siteCss,
  SITE_JS,
  type ListedPage,
  type NavLink,
  type NavNode,
  type SearchHit,
  type SiteFrame,
} from '@app/site-renderer';
import { FilesService, SearchService, type Revision, type Space } from '@app/spaces-and-content';
import { BoundedMap, Clock, InvalidInputError } from '@app/shared-kernel';
import { SiteLocation, VisibleRevision, VisitorCredentials, VisitorSite, VisitorSitesService } from '../application/visitor-sites.service';
import { RedirectsService } from '../application/redirects.service';
import { SiteStates } from '../application/site-states';
import { citedNumbers, SiteAnswerer } from '../application/site-answers';
import { applyOverride, type CustomizationSettings } from '../domain/customization';

/**
 * What a published site's pages may do: nothing inline (styles and the script come from the site's own
 * origin), images from anywhere over HTTPS, no plugins, no base tag, forms only to the site.
 */
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' https: data:; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

const SAFE_SCHEMES = /^(https?:|mailto:)/i;

/** A link of the customization (header, footer): a title and where it goes (only URLs are followed here). */
interface LinkSetting {
  title?: string;
  to?: { kind?: string; url?: string };
}

/** Links to URLs a visitor may follow (http, https, mailto); any other kind is left out. */
function urlLinks(links: LinkSetting[] | undefined): NavLink[] {
  return (links ?? []).flatMap((l) =>
    l.title && l.to?.kind === 'url' && l.to.url && SAFE_SCHEMES.test(l.to.url) ? [{ title: l.title, href: l.to.url }] : [],
  );
}

/** An image the page may load: an https URL (the Content-Security-Policy admits those and the site's own). */
const isImageUrl = (v: unknown): v is string => typeof v === 'string' && /^https:\/\//i.test(v) && v.length <= 2048;

/** ETags remembered by cache key: a warm page is not hashed again on every request. */
const ETAGS_MAX = 50_000;

/** Above this many listed pages, a space's sidebar shows the current branch and the top level only. */
const NAV_FULL_MAX = 300;

/** The files at a site's root for crawlers and agents (page slugs hold no dot: no page can shadow them). */
/** The code of at most this many listed pages per revision is tokenized ahead of visitors (`codeAhead`). */
const AHEAD_PAGES = 500;
/** How many of the best pages `~ask` gives the language model. */
const ASK_SOURCES = 5;

/** A search hit of a visitor's site, with its rank and where its page is. */
type RankedHit = SearchHit & {
  rank: number;
  source: { location: SiteLocation; revision: VisibleRevision; pageId: string; pageUrl: string };
};

const MACHINE_FILES = new Set(['robots.txt', 'sitemap.xml', 'llms.txt', 'llms-full.txt']);

/** The site's root URL: its base (its own hostname, or `/sites/{id}/` on Quire's origin), then its basename. */
function rootOf(view: VisitorSite): string {
  return view.site.basename ? `${view.base}${view.site.basename}/` : view.base;
}

/**
 * The published sites themselves, for visitors: `{PUBLIC_URL}/sites/{id}/…` (urls.published), outside
 * `/v1`, with no API token (one sent is ignored, and none is ever set). Server-rendered HTML that works
 * without JavaScript (site-renderer), `{page}.md` for machines, and the site's stylesheet and script.
 * Every site it cannot show to this visitor answers the same plain 404, so nothing reveals that a site
 * exists; a page it cannot find answers the site's own 404 page. Pages are cached per site version,
 * visitor segment, space revision and page, bounded by bytes; strong ETags answer 304.
 */
@ApiExcludeController()
@Public()
@Controller('sites')
export class VisitorSiteController {
  private readonly rendered: RenderedJson;
  private readonly highlighting: string;
  private readonly etags = new BoundedMap<string, string>(ETAGS_MAX);
  private readonly aheadOf = new BoundedMap<string, true>(10_000);

  constructor(
    private readonly sites: VisitorSitesService,
    private readonly files: FilesService,
    private readonly search: SearchService,
    private readonly clock: Clock,
    private readonly highlighter: CodeHighlighter,
    private readonly redirects: RedirectsService,
    private readonly door: FrontDoor,
    private readonly states: SiteStates,
    settings: ReadCacheSettings,
    @Optional() @Inject(SiteAnswerer) private readonly answerer: SiteAnswerer | null,
  ) {
    this.rendered = new RenderedJson(Math.floor(settings.maxBytes / 4), 'site-pages');
    this.highlighting = highlighter.css();
  }

  @Get(':siteId{/*path}')
  async serve(
    @Param('siteId') siteId: string,
    @Param('path') path: string[] | undefined,
    @Req() req: Request,
    @Res() res: Response,
    @RequestLinks() links: Links,
  ): Promise<void> {
    this.headers(res);
    const host = (req as { siteHost?: string }).siteHost;
    // On a custom hostname the site is the whole origin (TLS is the reverse proxy's: https).
    const base = host ? `https://${host}/` : `${links.origin}/sites/${siteId}/`;
    if (path?.[0] === '~preview') return this.startPreview(siteId, path.slice(1), base, req, res);
    const credentials = this.credentials(req, siteId);
    const view = await this.sites.open(siteId, credentials, base);
    // Even a site that cannot be shown (unpublished, or asking a visitor to sign in first) answers its
    // favicon.ico with Quire's icon rather than an error; it says nothing about the site.
    if ((!view || 'signIn' in view) && path?.length === 1 && path[0] === 'favicon.ico')
      return this.send(req, res, 'image/svg+xml', Buffer.from(defaultIconSvg(), 'utf8'));
    if (!view) return this.plainNotFound(res);
    if ('signIn' in view) {
      // The official visitor-authentication flow: the fallback URL signs the visitor in and sends them back
      // with a token; `location` says which page they asked for.
      const to = new URL(view.signIn);
      to.searchParams.set('location', req.originalUrl.split('?')[0]);
      res.setHeader('Cache-Control', 'no-store');
      return res.redirect(302, to.toString());
    }
    this.remember(res, req, view);
    if (view.noindex) res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader(
      'Cache-Control',
      view.preview ? 'private, no-store' : view.site.visibility === 'public' ? 'public, max-age=0, must-revalidate' : 'private, no-cache',
    );
    const segments = path ?? [];
    // The site's root is a directory: `/sites/{id}` becomes `/sites/{id}/`.
    if (segments.length === 0 && !req.path.endsWith('/')) return res.redirect(301, rootOf(view) + this.query(req));
    // The icon browsers ask for at the root of an origin (a custom hostname's): the site's favicon, else Quire's.
    if (segments.length === 1 && segments[0] === 'favicon.ico') return this.favicon(view, req, res);
    // Below the basename, if the site has one; the site's own files (`~…`) answer at the root too.
    let pagePath = segments;
    if (view.site.basename && segments[0] === view.site.basename) pagePath = segments.slice(1);
    else if (view.site.basename && !segments[0]?.startsWith('~')) return this.notFound(view, res, links);
    const [first, ...rest] = pagePath;
    if (first === '~site.css') {
      // `?s=` names a site space whose override restyles it.
      const customization = this.customizationOf(view, typeof req.query.s === 'string' ? req.query.s : undefined);
      const css = siteCss(this.primaryColor(customization), this.highlighting, this.font(customization));
      return this.send(req, res, 'text/css; charset=utf-8', Buffer.from(css, 'utf8'), { warm: view });
    }
    if (first === '~site.js') return this.send(req, res, 'text/javascript; charset=utf-8', Buffer.from(SITE_JS, 'utf8'), { warm: view });
    if (first === '~files' && rest.length === 2) return this.file(view, rest[0], rest[1], res, links);
    if (pagePath.length === 1 && MACHINE_FILES.has(pagePath[0])) return this.machineFile(pagePath[0], view, req, res);
    if (pagePath.length === 1 && pagePath[0] === '~search') return this.searchPage(view, req, res, links);
    if (pagePath.length === 1 && pagePath[0] === '~search.json') return this.searchJson(view, req, res);
    if (pagePath.length === 1 && pagePath[0] === '~ask') return this.ask(view, req, res);
    let joined = pagePath.join('/');
    const markdown = joined.endsWith('.md');
    if (markdown) joined = joined.slice(0, -3);
    const location = this.sites.locate(view, joined);
    const revision = location ? await this.sites.revision(view, location.space) : null;
    const page = location && revision ? this.sites.page(revision, location.rest) : null;
    if (!location || !revision || !page) {
      const elsewhere = await this.elsewhere(view, joined, markdown, location, revision);
      if (!elsewhere) return this.notFound(view, res, links);
      return res.redirect(elsewhere.status, elsewhere.target);
    }
    const specs = markdown
      ? ''
      : await this.sites.dependencies(view, location.space, revision, page.node.id, (d) => operationRefs(d).map((r) => r.spec));
    const key = `${view.key} ${location.space.id} ${revision.id}:${revision.visibility} ${page.node.id} ${markdown ? 'md' : 'html'} ${view.base} ${specs}`;
    let fresh = false;
    const body = await this.rendered.text(key, async () => {
      const document = await this.sites.document(location.space, revision, page.node.id);
      const href = this.hrefs(view, location, revision.tree);
      if (markdown) return `# ${page.node.title}\n\n${document ? documentToMarkdown(document, (ref) => href(ref) ?? '') : ''}`;
      if (document) await this.highlighter.prepare(codeSyntaxes(document));
      fresh = true;
      const coverSrc = page.node.cover ? href(page.node.cover.ref) : null;
      const operations = document ? await this.sites.operations(view, operationRefs(document)) : new Map<string, ApiOperation>();
      const reusable = document
        ? await this.sites.reusableDocuments(location.space, revision, includedContents(document), includedContents)
        : new Map<string, JsonDocument>();
      return renderPage(this.frame(view, location, revision, page.node.id, links), {
        title: page.node.title,
        description: page.node.description,
        url: `${rootOf(view)}${location.prefix}${page.path}`,
        ...this.around(view, location, revision.tree, page.node.id),
        document,
        links: { href },
        highlighter: this.highlighter,
        operations: (ref) => operations.get(`${ref.spec} ${ref.method} ${ref.path}`) ?? null,
        reusable: (id) => reusable.get(id) ?? null,
        variables: (expression) => variableOf(expression, revision.variables ?? {}, page.node.variables ?? {}),
        layout: page.node.layout,
        cover: coverSrc ? { src: coverSrc } : undefined,
      });
    });
    // A page that shows OpenAPI operations depends on specs that change apart from the site: never kept whole.
    this.send(req, res, markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8', body, {
      key,
      warm: specs ? undefined : view,
    });
    if (fresh) this.codeAhead(view).catch(() => undefined);
  }

  /**
   * After a render, the code of the site's other pages is tokenized in the background (once per space
   * revision and process, at most `AHEAD_PAGES` pages each): a visitor's first view of a code-heavy page
   * then finds its tokens remembered instead of compiling the grammar's rules (docs/published-sites.md).
   */
  private async codeAhead(view: VisitorSite): Promise<void> {
    for (const { space } of this.sites.siteSpaces(view)) {
      const revision = await this.sites.revision(view, space);
      const key = `${revision.id}:${revision.visibility}`;
      if (this.aheadOf.has(key)) continue;
      this.aheadOf.set(key, true);
      for (const { node } of this.sites.listed(revision).slice(0, AHEAD_PAGES)) {
        const document = await this.sites.document(space, revision, node.id);
        if (document) void this.highlighter.ahead(codeBlocks(document));
      }
    }
  }

  /**
   * Where a path that names no page goes instead: the site's live redirect for it (308 when permanent on a
   * public site, 307 when permanent elsewhere, else 302), else a redirect of the `.gitbook.yaml` the space was
   * imported with (301), else the page that was at that path in the space's recent history, now elsewhere
   * (301). Redirects never shadow a page that exists.
   */
  private async elsewhere(
    view: VisitorSite,
    joined: string,
    markdown: boolean,
    location: SiteLocation | null,
    revision: VisibleRevision | null,
  ): Promise<{ status: number; target: string } | null> {
    const found = this.sites.redirectFor(view, `/${joined}${markdown ? '.md' : ''}`);
    if (found) {
      const target = await this.redirects.target(view.site, found.redirect, found.rest, rootOf(view));
      if (target) {
        const status = !found.redirect.permanent ? 302 : view.site.visibility === 'public' && !view.preview ? 308 : 307;
        return { status, target };
      }
    }
    if (location && revision && location.rest) {
      const redirected = await this.sites.repositoryRedirect(location.space, revision, location.rest);
      if (redirected !== null) return { status: 301, target: `${rootOf(view)}${location.prefix}${redirected}${markdown ? '.md' : ''}` };
      const path = await this.sites.movedPage(location.space, revision, location.rest);
      if (path !== null) return { status: 301, target: `${rootOf(view)}${location.prefix}${path}${markdown ? '.md' : ''}` };
    }
    return null;
  }

  /**
   * robots.txt, sitemap.xml, llms.txt and llms-full.txt: the listed pages of every site space this visitor
   * may see (hidden pages and what their claims hide are left out, as from the navigation); cached like
   * pages, by the site's version, the visitor's segment and the revision of every space.
   */
  private async machineFile(name: string, view: VisitorSite, req: Request, res: Response): Promise<void> {
    const root = rootOf(view);
    if (name === 'robots.txt')
      return this.send(req, res, 'text/plain; charset=utf-8', Buffer.from(renderRobotsTxt(!view.noindex, `${root}sitemap.xml`), 'utf8'), {
        warm: view,
      });
    const shown = await Promise.all(
      this.sites.siteSpaces(view).map(async (s) => ({ ...s, revision: await this.sites.revision(view, s.space) })),
    );
    const key = `${view.key} ${shown.map((s) => `${s.revision.id}:${s.revision.visibility}`).join(',')} ${name} ${view.base}`;
    const body = await this.rendered.text(key, async () => {
      const groups = shown.map((s) => {
        const listed = this.sites.listed(s.revision);
        return {
          ...s,
          ids: listed.map(({ node }) => node.id),
          title: [s.section?.title, s.space.title].filter(Boolean).join(' › '),
          pages: listed.map(({ node, path }): ListedPage => ({
            title: node.title,
            description: node.description,
            url: `${root}${s.prefix}${path}`,
            lastModified: new Date(node.updatedAt ?? s.revision.createdAt),
          })),
        };
      });
      if (name === 'sitemap.xml') return renderSitemap(groups.flatMap((g) => g.pages));
      if (name === 'llms.txt') return renderLlmsTxt(view.site.title, groups);
      const full: { page: ListedPage; markdown: string }[] = [];
      for (const g of groups) {
        for (const [i, page] of g.pages.entries()) {
          const document = await this.sites.document(g.space, g.revision, g.ids[i]);
          const href = this.hrefs(
            view,
            { section: g.section, siteSpace: g.siteSpace, space: g.space, prefix: g.prefix, rest: '' },
            g.revision.tree,
          );
          full.push({ page, markdown: document ? documentToMarkdown(document, (ref) => href(ref) ?? '') : '' });
        }
      }
      return renderLlmsFullTxt(view.site.title, full);
    });
    const type = name === 'sitemap.xml' ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8';
    return this.send(req, res, type, body, { key, warm: view });
  }

  /**
   * The site's search (`~search?q=`): every site space this visitor sees, ranked by the full-text index of
   * its current revision; hidden pages are left out, as from the navigation. Not cached (queries vary).
   */
  private async searchPage(view: VisitorSite, req: Request, res: Response, links: Links): Promise<void> {
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    const location = this.sites.locate(view, '');
    const frame = location
      ? this.frameWithoutPage(view, location, links)
      : { ...this.baseFrame(view, links), sections: [], variants: [], nav: [] };
    res.setHeader('Cache-Control', 'private, no-cache');
    if (!query) return void res.type('text/html; charset=utf-8').send(renderSearch(frame, '', []));
    const found = await this.hits(view, query);
    // A query the index refuses (too long) is the visitor's mistake, said on the page.
    if ('problem' in found)
      return void res
        .status(400)
        .type('text/html; charset=utf-8')
        .send(renderSearch(frame, query, [], found.problem));
    res.type('text/html; charset=utf-8').send(renderSearch(frame, query, found.hits));
  }

  /**
   * `~search.json?q=`: the same hits for search as you type (the site's script), each excerpt already
   * sanitized to `<mark>` only; at most 8. An empty query has no hits; a refused one is a 400 in the error envelope.
   */
  private async searchJson(view: VisitorSite, req: Request, res: Response): Promise<void> {
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    res.setHeader('Cache-Control', 'private, no-cache');
    const found = query ? await this.hits(view, query) : { hits: [] };
    if ('problem' in found) return void res.status(400).json({ error: { code: 400, message: found.problem } });
    res.json({
      query,
      items: found.hits.slice(0, 8).map((h) => ({ ...h, excerpt: markedExcerpt(h.excerpt) })),
    });
  }

  /** The hits of every site space this visitor sees, ranked together; hidden pages left out, as from the navigation. */
  private async hits(view: VisitorSite, query: string): Promise<{ hits: SearchHit[] } | { problem: string }> {
    const found = await this.rankedHits(view, query);
    return 'problem' in found ? found : { hits: found.hits.map(({ rank: _rank, source: _source, ...hit }) => hit) };
  }

  /** The hits, best first, each with where its page is (to read it: `~ask`). */
  private async rankedHits(view: VisitorSite, query: string): Promise<{ hits: RankedHit[] } | { problem: string }> {
    const root = rootOf(view);
    const ranked: RankedHit[] = [];
    try {
      for (const s of this.sites.siteSpaces(view)) {
        const revision = await this.sites.revision(view, s.space);
        const listed = new Set(this.sites.listed(revision).map(({ node }) => node.id));
        const page = await this.search.searchSpace(s.space, query, { limit: 20 });
        for (const hit of page.items) {
          if (!listed.has(hit.pageId)) continue;
          const best = hit.sections[0];
          ranked.push({
            rank: Number(hit.rank),
            title: hit.pageTitle,
            section: best?.title || undefined,
            url: `${root}${s.prefix}${hit.pagePath}${best?.anchor ? `#${best.anchor}` : ''}`,
            where: [s.section?.title, s.space.title, ...hit.ancestors.map((a) => a.title)].filter(Boolean).join(' › '),
            excerpt: best?.excerpt ?? '',
            source: { location: { ...s, rest: '' }, revision, pageId: hit.pageId, pageUrl: `${root}${s.prefix}${hit.pagePath}` },
          });
        }
      }
    } catch (e) {
      if (!(e instanceof InvalidInputError)) throw e;
      return { problem: e.message };
    }
    ranked.sort((a, b) => b.rank - a.rank);
    return { hits: ranked.slice(0, 20) };
  }

  /**
   * `~ask?q=`: a question answered from this site's own pages, as this visitor sees them — the best pages the
   * full-text search finds (at most ASK_SOURCES, hidden pages left out) are the only sources the language model
   * gets, and the answer cites them by their site URLs. Without a model (QUIRE_LLM_URL) nothing is invented:
   * the answer is null, said so, with the pages that match.
   */
  private async ask(view: VisitorSite, req: Request, res: Response): Promise<void> {
    const question = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    res.setHeader('Cache-Control', 'private, no-store');
    if (!question) return void res.status(400).json({ error: { code: 400, message: 'q (the question) is required' } });
    if (question.length > 1000) return void res.status(400).json({ error: { code: 400, message: 'q must be at most 1000 characters' } });
    const found = await this.rankedHits(view, question);
    if ('problem' in found) return void res.status(400).json({ error: { code: 400, message: found.problem } });
    const pages: RankedHit[] = [];
    for (const h of found.hits) if (!pages.some((p) => p.source.pageUrl === h.source.pageUrl) && pages.length < ASK_SOURCES) pages.push(h);
    const sources = [];
    for (const p of pages) {
      const document = await this.sites.document(p.source.location.space, p.source.revision, p.source.pageId);
      const href = this.hrefs(view, p.source.location, p.source.revision.tree);
      sources.push({ title: p.title, url: p.source.pageUrl, text: document ? documentToMarkdown(document, (ref) => href(ref) ?? '') : '' });
    }
    const listed = sources.map(({ title, url }) => ({ title, url }));
    if (!this.answerer)
      return void res.json({
        question,
        answer: null,
        message: 'No language model is configured for this site: no answer, only the pages that match.',
        citations: [],
        sources: listed,
      });
    if (!sources.length)
      return void res.json({ question, answer: null, message: 'No page of this site matches the question.', citations: [], sources: [] });
    let answer: string;
    try {
      answer = await this.answerer.answer(question, sources);
    } catch {
      return void res.status(502).json({ error: { code: 502, message: 'The language model did not answer' } });
    }
    const citations = citedNumbers(answer, sources.length).map((n) => ({ number: n, ...listed[n - 1] }));
    res.json({ question, answer, citations, sources: listed });
  }

  /**
   * `urls.preview`: a valid preview token is kept in an HttpOnly cookie until it expires, and the member
   * goes on to the site's own URLs (which then show the site as it is now, published or not); an invalid
   * or expired one is the plain 404.
   */
  private async startPreview(siteId: string, segments: string[], base: string, req: Request, res: Response): Promise<void> {
    const [token, ...path] = segments;
    const expires = token ? this.sites.previewExpiry(siteId, token) : null;
    const site = expires ? await this.sites.siteOf(siteId) : null;
    if (!expires || !site) return this.plainNotFound(res);
    const options = {
      httpOnly: true,
      sameSite: 'lax' as const,
      path: new URL(base).pathname,
      secure: req.secure,
      expires: new Date(expires),
    };
    res.setHeader('Set-Cookie', cookie(`quire_preview_${siteId}`, token, options));
    res.setHeader('Cache-Control', 'no-store');
    const root = `${base}${site.basename ? `${site.basename}/` : ''}`;
    // What follows the token is a path below the site's root (`…/~preview/{token}/guide/setup`).
    res.redirect(302, `${root}${path.map(encodeURIComponent).join('/')}`);
  }

  private headers(res: Response): void {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  }

  private query(req: Request): string {
    const at = req.originalUrl.indexOf('?');
    return at === -1 ? '' : req.originalUrl.slice(at);
  }

  /** The share key and visitor token, from the URL (official `shareKey`, `jwt_token`) or the site's cookies; unsigned claims. */
  private credentials(req: Request, siteId: string): VisitorCredentials {
    const cookies = parseCookies(req.headers.cookie ?? '');
    const param = (name: string) => (typeof req.query[name] === 'string' ? req.query[name] : undefined);
    // Unsigned claims, GitBook's way: the `gitbook-visitor-public` cookie (a JSON object), and `visitor.x=v`
    // query parameters on top (each a string, `true`/`false` as booleans).
    let claims: Record<string, unknown> | undefined;
    const cookieClaims = cookies['gitbook-visitor-public'];
    if (cookieClaims !== undefined) {
      try {
        const parsed: unknown = JSON.parse(cookieClaims);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) claims = parsed as Record<string, unknown>;
      } catch {
        claims = undefined; // a broken cookie is no claims, not an error page
      }
    }
    for (const [name, value] of Object.entries(req.query)) {
      const key = name.startsWith('visitor.') ? name.slice('visitor.'.length) : '';
      if (!key || typeof value !== 'string' || key.includes('.') || ['__proto__', 'constructor', 'prototype'].includes(key)) continue;
      claims = { ...claims, [key]: value === 'true' ? true : value === 'false' ? false : value };
    }
    return {
      shareKey: param('shareKey') ?? param('share') ?? cookies[`quire_share_${siteId}`],
      token: param('jwt_token') ?? cookies[`quire_visitor_${siteId}`],
      preview: cookies[`quire_preview_${siteId}`],
      claims,
    };
  }

  /** A key or token given in the URL (and accepted) is kept in an HttpOnly cookie: the next pages need no key in their URL. */
  private remember(res: Response, req: Request, view: VisitorSite): void {
    const siteId = view.site.id;
    const options = { httpOnly: true, sameSite: 'lax' as const, path: new URL(view.base).pathname, secure: req.secure };
    const set: string[] = [];
    const share =
      typeof req.query.shareKey === 'string' ? req.query.shareKey : typeof req.query.share === 'string' ? req.query.share : undefined;
    if (share) set.push(cookie(`quire_share_${siteId}`, share, options));
    if (typeof req.query.jwt_token === 'string') set.push(cookie(`quire_visitor_${siteId}`, req.query.jwt_token, options));
    if (set.length) res.setHeader('Set-Cookie', set);
  }

  /**
   * A body with its strong ETag (304 when the visitor has it); a cached body's tag is remembered by its cache
   * key. `warm`: the answer depends on nothing but the request and the site's state, so the front door keeps
   * it for the next identical request while the site's state is the one it was built under (SiteStates.stamp:
   * any change to the site, in any process, replaces it) — unless the visitor came in by a preview or a visitor
   * token (both end with time, apart from the site). docs/published-sites.md, "Warm pages".
   */
  private send(req: Request, res: Response, type: string, body: Buffer, options: { key?: string; warm?: VisitorSite } = {}): void {
    const { key, warm } = options;
    let etag = key === undefined ? undefined : this.etags.get(key);
    if (etag === undefined) {
      etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      if (key !== undefined) {
        this.etags.set(key, etag);
      }
    }
    res.setHeader('ETag', etag);
    res.setHeader('Content-Type', type);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.status(200).send(body);
    if (warm && !warm.preview && warm.site.visibility !== 'visitor-auth') {
      const { id } = warm.site;
      const { stamp } = warm;
      this.door.keep(req, res, body, etag, () => this.states.stamp(id) === stamp);
    }
  }

  private plainNotFound(res: Response): void {
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(404)
      .type('text/html; charset=utf-8')
      .send('<!doctype html><html lang="en"><title>Not found</title><h1>Not found</h1></html>');
  }

  private notFound(view: VisitorSite, res: Response, links: Links): void {
    const location = this.sites.locate(view, '');
    const frame: SiteFrame = location
      ? this.frameWithoutPage(view, location, links)
      : { ...this.baseFrame(view, links), sections: [], variants: [], nav: [] };
    res.status(404).type('text/html; charset=utf-8').send(renderNotFound(frame));
  }

  /** A file of a space the site shows, at that space's current revision: a short-lived signed download. */
  private async file(view: VisitorSite, spaceId: string, fileId: string, res: Response, links: Links): Promise<void> {
    const space = this.sites.prefixes(view).has(spaceId) ? view.spaces.get(spaceId) : undefined;
    if (!space) return this.notFound(view, res, links);
    const revision = await this.sites.revision(view, space);
    const file = revision.files.find((f) => f.id === fileId);
    if (!file) return this.notFound(view, res, links);
    res.setHeader('Cache-Control', 'private, no-store');
    res.redirect(302, links.api(this.files.downloadPath(space.organizationId, file, this.clock.now().getTime())));
  }

  /** The customization a site space shows: the site's, with the site space's override over it. */
  private customizationOf(view: VisitorSite, siteSpaceId: string | undefined): CustomizationSettings {
    const override = siteSpaceId !== undefined && Object.hasOwn(view.overrides, siteSpaceId) ? view.overrides[siteSpaceId] : undefined;
    return override ? applyOverride(view.customization, override) : view.customization;
  }

  private font(customization: CustomizationSettings): string | undefined {
    const font = (customization.styling as { font?: unknown } | undefined)?.font;
    return typeof font === 'string' ? font : undefined;
  }

  /**
   * `favicon.ico` at the site's root: its favicon image (a redirect to the light one), its emoji drawn as an
   * SVG, or Quire's default icon in the site's primary colour; pages declare the same icon in their head.
   */
  private favicon(view: VisitorSite, req: Request, res: Response): void {
    const customization = this.customizationOf(view, undefined);
    const icon = this.siteFavicon(customization);
    if (icon && 'light' in icon) return res.redirect(302, icon.light);
    const svg = icon && 'emoji' in icon ? emojiIconSvg(icon.emoji) : defaultIconSvg(this.primaryColor(customization));
    return this.send(req, res, 'image/svg+xml', Buffer.from(svg, 'utf8'), { warm: view });
  }

  /** The favicon the site's customization sets (an https image per theme, or an emoji), if any. */
  private siteFavicon(customization: CustomizationSettings): { light: string; dark: string } | { emoji: string } | undefined {
    const favicon = customization.favicon as { icon?: { light?: unknown; dark?: unknown }; emoji?: unknown } | undefined;
    const icon = favicon?.icon;
    if (icon && isImageUrl(icon.light) && isImageUrl(icon.dark)) return { light: icon.light, dark: icon.dark };
    return typeof favicon?.emoji === 'string' && favicon.emoji.length <= 16 ? { emoji: favicon.emoji } : undefined;
  }

  private primaryColor(customization: CustomizationSettings): string | undefined {
    const styling = customization.styling as { primaryColor?: { light?: string } } | undefined;
    return styling?.primaryColor?.light;
  }

  /** Where a reference in a page of `location` goes on this site; null when it leads nowhere a visitor may go. */
  private hrefs(view: VisitorSite, location: SiteLocation, tree: PageTree): (ref: ContentRef) => string | null {
    const base = `${rootOf(view)}${location.prefix}`;
    return (ref) => {
      switch (ref.kind) {
        case 'url':
          return SAFE_SCHEMES.test(ref.url) ? ref.url : null;
        case 'anchor':
          return `#${ref.anchor}`;
        case 'page': {
          const path = pathOf(tree, ref.page);
          return path === null ? null : `${base}${path}${ref.anchor ? `#${ref.anchor}` : ''}`;
        }
        case 'file':
          return `${view.base}~files/${location.space.id}/${ref.file}`;
        default:
          return null;
      }
    };
  }

  private baseFrame(view: VisitorSite, links: Links, siteSpaceId?: string): Omit<SiteFrame, 'sections' | 'variants' | 'nav'> {
    const root = rootOf(view);
    const customization = this.customizationOf(view, siteSpaceId);
    const themes = customization.themes as { default?: string } | undefined;
    const header = customization.header as { links?: LinkSetting[]; logo?: { light?: unknown; dark?: unknown } } | undefined;
    const footer = customization.footer as { groups?: { title?: string; links?: LinkSetting[] }[]; copyright?: string } | undefined;
    const styling = customization.styling as { corners?: unknown } | undefined;
    const themed = (v: { light?: unknown; dark?: unknown } | undefined) =>
      v && isImageUrl(v.light) && isImageUrl(v.dark) ? { light: v.light, dark: v.dark } : undefined;
    const restyled = siteSpaceId !== undefined && Object.hasOwn(view.overrides, siteSpaceId) && view.overrides[siteSpaceId].styling;
    const css = `${view.base}~site.css${restyled ? `?s=${encodeURIComponent(siteSpaceId)}` : ''}`;
    return {
      title: view.site.title,
      home: root,
      assets: { css, js: `${view.base}~site.js` },
      theme: themes?.default === 'light' || themes?.default === 'dark' ? themes.default : 'auto',
      noindex: view.noindex,
      headerLinks: urlLinks(header?.links),
      logo: themed(header?.logo),
      favicon: this.siteFavicon(customization) ?? { svg: `${view.base}favicon.ico` },
      corners: styling?.corners === 'straight' || styling?.corners === 'circular' ? styling.corners : 'rounded',
      footer: {
        groups: (footer?.groups ?? []).flatMap((g) => (g.title ? [{ title: g.title, links: urlLinks(g.links) }] : [])),
        copyright: typeof footer?.copyright === 'string' && footer.copyright ? footer.copyright : undefined,
      },
    };
  }

  private frameWithoutPage(view: VisitorSite, location: SiteLocation, links: Links): SiteFrame {
    return { ...this.baseFrame(view, links, location.siteSpace.id), ...this.navigation(view, location), nav: [] };
  }

  /**
   * The page's frame with its sidebar. A space of more than NAV_FULL_MAX listed pages gets a sidebar that
   * does not make every page heavy: the top level, the current page's ancestors with their siblings, and
   * the current page's sub-pages; a page whose sub-pages are left out is marked, its link leads to them.
   */
  private frame(view: VisitorSite, location: SiteLocation, revision: Revision, pageId: string, links: Links): SiteFrame {
    const base = `${rootOf(view)}${location.prefix}`;
    const large = this.sites.listed(revision).length > NAV_FULL_MAX;
    const onPath = new Set<string>();
    if (large) {
      const find = (nodes: PageTree): boolean => nodes.some((n) => (n.id === pageId || find(n.pages) ? (onPath.add(n.id), true) : false));
      find(revision.tree);
    }
    const nav = (nodes: PageTree, prefix: string): NavNode[] =>
      nodes
        .filter((n) => !n.hidden)
        .map((n) => {
          const path = prefix ? `${prefix}/${n.slug}` : n.slug;
          const shown = !large || n.type !== 'document' || onPath.has(n.id);
          const children = shown ? nav(n.pages, path) : [];
          const current = n.id === pageId;
          return {
            title: n.title,
            href: n.type === 'document' ? `${base}${path}` : null,
            current,
            open: current || children.some((c) => c.current || c.open),
            children,
            more: !shown && n.pages.some((c) => !c.hidden),
          };
        });
    return {
      ...this.baseFrame(view, links, location.siteSpace.id),
      ...this.navigation(view, location),
      nav: nav(revision.tree, ''),
    };
  }

  /** Section tabs and the variant switcher (the site spaces of the current section). */
  private navigation(view: VisitorSite, location: SiteLocation): { sections: NavLink[]; variants: NavLink[] } {
    const root = rootOf(view);
    const sections: NavLink[] = [];
    const walk = (items: VisitorSite['structure']['items']) => {
      for (const item of items) {
        if (item.kind === 'group') walk(item.children);
        else
          sections.push({
            title: item.title,
            href: `${root}${item.default ? '' : `${item.path}/`}`,
            current: item.id === location.section?.id,
          });
      }
    };
    walk(view.structure.items);
    const sectionBase = location.section && !location.section.default ? `${location.section.path}/` : '';
    const siteSpaces = location.section ? location.section.siteSpaces : view.structure.siteSpaces;
    const shown = siteSpaces.filter((s) => view.spaces.has(s.spaceId));
    const variants =
      shown.length > 1
        ? shown.map((s) => ({
            // A site space's override may give its variant a title of its own.
            title: this.variantTitle(view, s.id) ?? (view.spaces.get(s.spaceId) as Space).title,
            href: `${root}${sectionBase}${s.default ? '' : `${s.path}/`}`,
            current: s.id === location.siteSpace.id,
          }))
        : [];
    return { sections: sections.length > 1 ? sections : [], variants };
  }

  private variantTitle(view: VisitorSite, siteSpaceId: string): string | null {
    const title = Object.hasOwn(view.overrides, siteSpaceId) ? view.overrides[siteSpaceId].title : undefined;
    return typeof title === 'string' && title ? title : null;
  }

  /** Breadcrumbs (the page's ancestors that are pages) and the previous and next pages in reading order. */
  private around(
    view: VisitorSite,
    location: SiteLocation,
    tree: PageTree,
    pageId: string,
  ): { breadcrumbs: NavLink[]; previous?: NavLink; next?: NavLink } {
    const base = `${rootOf(view)}${location.prefix}`;
    const order: NavLink[] = [];
    let trail: NavLink[] = [];
    const walk = (nodes: PageTree, prefix: string, ancestors: NavLink[]) => {
      for (const n of nodes) {
        if (n.hidden && n.id !== pageId) continue;
        const path = prefix ? `${prefix}/${n.slug}` : n.slug;
        const link = { title: n.title, href: `${base}${path}` };
        if (n.id === pageId) trail = ancestors;
        if (n.type === 'document') order.push({ ...link, current: n.id === pageId });
        walk(n.pages, path, n.type === 'document' ? [...ancestors, link] : ancestors);
      }
    };
    walk(tree, '', []);
    const at = order.findIndex((l) => l.current);
    const plain = (l: NavLink | undefined) => (l ? { title: l.title, href: l.href } : undefined);
    return { breadcrumbs: trail, previous: at > 0 ? plain(order[at - 1]) : undefined, next: at >= 0 ? plain(order[at + 1]) : undefined };
  }
}

/** An expression's value when it names a variable (`space.vars.version`, `page.vars.name`); null otherwise. */
function variableOf(expression: string, space: Record<string, string>, page: Record<string, string>): string | null {
  const m = /^\s*(space|page)\.vars\.([A-Za-z_$][\w$]*)\s*$/.exec(expression);
  if (!m) return null;
  const values = m[1] === 'space' ? space : page;
  return Object.hasOwn(values, m[2]) ? values[m[2]] : null;
}
