import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '@app/shared-kernel';
import { PageAssembler } from './page-assembler';
import { SiteHostnames } from './site-hostnames';
import { VisitorApiTokens } from './visitor-api-tokens';
import { VisitorSitesService, type VisitorCredentials } from './visitor-sites.service';
import { pathInSite, publishedRoot, servedBase, siteRoot, type SiteAddress } from '../domain/site-urls';

/** What a visitor of the URL presents beyond the URL itself (which may carry `shareKey` and `jwt_token`). */
export interface UrlVisitor {
  /** A visitor token (a JWT signed with the site's key). */
  token?: string;
  /** Unsigned claims (checked against the site's adaptive schema; what it refuses counts as no claims). */
  claims?: Record<string, unknown>;
}

/** The official PublishedSiteContent: where a URL of a published site leads, and a token to read it as its visitor. */
export interface PublishedContent {
  organization: string;
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  apiToken: string;
  shareKey?: string;
  complete: boolean;
  contextId?: string;
  canonicalUrl: string;
  preview?: boolean;
}

/** The official PublishedContentRedirect. */
export type PublishedRedirect = { target: 'content'; redirect: string } | { target: 'external'; site: string; redirect: string };

export type PublishedLookup = PublishedContent | PublishedRedirect;

/** The longest URL resolved. */
export const PUBLISHED_URL_MAX = 2048;

/**
 * The official resolvePublishedContentByUrl (and its deprecated GET): a URL of a published site, at Quire's own
 * origin (`/sites/{id}/…`, a preview link's `~preview/{token}/…` included) or at a site's custom hostname, read
 * as its visitor reads it. The site's gate decides as it decides for a browser (published, share key, visitor
 * token, claims), then its pages: the page the URL names, or where its redirects send it, or a 404 as the site
 * would answer. The answer names the organization, site, section, site space, space and page path, and carries
 * an `apiToken` that reads that content as this visitor (VisitorApiTokens, VisitorReaders).
 */
@Injectable()
export class PublishedUrls {
  constructor(
    private readonly sites: VisitorSitesService,
    private readonly hostnames: SiteHostnames,
    private readonly assembler: PageAssembler,
    private readonly tokens: VisitorApiTokens,
  ) {}

  async resolve(target: string, visitor: UrlVisitor, redirectOnError: boolean, origin: string): Promise<PublishedLookup> {
    if (target.length > PUBLISHED_URL_MAX) throw new InvalidInputError(`url must be at most ${PUBLISHED_URL_MAX} characters`);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new InvalidInputError('url must be an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidInputError('url must be an http(s) URL');
    const none = new NotFoundError('Content at URL', target);
    try {
      new URL(origin); // the request's own origin (a Host header) when PUBLIC_URL is not set: it may be anything
    } catch {
      throw none;
    }
    const found = await this.siteOf(url, origin);
    if (!found) throw none;
    const { site, hostname } = found;
    const base = servedBase(site.id, origin, hostname ?? undefined);
    // A preview link (`{base}~preview/{token}/…`) opens the site as it is now; what follows is below its root.
    let preview: string | undefined;
    let inSite: string | null;
    const served = new URL(base).pathname;
    const below = url.pathname.startsWith(served) ? url.pathname.slice(served.length) : '';
    const previewMatch = /^~preview\/([^/]+)(?:\/(.*))?$/.exec(below);
    if (previewMatch) {
      // A forged or expired preview token is the plain 404, as on the site itself.
      if (this.sites.previewExpiry(site.id, previewMatch[1]) === null) throw none;
      preview = previewMatch[1];
      inSite = previewMatch[2] ?? '';
    } else inSite = pathInSite(target, site, origin);
    if (inSite === null) throw none;
    let path: string;
    try {
      path = inSite.split('/').map(decodeURIComponent).join('/');
    } catch {
      throw none;
    }
    const query = (name: string) => url.searchParams.get(name) ?? undefined;
    const credentials: VisitorCredentials = {
      shareKey: query('shareKey') ?? query('share'),
      token: visitor.token ?? query('jwt_token'),
      ...(preview !== undefined ? { preview } : {}),
      ...(visitor.claims !== undefined ? { claims: visitor.claims } : {}),
    };
    const view = await this.sites.open(site.id, credentials, base);
    if (!view) throw none;
    if ('signIn' in view) {
      if (!redirectOnError) throw none;
      const signIn = new URL(view.signIn);
      signIn.searchParams.set('location', url.pathname);
      return { target: 'external', site: site.id, redirect: signIn.toString() };
    }
    const root = siteRoot(base, site.basename);
    // The site's root as the URL writes it: a preview link's is below its token.
    const urlRoot = preview !== undefined ? `${base}~preview/${preview}/` : root;
    const page = await this.assembler.find(view, path.replace(/\/+$/, ''));
    if (page.kind === 'not-found') throw none;
    if (page.kind === 'redirect') {
      const to = new URL(page.target, root).toString();
      return to.startsWith(root) ? { target: 'content', redirect: to } : { target: 'external', site: site.id, redirect: to };
    }
    const { location, page: shown } = page.page;
    const siteBasePath = new URL(urlRoot).pathname;
    const pathname = location.rest ? shown.path : '';
    return {
      organization: site.organizationId,
      site: site.id,
      ...(location.section ? { siteSection: location.section.id } : {}),
      siteSpace: location.siteSpace.id,
      space: location.space.id,
      pathname,
      basePath: `${siteBasePath}${location.prefix}`,
      siteBasePath,
      // Sealed with only the unsigned claims the site's schema took (what else was given counts for nothing).
      apiToken: this.tokens.issue(site.id, { ...credentials, claims: unsignedOf(view.claims) }),
      ...(view.site.visibility === 'share-link' && credentials.shareKey ? { shareKey: credentials.shareKey } : {}),
      complete: true,
      // The site's version and the visitor's claims, which decide what they are shown: equal ids, equal content.
      ...(view.site.visibility === 'visitor-auth' || Object.keys(view.claims).length > 0
        ? {
            contextId: createHash('sha256')
              .update(`${view.key}\n${canonicalJson(view.claims)}`)
              .digest('base64url')
              .slice(0, 22),
          }
        : {}),
      canonicalUrl: `${publishedRoot(site, origin)}${location.prefix}${pathname}`,
      ...(view.preview ? { preview: true } : {}),
    };
  }

  /** The site a URL is of: `{origin}/sites/{id}/…` on Quire's own origin, else the site at the URL's hostname. */
  private async siteOf(
    url: URL,
    origin: string,
  ): Promise<{ site: SiteAddress & { organizationId: string }; hostname: string | null } | null> {
    const own = new URL(origin);
    const ownPath = own.pathname.replace(/\/+$/, '');
    if (url.origin === own.origin) {
      const m = new RegExp(`^${escape(ownPath)}/sites/([^/]+)(?:/|$)`).exec(url.pathname);
      const site = m ? await this.sites.siteOf(m[1]) : null;
      return site ? { site, hostname: null } : null;
    }
    // A site's hostname is served on the default port (TLS ends at the reverse proxy), as pathInSite reads it.
    if (url.port) return null;
    const siteId = await this.hostnames.siteFor(url.hostname.toLowerCase());
    const site = siteId ? await this.sites.siteOf(siteId) : null;
    return site ? { site, hostname: url.hostname.toLowerCase() } : null;
  }
}

/** The unsigned claims among a visitor's checked claims (`unsigned`), or undefined when there are none. */
function unsignedOf(claims: Record<string, unknown>): Record<string, unknown> | undefined {
  const unsigned = claims.unsigned;
  return unsigned && typeof unsigned === 'object' && !Array.isArray(unsigned) ? (unsigned as Record<string, unknown>) : undefined;
}

/** JSON with every object's keys in order: equal claims, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
