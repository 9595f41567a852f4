import { InvalidInputError, type Page, type PageRequest } from '@app/shared-kernel';
import { sections, siteSpaces, type SectionNode, type SiteSpaceNode, type Structure } from './site';

/**
 * Site redirects (the official `SiteRedirect`): a source path below the site's root, live or draft,
 * to a section, a site space, a page of a site space, or an external URL. A source ending in `*` (or
 * `/*`) matches every path it prefixes; `captureWildcard` appends what the star matched to the target.
 */
export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

/** What a request may give: a destination, or a page by its path in a space the site shows. */
export type RedirectDestinationInput = RedirectDestination | { kind: 'path'; spaceId: string; path: string };

export interface SiteRedirect {
  id: string;
  organizationId: string;
  siteId: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: Date;
  updatedAt: Date | null;
}

/** The official `SiteRedirectSourcePath`: a path, its segments URL-safe, an optional trailing `*` or `/*` only. */
export const SOURCE_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const SOURCE_MAX = 512;
export const URL_MAX = 2048;
/** Items of one bulk request (official maxItems). */
export const BULK_MAX = 500;
/** Redirects per site (a site's model holds its live ones in memory). */
export const REDIRECTS_MAX = 10_000;
export const REDIRECT_ORDERS = ['createdAt', 'updatedAt', 'source'] as const;
export type RedirectOrder = (typeof REDIRECT_ORDERS)[number];

export function checkSource(source: string, where = 'source'): string {
  if (source.length > SOURCE_MAX || !SOURCE_PATTERN.test(source))
    throw new InvalidInputError(
      `${where} must be a path of at most ${SOURCE_MAX} characters starting with "/", its segments URL-safe, with an optional trailing "*" or "/*"`,
    );
  return source;
}

/** An external destination: an absolute http(s) URL of at most 2048 characters. */
export function checkExternalUrl(url: string, where = 'destination.url'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError(`${where} must be an absolute URL`);
  }
  if (url.length > URL_MAX || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new InvalidInputError(`${where} must be an http(s) URL of at most ${URL_MAX} characters`);
  return url;
}

/** The prefix a wildcard source matches (`/old/*` → `/old/`, `/old*` → `/old`), or null for an exact source. */
function wildcardPrefix(source: string): string | null {
  return source.endsWith('*') ? source.slice(0, -1) : null;
}

/**
 * The redirect a path answers to: an exact source first, else the wildcard source with the longest
 * prefix; with what its star matched. `path` starts with `/` and is below the site's root.
 */
export function matchRedirect(redirects: SiteRedirect[], path: string): { redirect: SiteRedirect; rest: string } | null {
  let best: { redirect: SiteRedirect; rest: string; length: number } | null = null;
  for (const r of redirects) {
    if (r.source === path) return { redirect: r, rest: '' };
    const prefix = wildcardPrefix(r.source);
    if (prefix !== null && path.startsWith(prefix) && (!best || prefix.length > best.length))
      best = { redirect: r, rest: path.slice(prefix.length), length: prefix.length };
  }
  return best && { redirect: best.redirect, rest: best.rest };
}

/** Where each section and site space lives below the site's root (`''`, `guides/`, `guides/v2/`). */
export function structurePrefixes(structure: Structure): { sections: Map<string, string>; siteSpaces: Map<string, string> } {
  const sectionPrefix = (s: SectionNode) => (s.default ? '' : `${s.path}/`);
  const sectionsOut = new Map(sections(structure).map((s) => [s.id, sectionPrefix(s)]));
  const spacePrefix = (node: SiteSpaceNode, section?: SectionNode) =>
    `${section ? sectionPrefix(section) : ''}${node.default ? '' : `${node.path}/`}`;
  const spacesOut = new Map(siteSpaces(structure).map(({ node, section }) => [node.id, spacePrefix(node, section)]));
  return { sections: sectionsOut, siteSpaces: spacesOut };
}

/**
 * The URL a redirect sends to, from the site's root URL (ending in `/`); `pagePath` finds a page's path in
 * its site space's current content. Null when the destination no longer exists (a removed section...).
 */
export function redirectTarget(
  redirect: SiteRedirect,
  rest: string,
  root: string,
  structure: Structure,
  pagePath: (siteSpaceId: string, pageId: string) => string | null,
): string | null {
  const prefixes = structurePrefixes(structure);
  const d = redirect.destination;
  let target: string | null;
  switch (d.kind) {
    case 'external':
      target = d.url;
      break;
    case 'site-section': {
      const prefix = prefixes.sections.get(d.siteSectionId);
      target = prefix === undefined ? null : `${root}${prefix}`;
      break;
    }
    case 'site-space': {
      const prefix = prefixes.siteSpaces.get(d.siteSpaceId);
      target = prefix === undefined ? null : `${root}${prefix}`;
      break;
    }
    case 'site-page': {
      const prefix = prefixes.siteSpaces.get(d.siteSpaceId);
      const path = prefix === undefined ? null : pagePath(d.siteSpaceId, d.pageId);
      target = path === null ? null : `${root}${prefix}${path}`;
      break;
    }
  }
  if (target === null || !redirect.captureWildcard || !rest) return target;
  return target.endsWith('/') ? `${target}${rest.replace(/^\//, '')}` : `${target}${rest.startsWith('/') ? rest : `/${rest}`}`;
}

export interface RedirectListFilter {
  search?: string;
  draft: boolean;
  orderBy: RedirectOrder;
}

/** The redirects of sites. Every write moves the site's version (a visitor's model of the site holds them). */
export abstract class SiteRedirects {
  abstract list(siteId: string, filter: RedirectListFilter, page: PageRequest): Promise<Page<SiteRedirect>>;
  /** Every live redirect of the site (for its visitors). */
  abstract live(siteId: string): Promise<SiteRedirect[]>;
  abstract count(siteId: string): Promise<number>;
  abstract find(siteId: string, redirectId: string): Promise<SiteRedirect | null>;
  abstract findBySource(siteId: string, source: string, draft: boolean): Promise<SiteRedirect | null>;
  /** False when the site already has a redirect of that source and state (live or draft). */
  abstract insert(redirect: SiteRedirect): Promise<boolean>;
  /** False when the new source and state are taken by another redirect. */
  abstract update(redirect: SiteRedirect): Promise<boolean>;
  abstract delete(siteId: string, redirectId: string): Promise<boolean>;
}
