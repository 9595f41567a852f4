import { Injectable } from '@nestjs/common';
import { BoundedMap, pageRequest } from '@app/shared-kernel';
import { evaluateConditions, locateByPath, type PageNode, type PageTree } from '@app/content-model';
import { ContentService, type Revision, type Space } from '@app/spaces-and-content';
import { SpaceRepositories, type PageEditLink } from './space-repositories';
import type { JsonDocument } from '@app/content-model';
import { Condition } from '../domain/adaptive';
import { CustomizationOverride, CustomizationSettings } from '../domain/customization';
import { SectionNode, Site, SiteSpaceNode, Structure, TopItem } from '../domain/site';
import { SiteRepository } from '../domain/site-repository';
import { SitePreviews } from './site-previews';
import { matchRedirect, SiteRedirect } from '../domain/redirects';
import { VisitorCredentials, VisitorGate } from './visitor-gate';
import { siteSpacePrefix } from '../domain/site-urls';

export type { VisitorCredentials } from './visitor-gate';

/** A revision as one visitor sees it (pages their claims hide left out), and the outcome that made it so. */
export type VisibleRevision = Revision & { visibility: string };

/** A site as one visitor may see it: the version, the structure after their claims, and the key of that outcome. */
export interface VisitorSite {
  site: Site;
  customization: CustomizationSettings;
  structure: Structure;
  /** The live spaces the site shows, by id. */
  spaces: Map<string, Space>;
  /** `<site id> <version> <outcome of each condition>`: equal keys, equal pages. */
  key: string;
  /** Search engines are asked not to index anything but public sites (nor a preview). */
  noindex: boolean;
  /** Opened through a member's preview link. */
  preview: boolean;
  /** Where the site is served for this request: `https://{hostname}/`, or `{origin}/sites/{id}/`. */
  base: string;
  /** The visitor's claims (signed and unsigned), checked against the schema. */
  claims: Record<string, unknown>;
  /** Whether adaptive content applies (the site's setting): pages' conditions are evaluated only then. */
  adaptive: boolean;
  redirects: SiteRedirect[];
  /** Each site space's customization override (over `customization`). */
  overrides: Record<string, CustomizationOverride>;
  /** The site state the visitor was let in on (SiteStates.stamp). */
  stamp: object;
}

/** Where a site URL leads: a section and a site space (each may be the default), and the rest of the path. */
export interface SiteLocation {
  section: SectionNode | null;
  siteSpace: SiteSpaceNode;
  space: Space;
  /** The URL path of the site space below the site's root (`''`, `guides/`, `guides/v2/`). */
  prefix: string;
  /** What is left: a page path (slugs joined by `/`, `''` for the first page). */
  rest: string;
}

/** Spaces whose recent paths are kept (for moved pages), and how far back a space's history is read. */
const MOVES_MAX = 200;
/** Revisions pruned for an outcome of their page conditions, kept. */
const PRUNED_MAX = 500;
const MOVES_HISTORY = 50;
/** Entries kept of what is read once per revision or condition (page conditions, parsed conditions). */
const CONDITIONS_MAX = 20_000;

function sectionsOf(items: TopItem[]): SectionNode[] {
  return items.flatMap((i) => (i.kind === 'section' ? [i] : i.kind === 'group' ? sectionsOf(i.children) : []));
}

/** The first page a reader lands on: the first document page in reading order (groups hold pages). */
export function firstPage(tree: PageTree): { node: PageNode; path: string } | null {
  const walk = (nodes: PageTree, prefix: string): { node: PageNode; path: string } | null => {
    for (const n of nodes) {
      if (n.hidden) continue;
      const path = prefix ? `${prefix}/${n.slug}` : n.slug;
      if (n.type === 'document') return { node: n, path };
      const inside = walk(n.pages, path);
      if (inside) return inside;
    }
    return null;
  };
  return walk(tree, '');
}

/**
 * The published site for visitors (no API token, no membership): who may open it (VisitorGate), what it
 * shows them, and which page a URL names. Unpublished sites answer nothing; `share-link` sites need the key
 * of an active share link; `visitor-auth` sites a valid visitor token; adaptive content narrows the structure
 * to the visitor's claims. The site's state is kept in memory (SiteStates: a revoked key, a regenerated signing
 * key or a new version is seen at once in the process that made it, and within a second in every other); the
 * model of a version is built once (SiteModels).
 */
@Injectable()
export class VisitorSitesService {
  private readonly moves = new BoundedMap<string, Map<string, string>>(MOVES_MAX);
  private readonly repositoryRedirects = new BoundedMap<string, Map<string, string>>(MOVES_MAX);
  private readonly editLinks = new BoundedMap<string, Map<string, PageEditLink>>(MOVES_MAX);
  private readonly pageConditions = new BoundedMap<string, string[]>(CONDITIONS_MAX);
  private readonly prunedTrees = new BoundedMap<string, PageTree>(PRUNED_MAX);
  private readonly parsedConditions = new BoundedMap<string, Condition | null>(CONDITIONS_MAX);

  constructor(
    private readonly gate: VisitorGate,
    private readonly sites: SiteRepository,
    private readonly content: ContentService,
    private readonly repositories: SpaceRepositories,
    private readonly previews: SitePreviews,
  ) {}

  /**
   * The site as this visitor sees it, or null: not found, not published, or not for them (all alike: 404).
   * A visitor-auth site whose visitor has no valid token sends them to its fallback URL (its sign-in),
   * when it has one. Unsigned claims (what the visitor says of themselves) count only where the adaptive
   * schema declares them; claims it refuses are no claims, not an error page.
   */
  async open(siteId: string, visitor: VisitorCredentials, base: string): Promise<VisitorSite | { signIn: string } | null> {
    const passage = await this.gate.pass(siteId, { ...visitor, claims: visitor.claims ? { unsigned: visitor.claims } : {} });
    if (passage.kind === 'closed') return null;
    if (passage.kind === 'sign-in') return { signIn: passage.url };
    const { model, noindex, preview } = passage;
    return {
      site: model.site,
      customization: model.customization.settings,
      structure: passage.structure,
      spaces: model.spaces,
      redirects: model.redirects,
      overrides: model.overrides,
      claims: passage.claims,
      adaptive: !!model.site.adaptiveContent,
      // A preview differs from the published page (its broken links are marked): its own cache entries.
      key: `${siteId} ${model.site.version} ${passage.outcomes}${noindex ? ' noindex' : ''}${preview ? ' preview' : ''}`,
      noindex,
      preview,
      base,
      stamp: passage.stamp,
    };
  }

  /** When a preview token for this site expires (ms), or null when it is not valid. */
  previewExpiry(siteId: string, token: string): number | null {
    return this.previews.check(siteId, token);
  }

  /** The site itself (for its basename), published or not. */
  siteOf(siteId: string): Promise<Site | null> {
    return this.sites.findById(siteId);
  }

  /**
   * Which section and site space a path below the site's root is in: a first segment naming a section
   * (else the default section), then one naming a site space of it (else its default site space).
   * Null when the site shows nothing there.
   */
  locate(view: VisitorSite, path: string): SiteLocation | null {
    const segments = path.split('/').filter(Boolean);
    const sections = sectionsOf(view.structure.items);
    let section: SectionNode | null = null;
    let prefix = '';
    let siteSpaces = view.structure.siteSpaces;
    if (sections.length > 0) {
      section = sections.find((s) => !s.default && s.path === segments[0]) ?? null;
      if (section) {
        segments.shift();
        prefix = `${section.path}/`;
      } else section = sections.find((s) => s.default) ?? sections[0];
      siteSpaces = section.siteSpaces;
    }
    let siteSpace = siteSpaces.find((s) => !s.default && s.path === segments[0] && view.spaces.has(s.spaceId)) ?? null;
    if (siteSpace) {
      segments.shift();
      prefix += `${siteSpace.path}/`;
    } else
      siteSpace =
        siteSpaces.find((s) => s.default && view.spaces.has(s.spaceId)) ?? siteSpaces.find((s) => view.spaces.has(s.spaceId)) ?? null;
    if (!siteSpace) return null;
    return { section, siteSpace, space: view.spaces.get(siteSpace.spaceId)!, prefix, rest: segments.join('/') };
  }

  /** Every site space this visitor may see, in structure order, with its URL prefix below the site's root. */
  siteSpaces(view: VisitorSite): { section: SectionNode | null; siteSpace: SiteSpaceNode; space: Space; prefix: string }[] {
    const out: { section: SectionNode | null; siteSpace: SiteSpaceNode; space: Space; prefix: string }[] = [];
    const add = (section: SectionNode | null, siteSpaces: SiteSpaceNode[]) => {
      for (const siteSpace of siteSpaces) {
        const space = view.spaces.get(siteSpace.spaceId);
        if (space) out.push({ section, siteSpace, space, prefix: siteSpacePrefix(section, siteSpace) });
      }
    };
    const sections = sectionsOf(view.structure.items);
    if (sections.length === 0) add(null, view.structure.siteSpaces);
    for (const s of sections) add(s, s.siteSpaces);
    return out;
  }

  /** The URL prefix (below the site's root) of each space the site shows, in this visitor's structure. */
  prefixes(view: VisitorSite): Map<string, string> {
    const out = new Map<string, string>();
    for (const s of this.siteSpaces(view)) if (!out.has(s.space.id)) out.set(s.space.id, s.prefix);
    return out;
  }

  /**
   * The space's current revision as this visitor sees it (a merge is visible on the next request): with
   * adaptive content, a page whose condition fails for their claims is left out with what is below it,
   * from the navigation, its URL, search, the sitemap and llms.txt alike. `visibility` is the outcome of
   * each page condition: equal outcomes, equal pages (it belongs in every cache key of what is shown).
   */
  async revision(view: VisitorSite, space: Space): Promise<VisibleRevision> {
    const revision = await this.content.revision(space.id, space.revision);
    if (!view.adaptive) return { ...revision, visibility: '' };
    let conditions = this.pageConditions.get(revision.id);
    if (!conditions) {
      const found = new Set<string>();
      const walk = (nodes: PageTree) => nodes.forEach((n) => (n.condition && found.add(n.condition), walk(n.pages)));
      walk(revision.tree);
      conditions = [...found];
      this.pageConditions.set(revision.id, conditions);
    }
    if (conditions.length === 0) return { ...revision, visibility: '' };
    const shown = new Set(conditions.filter((c) => this.holds(c, view.claims)));
    const visibility = conditions.map((c) => (shown.has(c) ? '1' : '0')).join('');
    // Built once per revision and outcome, not on every request.
    let tree = this.prunedTrees.get(`${revision.id} ${visibility}`);
    if (!tree) {
      const prune = (nodes: PageTree): PageTree =>
        nodes.flatMap((n) => (n.condition && !shown.has(n.condition) ? [] : [{ ...n, pages: prune(n.pages) }]));
      tree = prune(revision.tree);
      this.prunedTrees.set(`${revision.id} ${visibility}`, tree);
    }
    return { ...revision, tree, visibility };
  }

  /** A page condition for these claims; one that does not parse hides its page (never shows what it guards). */
  private holds(condition: string, claims: Record<string, unknown>): boolean {
    let parsed = this.parsedConditions.get(condition);
    if (parsed === undefined) {
      try {
        parsed = Condition.parse(condition);
      } catch {
        parsed = null;
      }
      this.parsedConditions.set(condition, parsed);
    }
    return parsed !== null && parsed.test(claims);
  }

  /**
   * A document as this visitor sees it: its conditional (`if`) blocks evaluated on their claims, what does not
   * hold left out (conditional content never reaches a visitor who may not see it, in any form).
   */
  shown(view: VisitorSite, doc: JsonDocument): JsonDocument {
    return evaluateConditions(doc, (expression) => this.holds(expression, view.claims));
  }

  /** The outcome of each expression for this visitor, `1`/`0` (what a page's answer depends on). */
  outcomes(view: VisitorSite, expressions: string[]): string {
    return expressions.map((e) => (this.holds(e, view.claims) ? '1' : '0')).join('');
  }

  /** A page's body. */
  async document(space: Space, revision: Revision, pageId: string) {
    return (await this.content.page(space, revision.id, pageId)).document;
  }

  /** Documents of the space's organization by id (what reusable contents point to). */
  documents(space: Space, ids: string[]): Promise<Map<string, JsonDocument>> {
    return this.content.documents(space.organizationId, ids);
  }

  /**
   * Where a page that answered at `path` in the space's recent history is now (its path in the current
   * revision), or null: a moved or renamed page keeps answering, with a 301. Built once per revision from
   * the last 50 revisions of the space's history.
   */
  async movedPage(space: Space, revision: VisibleRevision, path: string): Promise<string | null> {
    const key = `${space.id} ${revision.id} ${revision.visibility}`;
    let moved = this.moves.get(key);
    if (!moved) {
      moved = new Map();
      const now = pagePaths(revision.tree);
      const current = new Set(now.values());
      const history = await this.content.history(space, pageRequest(undefined, MOVES_HISTORY));
      for (const summary of history.items) {
        if (summary.id === revision.id) continue;
        const old = await this.content.revision(space.id, summary.id);
        for (const [id, p] of pagePaths(old.tree)) {
          const there = now.get(id);
          if (there !== undefined && !current.has(p) && !moved.has(p)) moved.set(p, there);
        }
      }
      this.moves.set(key, moved);
    }
    return moved.get(path) ?? null;
  }

  /**
   * The page a path of the space's old site goes to by the `redirects` of the `.gitbook.yaml` its repository
   * import kept (GitBook's space redirects: `old/path` → a file, the page imported from it), or null.
   */
  async repositoryRedirect(space: Space, revision: VisibleRevision, path: string): Promise<string | null> {
    const key = `${space.id} ${revision.id} ${revision.visibility}`;
    let redirects = this.repositoryRedirects.get(key);
    if (!redirects) {
      redirects = new Map();
      const now = pagePaths(revision.tree);
      for (const { from, pageId } of await this.repositories.redirects(space.id)) {
        const to = now.get(pageId);
        if (to !== undefined && !redirects.has(from)) redirects.set(from, to);
      }
      this.repositoryRedirects.set(key, redirects);
    }
    return redirects.get(path.replace(/\/+$/, '')) ?? null;
  }

  /**
   * Where the page is edited on the Git host of the branch its space is connected to, or null. Read once per
   * revision: an import that moves files makes a revision, and a page answer's cache key holds the revision.
   */
  async editLink(space: Space, revision: Revision, pageId: string): Promise<PageEditLink | null> {
    const key = `${space.id} ${revision.id}`;
    let links = this.editLinks.get(key);
    if (!links) {
      links = await this.repositories.editLinks(space.id);
      this.editLinks.set(key, links);
    }
    return links.get(pageId) ?? null;
  }

  /** The live redirect a path below the site's root (`/old/page`) answers to, and what its star matched. */
  redirectFor(view: VisitorSite, path: string): { redirect: SiteRedirect; rest: string } | null {
    return matchRedirect(view.redirects, path);
  }

  /** The listed pages of a revision in reading order (documents that are not hidden, nor inside a hidden page). */
  listed(revision: Revision): { node: PageNode; path: string }[] {
    const out: { node: PageNode; path: string }[] = [];
    const walk = (nodes: PageTree, prefix: string) => {
      for (const n of nodes) {
        if (n.hidden) continue;
        const path = prefix ? `${prefix}/${n.slug}` : n.slug;
        if (n.type === 'document') out.push({ node: n, path });
        walk(n.pages, path);
      }
    };
    walk(revision.tree, '');
    return out;
  }

  /** The page at a path of the revision (hidden pages included: they are reachable, only not listed). */
  page(revision: Revision, path: string): { node: PageNode; path: string } | null {
    if (path === '') return firstPage(revision.tree);
    const found = locateByPath(revision.tree, path);
    return found && found.node.type === 'document' ? { node: found.node, path: found.path } : null;
  }
}

/** Every document page of a tree: id → its path (slugs joined with `/`). */
function pagePaths(tree: PageTree, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const n of tree) {
    const p = prefix ? `${prefix}/${n.slug}` : n.slug;
    if (n.type === 'document') into.set(n.id, p);
    pagePaths(n.pages, p, into);
  }
  return into;
}
