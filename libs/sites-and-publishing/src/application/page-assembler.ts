import { Injectable } from '@nestjs/common';
import { BoundedMap } from '@app/shared-kernel';
import {
  apiRefs,
  conditionExpressions,
  includedContents,
  type JsonDocument,
  type OperationRef,
  specFileRefs,
  type SchemasRef,
  type SpecFileRef,
  type WebhookRef,
  type PageNode,
} from '@app/content-model';
import { FilesService } from '@app/spaces-and-content';
import { parse as parseYaml } from 'yaml';
import { OpenApiOperations, operationView, type OperationView, type SchemaView } from '@app/openapi-specs';
import { siteRoot } from '../domain/site-urls';
import { RedirectsService } from './redirects.service';
import type { PageEditLink } from './space-repositories';
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
  /** The API operations the page shows, by `spec method path`; its webhooks by `webhook spec method name`. */
  operations: Map<string, OperationView>;
  /** The schemas the page's schemas blocks show, by `spec names` (webhookKey, schemasKey). */
  schemas: Map<string, { name: string; schema: SchemaView }[]>;
  /** The operations the page's `swagger` blocks show from a spec file of the space, by `file method path`. */
  fileOperations: Map<string, OperationView>;
  /** Where the page is edited on the Git host of its space's branch (HTML only). */
  edit: PageEditLink | null;
}

/** Where a path below a site's root leads: a page, a redirect (the site's, its repository's, a moved page's), or nowhere. */
export type Found = { kind: 'page'; page: LocatedPage } | { kind: 'redirect'; status: number; target: string } | { kind: 'not-found' };

/** Which specs each page names (page bodies are immutable per revision): entries kept. */
const SPEC_USES_MAX = 20_000;

/** The key of an operation in PageModel.operations. */
export const operationKey = (ref: OperationRef): string => `${ref.spec} ${ref.method} ${ref.path}`;
export const fileOperationKey = (ref: SpecFileRef): string => `${ref.file} ${ref.method} ${ref.path}`;
/** A spec file of the space parsed for its operations at most this large (a repository's spec, not a dump). */
const SPEC_FILE_MAX = 5 * 1024 * 1024;
export const webhookKey = (ref: WebhookRef): string => `webhook ${ref.spec} ${ref.method} ${ref.name}`;
export const schemasKey = (ref: SchemasRef): string => `${ref.spec} ${ref.schemas.join(',')}`;

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

  /** Spec files of spaces, parsed, by content hash (a file's bytes never change under its hash). */
  private readonly specFiles = new BoundedMap<string, unknown>(16);

  constructor(
    private readonly sites: VisitorSitesService,
    private readonly redirects: RedirectsService,
    private readonly openapi: OpenApiOperations,
    private readonly files: FilesService,
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
      ...(html ? await this.apis(view, document) : { operations: new Map<string, OperationView>(), schemas: new Map() }),
      fileOperations: html ? await this.fileOperations(located, document) : new Map<string, OperationView>(),
      edit: located.format === 'html' ? await this.sites.editLink(location.space, revision, page.node.id) : null,
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
      const refs = document ? apiRefs(document) : { operations: [], webhooks: [], schemas: [] };
      slugs = [...new Set([...refs.operations, ...refs.webhooks, ...refs.schemas].map((r) => r.spec))].sort();
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

  /**
   * The operations of the page's `swagger` blocks whose spec is a file of the space (a repository's
   * `.gitbook/assets/api.yaml`): the file read and parsed once (YAML or JSON, at most SPEC_FILE_MAX bytes).
   */
  private async fileOperations({ location, revision }: LocatedPage, document: JsonDocument): Promise<Map<string, OperationView>> {
    const out = new Map<string, OperationView>();
    for (const ref of specFileRefs(document)) {
      const key = fileOperationKey(ref);
      const file = revision.files.find((f) => f.id === ref.file);
      if (out.has(key) || !file || file.size > SPEC_FILE_MAX) continue;
      if (!this.specFiles.has(file.hash)) {
        const bytes = await this.files.bytes(location.space.organizationId, file.hash);
        let doc: unknown;
        try {
          doc = bytes ? parseYaml(bytes.toString('utf8'), { maxAliasCount: 100 }) : undefined;
        } catch {
          doc = undefined;
        }
        this.specFiles.set(file.hash, doc);
      }
      const op = operationView(this.specFiles.get(file.hash), ref.method, ref.path);
      if (op) out.set(key, op);
    }
    return out;
  }

  /** The API operations, webhooks and schemas a page names, from its site's organization's specs. */
  private async apis(view: VisitorSite, document: JsonDocument): Promise<Pick<PageModel, 'operations' | 'schemas'>> {
    const org = view.site.organizationId;
    const refs = apiRefs(document);
    const operations = new Map<string, OperationView>();
    const schemas = new Map<string, { name: string; schema: SchemaView }[]>();
    for (const ref of refs.operations) {
      const key = operationKey(ref);
      const op = operations.has(key) ? null : await this.openapi.operation(org, ref.spec, ref.method, ref.path);
      if (op) operations.set(key, op);
    }
    for (const ref of refs.webhooks) {
      const key = webhookKey(ref);
      const op = operations.has(key) ? null : await this.openapi.webhook(org, ref.spec, ref.method, ref.name);
      if (op) operations.set(key, op);
    }
    for (const ref of refs.schemas) {
      const key = schemasKey(ref);
      const found = schemas.has(key) ? null : await this.openapi.schemas(org, ref.spec, ref.schemas);
      if (found) schemas.set(key, found);
    }
    return { operations, schemas };
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
