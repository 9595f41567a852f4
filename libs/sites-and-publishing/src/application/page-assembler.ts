import { Injectable } from '@nestjs/common';
import { BoundedMap } from '@app/shared-kernel';
import {
  conditionExpressions,
  includedContents,
  operationRefs,
  type JsonDocument,
  type OperationRef,
  type PageNode,
} from '@app/content-model';
import { OpenApiOperations, type OperationView } from '@app/openapi-specs';
import { siteRoot } from '../domain/site-urls';
import { RedirectsService } from './redirects.service';
import { SiteLocation, VisibleRevision, VisitorSite, VisitorSitesService } from './visitor-sites.service';

/** A page as HTML, or as the markdown machines read (`{page}.md`). */
export type PageFormat = 'html' | 'md';

/** A page of a visitor's site, found: where it is, the revision they see of its space, the page. */
export interface LocatedPage {
  view: VisitorSite;
  location: SiteLocation;
  revision: VisibleRevision;
  page: { node: PageNode; path: string };
  format: PageFormat;
}

/**
 * Everything a page's answer depends on, each named: equal dependencies, equal answers. The cache key is made
 * of them (`keyOf`), so nothing a page shows can be forgotten in it.
 */
export interface PageDependencies {
  /** The site, its version, the outcome of each of its conditions for the visitor's claims, and noindex (VisitorSite.key). */
  site: string;
  /** Where the site is served (its links): Quire's origin or the custom hostname. */
  base: string;
  space: string;
  /** The revision and the outcome of each page condition in it (pages the claims hide). */
  revision: string;
  page: string;
  format: PageFormat;
  /** Each OpenAPI spec the page shows an operation of, at its latest version (a spec changes apart from the site). */
  specs: string;
  /** The outcome for the visitor's claims of each conditional block of the page and what it includes. */
  conditions: string;
}

/** The cache key of a page's answer, derived from what it depends on. */
export function keyOf(d: PageDependencies): string {
  return [d.site, d.base, d.space, d.revision, d.page, d.format, d.specs, d.conditions].join(' ');
}

/** What the renderer renders: the page, its body, what the body includes and shows, and what it depends on. */
export interface PageModel extends LocatedPage {
  dependencies: PageDependencies;
  document: JsonDocument | null;
  /** The reusable contents the page includes (and those they include, three levels), by id. */
  reusable: Map<string, JsonDocument>;
  /** The API operations the page shows, by `spec method path`. */
  operations: Map<string, OperationView>;
}

/** Where a path below a site's root leads: a page, a redirect (the site's, its repository's, a moved page's), or nowhere. */
export type Found = { kind: 'page'; page: LocatedPage } | { kind: 'redirect'; status: number; target: string } | { kind: 'not-found' };

/** Which specs each page names (page bodies are immutable per revision): entries kept. */
const SPEC_USES_MAX = 20_000;

/** The key of an operation in PageModel.operations. */
export const operationKey = (ref: OperationRef): string => `${ref.spec} ${ref.method} ${ref.path}`;

/**
 * The published page as one pipeline, after the gate (VisitorGate) let the visitor in: `find` the page a path
 * names (or where it went), list what its answer `depends` on (the cache key is derived from that), and
 * `assemble` the model the renderer renders. Only `assemble` reads the page's body; a warm page needs
 * `find` and `depends`, from memory except for the versions of the specs an OpenAPI page shows.
 */
@Injectable()
export class PageAssembler {
  private readonly specUses = new BoundedMap<string, string[]>(SPEC_USES_MAX);
  /** The expressions of the conditional blocks of each page and of what it includes (bodies are immutable per revision). */
  private readonly conditionUses = new BoundedMap<string, string[]>(SPEC_USES_MAX);

  constructor(
    private readonly sites: VisitorSitesService,
    private readonly redirects: RedirectsService,
    private readonly openapi: OpenApiOperations,
  ) {}

  /** The page at `path` below the site's root (`….md`: its markdown), or where that path went, or nothing. */
  async find(view: VisitorSite, path: string): Promise<Found> {
    const format: PageFormat = path.endsWith('.md') ? 'md' : 'html';
    const joined = format === 'md' ? path.slice(0, -3) : path;
    const location = this.sites.locate(view, joined);
    const revision = location ? await this.sites.revision(view, location.space) : null;
    const page = location && revision ? this.sites.page(revision, location.rest) : null;
    if (location && revision && page) return { kind: 'page', page: { view, location, revision, page, format } };
    const elsewhere = await this.elsewhere(view, joined, format === 'md', location, revision);
    return elsewhere ? { kind: 'redirect', ...elsewhere } : { kind: 'not-found' };
  }

  /** What the page's answer depends on. */
  async depends(located: LocatedPage): Promise<PageDependencies> {
    const { view, location, revision, page, format } = located;
    return {
      site: view.key,
      base: view.base,
      space: location.space.id,
      revision: `${revision.id}:${revision.visibility}`,
      page: page.node.id,
      format,
      specs: format === 'md' ? '' : await this.specVersions(located),
      conditions: this.sites.outcomes(view, await this.conditionExpressions(located)),
    };
  }

  /** The expressions of the page's conditional blocks and of the reusable contents it includes, read once per revision. */
  private async conditionExpressions(located: LocatedPage): Promise<string[]> {
    const { location, revision, page } = located;
    const key = `${revision.id} ${page.node.id}`;
    let expressions = this.conditionUses.get(key);
    if (!expressions) {
      const document = await this.sites.document(location.space, revision, page.node.id);
      const docs = document ? [document, ...(await this.reusable(located, document)).values()] : [];
      expressions = [...new Set(docs.flatMap(conditionExpressions))];
      this.conditionUses.set(key, expressions);
    }
    return expressions;
  }

  /** The page's model: its body, the reusable contents it includes and the operations it shows. */
  async assemble(located: LocatedPage, dependencies: PageDependencies): Promise<PageModel> {
    const { view, location, revision, page } = located;
    // What the visitor's claims do not show is gone before anything is rendered (HTML and markdown alike).
    const stored = await this.sites.document(location.space, revision, page.node.id);
    const document = stored && this.sites.shown(view, stored);
    const html = located.format === 'html' && document !== null;
    const reusable = new Map<string, JsonDocument>();
    if (html) for (const [id, doc] of await this.reusable(located, document)) reusable.set(id, this.sites.shown(view, doc));
    return {
      ...located,
      dependencies,
      document,
      reusable,
      operations: html ? await this.operations(view, operationRefs(document)) : new Map<string, OperationView>(),
    };
  }

  /**
   * The latest version of each OpenAPI spec the page's operation blocks name, `slug@version,…`; '' for the
   * pages that name none, without a query once known.
   */
  private async specVersions({ view, location, revision, page }: LocatedPage): Promise<string> {
    const key = `${revision.id} ${page.node.id}`;
    let slugs = this.specUses.get(key);
    if (!slugs) {
      const document = await this.sites.document(location.space, revision, page.node.id);
      slugs = document ? [...new Set(operationRefs(document).map((r) => r.spec))].sort() : [];
      this.specUses.set(key, slugs);
    }
    if (slugs.length === 0) return '';
    const versions = await this.openapi.versions(view.site.organizationId, slugs);
    return slugs.map((s) => `${s}@${versions.get(s) ?? '-'}`).join(',');
  }

  /** The documents of the reusable contents a page includes, and of those they include in turn (three levels), by id. */
  private async reusable({ location, revision }: LocatedPage, document: JsonDocument): Promise<Map<string, JsonDocument>> {
    const found = new Map<string, JsonDocument>();
    let wanted = includedContents(document);
    for (let level = 0; level < 3 && wanted.length; level++) {
      const contents = (revision.reusableContents ?? []).filter((r) => wanted.includes(r.id) && r.document && !found.has(r.id));
      const docs = await this.sites.documents(
        location.space,
        contents.map((r) => r.document!),
      );
      const next: string[] = [];
      for (const r of contents) {
        const doc = docs.get(r.document!);
        if (!doc) continue;
        found.set(r.id, doc);
        next.push(...includedContents(doc));
      }
      wanted = next.filter((id) => !found.has(id));
    }
    return found;
  }

  /** The API operations a page names, from its site's organization's specs, by `spec method path`. */
  private async operations(view: VisitorSite, refs: OperationRef[]): Promise<Map<string, OperationView>> {
    const out = new Map<string, OperationView>();
    for (const ref of refs) {
      const key = operationKey(ref);
      if (out.has(key)) continue;
      const op = await this.openapi.operation(view.site.organizationId, ref.spec, ref.method, ref.path);
      if (op) out.set(key, op);
    }
    return out;
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
    const root = siteRoot(view.base, view.site.basename);
    const found = this.sites.redirectFor(view, `/${joined}${markdown ? '.md' : ''}`);
    if (found) {
      const target = await this.redirects.target(view.site, found.redirect, found.rest, root);
      if (target) {
        const status = !found.redirect.permanent ? 302 : view.site.visibility === 'public' && !view.preview ? 308 : 307;
        return { status, target };
      }
    }
    if (location && revision && location.rest) {
      const redirected = await this.sites.repositoryRedirect(location.space, revision, location.rest);
      if (redirected !== null) return { status: 301, target: `${root}${location.prefix}${redirected}${markdown ? '.md' : ''}` };
      const path = await this.sites.movedPage(location.space, revision, location.rest);
      if (path !== null) return { status: 301, target: `${root}${location.prefix}${path}${markdown ? '.md' : ''}` };
    }
    return null;
  }
}
