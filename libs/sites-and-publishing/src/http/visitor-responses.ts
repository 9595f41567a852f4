import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { FrontDoor, Links, ReadCacheSettings, RenderedJson } from '@app/http-kit';
import { renderNotFound } from '@app/site-renderer';
import { BoundedMap } from '@app/shared-kernel';
import { SiteStates } from '../application/site-states';
import type { VisitorSite } from '../application/visitor-sites.service';
import { SitePageRenderer } from './site-page.renderer';

/**
 * What a published site's pages may do: nothing inline (styles and the script come from the site's own
 * origin), images from anywhere over HTTPS, fonts from the API's files (custom fonts), requests only to the site and the API, no plugins, no base tag,
 * forms only to the site.
 */
const csp = (api: string) =>
  `default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' https: data:; font-src ${api}; connect-src 'self' ${api}; ` +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/** ETags remembered by cache key: a warm page is not hashed again on every request. */
const ETAGS_MAX = 50_000;

/**
 * How every visitor route answers: the site's security headers, rendered bodies cached by the key of what they
 * depend on (a quarter of QUIRE_READ_CACHE_MB), strong ETags (304), whole answers kept by the front door, and
 * the two 404s (the plain one that says nothing of a site, and the site's own page).
 */
@Injectable()
export class VisitorResponses {
  private readonly rendered: RenderedJson;
  private readonly etags = new BoundedMap<string, string>(ETAGS_MAX);

  constructor(
    private readonly door: FrontDoor,
    private readonly states: SiteStates,
    private readonly renderer: SitePageRenderer,
    settings: ReadCacheSettings,
  ) {
    this.rendered = new RenderedJson(Math.floor(settings.maxBytes / 4), 'site-pages');
  }

  /** A rendered body by its key: built once, then kept (bounded by bytes). */
  cached(key: string, build: () => Promise<string>): Promise<Buffer> {
    return this.rendered.text(key, build);
  }

  /** The site's headers; its script may reach the API's origin (`apiOrigin`), where it sends insights events (docs/insights.md). */
  secure(res: Response, apiOrigin: string): void {
    res.setHeader('Content-Security-Policy', csp(apiOrigin));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  }

  /**
   * A body with its strong ETag (304 when the visitor has it); a cached body's tag is remembered by its cache
   * key. `warm`: the answer depends on nothing but the request and the site's state, so the front door keeps
   * it for the next identical request while the site's state is the one it was built under (SiteStates.stamp:
   * any change to the site, in any process, replaces it) — unless the visitor came in by a preview or a visitor
   * token (both end with time, apart from the site). docs/published-sites.md, "Warm pages".
   */
  send(req: Request, res: Response, type: string, body: Buffer, options: { key?: string; warm?: VisitorSite } = {}): void {
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

  plainNotFound(res: Response): void {
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(404)
      .type('text/html; charset=utf-8')
      .send('<!doctype html><html lang="en"><title>Not found</title><h1>Not found</h1></html>');
  }

  /** The site's own 404 page. */
  notFound(view: VisitorSite, res: Response, links: Links): void {
    res
      .status(404)
      .type('text/html; charset=utf-8')
      .send(renderNotFound(this.renderer.emptyFrame(view, links)));
  }
}
