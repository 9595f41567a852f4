/**
 * The URL rules of published sites, in one place: where Quire serves a site, where it says the site lives
 * (`urls.published`), and the path of a section and a site space below the site's root. Both directions use
 * them: the API's URLs and the visitor routes that read a path back (VisitorSitesService.locate).
 */

/** What the rules read of a site. */
export interface SiteAddress {
  id: string;
  hostname: string | null;
  basename: string | null;
  proxy: string | null;
}

/** A section or site space's place in the URL: the default one has none. */
export interface PathSegment {
  default: boolean;
  path: string;
}

/**
 * Where Quire serves a site for one request: asked at its custom hostname, the whole origin (TLS ends at the
 * reverse proxy: https); otherwise below Quire's own origin, `{origin}/sites/{id}/`.
 */
export function servedBase(siteId: string, origin: string, hostname?: string): string {
  return hostname ? `https://${hostname}/` : `${origin}/sites/${siteId}/`;
}

/** The root of a site's pages where it is served: the base, then its basename when it has one. */
export function siteRoot(base: string, basename: string | null): string {
  return basename ? `${base}${basename}/` : base;
}

/**
 * Where a published site lives (`urls.published`): behind its proxy (whose path is the proxy's own), else at its
 * hostname, else at Quire's own URL; then its basename.
 */
export function publishedRoot(site: SiteAddress, origin: string): string {
  if (site.proxy) return `https://${site.proxy}/`;
  return siteRoot(site.hostname ? `https://${site.hostname}/` : `${origin}/sites/${site.id}/`, site.basename);
}

/** The link that opens a site's preview on Quire's own origin (`urls.preview`). */
export function previewUrl(siteId: string, origin: string, token: string): string {
  return `${servedBase(siteId, origin)}~preview/${token}/`;
}

/** The path of a section below the site's root (`''` for the default section). */
export function sectionPrefix(section: PathSegment | null): string {
  return !section || section.default ? '' : `${encodeURIComponent(section.path)}/`;
}

/** The path of a site space below the site's root: its section's, then its own (`''` for the defaults). */
export function siteSpacePrefix(section: PathSegment | null, siteSpace: PathSegment): string {
  return `${sectionPrefix(section)}${siteSpace.default ? '' : `${encodeURIComponent(siteSpace.path)}/`}`;
}

/**
 * The path below a site's root that a URL names, when it is one of the site's URLs: on Quire's own origin
 * (`{origin}/sites/{id}/`), at its custom hostname, behind its proxy (then its basename); null otherwise. The
 * query and fragment are left out; the path stays as the URL writes it (percent-encoded).
 */
export function pathInSite(target: string, site: SiteAddress, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const own = new URL(origin);
  const roots: URL[] = [new URL(siteRoot(`${own.origin}${own.pathname.replace(/\/+$/, '')}/sites/${site.id}/`, site.basename))];
  if (site.hostname) roots.push(new URL(siteRoot(`https://${site.hostname}/`, site.basename)));
  if (site.proxy) roots.push(new URL(`https://${site.proxy}/`));
  for (const root of roots) {
    // Quire's own origin is matched whole (scheme too); a custom hostname or proxy by host (TLS ends at the proxy).
    if (root === roots[0] ? url.origin !== root.origin : url.host !== root.host) continue;
    if (url.pathname === root.pathname.replace(/\/$/, '')) return '';
    if (url.pathname.startsWith(root.pathname)) return url.pathname.slice(root.pathname.length);
  }
  return null;
}
