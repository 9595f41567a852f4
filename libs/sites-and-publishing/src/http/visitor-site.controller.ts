import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { parse as parseCookies, serialize as cookie } from 'cookie';
import type { Request, Response } from 'express';
import { Links, Public, RequestLinks } from '@app/http-kit';
import { defaultIconSvg, emojiIconSvg, SITE_JS } from '@app/site-renderer';
import { FilesService } from '@app/spaces-and-content';
import { Clock } from '@app/shared-kernel';
import { VisitorCredentials, VisitorSite, VisitorSitesService } from '../application/visitor-sites.service';
import { servedBase, siteRoot } from '../domain/site-urls';
import { MACHINE_FILES, SiteMachineFiles } from './site-machine-files';
import { rootOf, SitePageRenderer } from './site-page.renderer';
import { SiteFeedback } from './site-feedback';
import { SitePages } from './site-pages';
import { SiteSearch } from './site-search';
import { VisitorResponses } from './visitor-responses';

/**
 * The published sites themselves, for visitors: `{PUBLIC_URL}/sites/{id}/…` (urls.published), outside
 * `/v1`, with no API token (one sent is ignored, and none is ever set). One route, since every path is read
 * below the site's root (and its basename): this controller lets the visitor in (VisitorGate, through
 * VisitorSitesService.open), keeps their key or token in a cookie, answers the site's own files (stylesheet,
 * script, favicon, files of its spaces) and hands the rest to its group: the pages (SitePages: the assembler
 * and the renderer), the machine files (SiteMachineFiles) and search and answers (SiteSearch). Every site it
 * cannot show to this visitor answers the same plain 404, so nothing reveals that a site exists; a page it
 * cannot find answers the site's own 404 page.
 */
@ApiExcludeController()
@Public()
@Controller('sites')
export class VisitorSiteController {
  constructor(
    private readonly sites: VisitorSitesService,
    private readonly pages: SitePages,
    private readonly machineFiles: SiteMachineFiles,
    private readonly search: SiteSearch,
    private readonly renderer: SitePageRenderer,
    private readonly responses: VisitorResponses,
    private readonly files: FilesService,
    private readonly clock: Clock,
    private readonly feedback: SiteFeedback,
  ) {}

  /** What a visitor posts: only feedback on a page (`~feedback`, SiteFeedback), past the same gate as every page. */
  @Post(':siteId{/*path}')
  async post(
    @Param('siteId') siteId: string,
    @Param('path') path: string[] | undefined,
    @Req() req: Request,
    @Res() res: Response,
    @RequestLinks() links: Links,
  ): Promise<void> {
    this.responses.secure(res, links.origin);
    const base = servedBase(siteId, links.origin, (req as { siteHost?: string }).siteHost);
    const view = await this.sites.open(siteId, this.credentials(req, siteId), base);
    if (!view || 'signIn' in view) return this.responses.plainNotFound(res);
    let segments = path ?? [];
    if (view.site.basename && segments[0] === view.site.basename) segments = segments.slice(1);
    if (segments.length === 1 && segments[0] === '~feedback') return this.feedback.post(view, req, res, links);
    return this.responses.plainNotFound(res);
  }

  @Get(':siteId{/*path}')
  async serve(
    @Param('siteId') siteId: string,
    @Param('path') path: string[] | undefined,
    @Req() req: Request,
    @Res() res: Response,
    @RequestLinks() links: Links,
  ): Promise<void> {
    this.responses.secure(res, links.origin);
    const host = (req as { siteHost?: string }).siteHost;
    // On a custom hostname the site is the whole origin (TLS is the reverse proxy's: https).
    const base = servedBase(siteId, links.origin, host);
    if (path?.[0] === '~preview') return this.startPreview(siteId, path.slice(1), base, req, res);
    const credentials = this.credentials(req, siteId);
    const view = await this.sites.open(siteId, credentials, base);
    // Even a site that cannot be shown (unpublished, or asking a visitor to sign in first) answers its
    // favicon.ico with Quire's icon rather than an error; it says nothing about the site.
    if ((!view || 'signIn' in view) && path?.length === 1 && path[0] === 'favicon.ico')
      return this.responses.send(req, res, 'image/svg+xml', Buffer.from(defaultIconSvg(), 'utf8'));
    if (!view) return this.responses.plainNotFound(res);
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
    else if (view.site.basename && !segments[0]?.startsWith('~')) return this.responses.notFound(view, res, links);
    const [first, ...rest] = pagePath;
    if (first === '~site.css') {
      // `?s=` names a site space whose override restyles it.
      const css = this.renderer.css(view, typeof req.query.s === 'string' ? req.query.s : undefined, links);
      return this.responses.send(req, res, 'text/css; charset=utf-8', Buffer.from(css, 'utf8'), { warm: view });
    }
    if (first === '~site.js')
      return this.responses.send(req, res, 'text/javascript; charset=utf-8', Buffer.from(SITE_JS, 'utf8'), { warm: view });
    if (first === '~files' && rest.length === 2) return this.file(view, rest[0], rest[1], res, links);
    if (pagePath.length === 1 && MACHINE_FILES.has(pagePath[0])) return this.machineFiles.serve(pagePath[0], view, req, res);
    if (pagePath.length === 1 && pagePath[0] === '~search') return this.search.searchPage(view, req, res, links);
    if (pagePath.length === 1 && pagePath[0] === '~search.json') return this.search.searchJson(view, req, res);
    if (pagePath.length === 1 && pagePath[0] === '~ask') return this.search.ask(view, req, res);
    return this.pages.serve(view, pagePath.join('/'), req, res, links);
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
    if (!expires || !site) return this.responses.plainNotFound(res);
    const options = {
      httpOnly: true,
      sameSite: 'lax' as const,
      path: new URL(base).pathname,
      secure: req.secure,
      expires: new Date(expires),
    };
    res.setHeader('Set-Cookie', cookie(`quire_preview_${siteId}`, token, options));
    res.setHeader('Cache-Control', 'no-store');
    const root = siteRoot(base, site.basename);
    // What follows the token is a path below the site's root (`…/~preview/{token}/guide/setup`).
    // The query goes on (a preview link's `visitor.…` claims).
    res.redirect(302, `${root}${path.map(encodeURIComponent).join('/')}${this.query(req)}`);
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

  /** A file of a space the site shows, at that space's current revision: a short-lived signed download. */
  private async file(view: VisitorSite, spaceId: string, fileId: string, res: Response, links: Links): Promise<void> {
    const space = this.sites.prefixes(view).has(spaceId) ? view.spaces.get(spaceId) : undefined;
    if (!space) return this.responses.notFound(view, res, links);
    const revision = await this.sites.revision(view, space);
    const file = revision.files.find((f) => f.id === fileId);
    if (!file) return this.responses.notFound(view, res, links);
    res.setHeader('Cache-Control', 'private, no-store');
    res.redirect(302, links.api(this.files.downloadPath(space.organizationId, file, this.clock.now().getTime())));
  }

  /**
   * `favicon.ico` at the site's root: its favicon image (a redirect to the light one), its emoji drawn as an
   * SVG, or Quire's default icon in the site's primary colour; pages declare the same icon in their head.
   */
  private favicon(view: VisitorSite, req: Request, res: Response): void {
    const customization = this.renderer.customizationOf(view, undefined);
    const icon = this.renderer.siteFavicon(customization);
    if (icon && 'light' in icon) return res.redirect(302, icon.light);
    const svg = icon && 'emoji' in icon ? emojiIconSvg(icon.emoji) : defaultIconSvg(this.renderer.primaryColor(customization));
    return this.responses.send(req, res, 'image/svg+xml', Buffer.from(svg, 'utf8'), { warm: view });
  }
}
