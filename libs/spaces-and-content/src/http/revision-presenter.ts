import { Injectable } from '@nestjs/common';
import { OrganizationsService } from '@app/organizations-and-teams';
import { Actor, Clock, NotFoundError, Role } from '@app/shared-kernel';
import { Links, ListQueryDto, ReadCacheSettings, RenderedJson } from '@app/http-kit';
import { ContentService } from '../application/content.service';
import { SpacesService } from '../application/spaces.service';
import { FilesService } from '../application/files.service';
import { LinksService } from '../application/links.service';
import { RevisionChanges } from '../application/revision-changes';
import {
  alignBlocks,
  documentToMarkdown,
  evaluateConditions,
  linkResolver,
  locate,
  locateByPath,
  markdownToDocument,
  pathIndex,
  refToUrl,
} from '@app/content-model';
import type { ContentRef } from '@app/content-model';
import { codeSyntaxes, CodeHighlighter, DocumentRenderer } from '@app/site-renderer';
import { Fragment, h } from 'preact';
import { render } from 'preact-render-to-string';
import type { DocBlock, JsonDocument, PageTree } from '@app/content-model';
import type { Revision } from '../domain/content/revision';
import type { FileNode } from '../domain/content/files';
import type { Space } from '../domain/space';
import {
  toSpaceDto,
  filesPage,
  fileDto,
  backlinksResponse,
  linksResponse,
  LinksQueryDto,
  LocationContext,
  PageQueryDto,
  pagesDto,
  pageWithBody,
  relativeRefs,
  revisionDto,
  reusableContentDto,
  toOrganizationDto,
} from '@app/wire';

/**
 * Which revision a read is about and how its pages are addressed: the space's main content, a
 * revision by id, or a change request's head. Every content read takes one of these.
 */
export interface RevisionScope {
  actor: Actor;
  space: Space;
  /** The caller's role on the space (the embedded space object's permissions). */
  role: Role;
  revisionId: string;
  /** Web-app path of the content: `/s/{space}`, or `/s/{space}/~/changes/{number}`. */
  appBase: string;
  /** For change requests: the revision they started from, so link stats count the links they broke. */
  linksBase?: string;
}

/**
 * How a merge revision shows the change request it came from (the official `mergedFrom`): given by the
 * caller that knows change requests (the review context's controllers), since this context does not.
 * Null when the change request is gone or out of the caller's reach; without it, `mergedFrom` is null.
 */
/** A page's body rendered by the site renderer (the web app's reading and preview). */
export interface RenderedPage {
  object: 'rendered-page';
  id: string;
  title: string;
  html: string;
}

/** A page's change as rendered blocks, each unchanged, added or deleted. */
export interface RenderedPageDiff {
  object: 'rendered-page-diff';
  id: string;
  title: string;
  change: 'created' | 'edited' | 'deleted' | 'unchanged';
  titleBefore?: string;
  blocks: { change: 'unchanged' | 'added' | 'deleted'; html: string }[];
}

export type MergeOrigin = (changeRequestId: string) => Promise<object | null>;

/**
 * Every read of a revision's content as the official objects, written once: the revision, its page
 * tree, a page with its body, its files, its links and backlinks, its changes. Main content,
 * `/revisions/{id}` and change requests differ only in their RevisionScope; a new read is added here
 * and serves all of them. The presenter of the content context's read models (the application
 * services return domain objects; this renders them on the wire), shared by the content and review
 * contexts' controllers.
 */
@Injectable()
export class RevisionPresenter {
  /**
   * Rendered responses (page trees, pages with their body as a document or as markdown) as JSON text,
   * by what they are rendered from: revisions and bodies are immutable, so an entry never goes stale.
   */
  private readonly rendered: RenderedJson;

  constructor(
    private readonly content: ContentService,
    private readonly linksService: LinksService,
    private readonly files: FilesService,
    private readonly revisionChanges: RevisionChanges,
    private readonly organizations: OrganizationsService,
    private readonly clock: Clock,
    settings: ReadCacheSettings,
    private readonly highlighter: CodeHighlighter,
    private readonly spaces: SpacesService,
  ) {
    this.rendered = new RenderedJson(settings.maxBytes, 'rendered-content');
  }

  /**
   * A live space's current revision (`revisionId` absent) or the one named, addressed as the space's own content.
   * A site's visitor reads the revision the site shows them, and only that one (another is a 404).
   */
  async spaceScope(actor: Actor, spaceId: string, revisionId?: string): Promise<RevisionScope> {
    const { space, role } = await this.spaces.getLive(actor, spaceId);
    const shown = actor.reader?.spaces.get(space.id);
    if (shown !== undefined && revisionId !== undefined && revisionId !== shown) throw new NotFoundError('Revision', revisionId);
    return { actor, space, role, revisionId: revisionId ?? shown ?? space.revision, appBase: `/s/${space.id}` };
  }

  /** The response as UTF-8 JSON bytes: encoded once, sent as they are on every hit. */
  private cached(key: string, render: () => Promise<unknown>): Promise<Buffer> {
    return this.rendered.get(key, render);
  }

  private keyOf(s: RevisionScope, links: Links, ...rest: string[]): string {
    return [s.space.id, s.revisionId, s.appBase, links.origin, links.appOrigin, ...rest].join(' ');
  }

  /**
   * What changed (official getRevisionSemanticChanges / getChangeRequestChanges): `s.revisionId` against
   * `against` (a change request's base), else against its first parent (none: everything is created).
   * The first `limit` changes, and in `more` how many were left out.
   */
  async changes(s: RevisionScope, limit: number, links: Links, against?: string, origin?: MergeOrigin) {
    const { changes: list, mergedFrom } = await this.revisionChanges.of(s.space, s.revisionId, against);
    const now = this.clock.now().getTime();
    const file = (f: FileNode) => {
      const dto = fileDto(f, this.files.downloadPath(s.space.organizationId, f, now), links);
      return { id: dto.id, name: dto.name, contentType: dto.contentType, downloadURL: dto.downloadURL };
    };
    const shown = list.slice(0, limit).map((c) => (c.type.startsWith('file_') ? { ...c, file: file((c as { file: FileNode }).file) } : c));
    const body: Record<string, unknown> = { changes: shown };
    if (list.length > limit) body.more = list.length - limit;
    if (!against && mergedFrom && origin) body.mergedFrom = await origin(mergedFrom);
    return body;
  }

  async revision(s: RevisionScope, links: Links, origin?: MergeOrigin) {
    const rev = await this.content.revision(s.space.id, s.revisionId);
    // A site's visitor: the pages their claims leave; no change request, Git commit or reusable contents (the site
    // shows none of them as such).
    if (s.actor.reader)
      return revisionDto({ ...rev, tree: await this.shownTree(s, rev), git: undefined, reusableContents: [] }, s.appBase, links, null);
    const mergedFrom = rev.mergedFrom && origin ? await origin(rev.mergedFrom) : null;
    return revisionDto(rev, s.appBase, links, mergedFrom);
  }

  /** The page tree as JSON text (cached: a 5,000-page tree is rendered once per revision). */
  async pagesJson(s: RevisionScope, links: Links): Promise<Buffer> {
    if (s.actor.reader) {
      const tree = await this.shownTree(s, await this.content.revision(s.space.id, s.revisionId));
      return Buffer.from(JSON.stringify({ pages: pagesDto(tree, s.appBase, links) }), 'utf8');
    }
    return this.cached(this.keyOf(s, links, 'pages'), async () => ({
      pages: pagesDto((await this.content.revision(s.space.id, s.revisionId)).tree, s.appBase, links),
    }));
  }

  /**
   * A page with its body (document or markdown), as JSON text; cached per revision, page, format and ref mode. A
   * site's visitor gets the page as the site shows it to them (from the tree their claims leave, its conditional
   * blocks decided by their claims), not cached: it depends on their claims.
   */
  async pageJson(s: RevisionScope, pageId: string, q: PageQueryDto, links: Links): Promise<Buffer> {
    const format = q.format ?? 'document';
    const refMode = q['format.markdown.refs'] === 'stable' ? 'stable' : 'relative';
    const body = async () => {
      // The page in the tree the caller sees, before its document is read.
      const tree = await this.shownTree(s, await this.content.revision(s.space.id, s.revisionId));
      const shown = locate(tree, pageId);
      if (!shown) throw new NotFoundError('Page', pageId);
      const document = await this.content.pageDocument(s.space, shown.node);
      const refs = refMode === 'stable' ? refToUrl : relativeRefs(tree, shown.path);
      return pageWithBody(shown.node, shown.path, s.appBase, links, document && this.shownDocument(s, document), format, refs);
    };
    if (s.actor.reader) return Buffer.from(JSON.stringify(await body()), 'utf8');
    return this.cached(this.keyOf(s, links, 'page', pageId, format, format === 'markdown' ? refMode : ''), body);
  }

  /**
   * A page by its path (official getPageByPath, getPageInRevisionByPath, getPageInChangeRequestByPath):
   * the same answer as by id. `pagePath` is the page's slugs joined by `/` (leading and trailing `/`
   * ignored), given as path segments or as one encoded segment (`guide%2Fsetup`).
   */
  async pageJsonByPath(s: RevisionScope, pagePath: string | string[], q: PageQueryDto, links: Links): Promise<Buffer> {
    const path = (Array.isArray(pagePath) ? pagePath.join('/') : pagePath).replace(/^\/+|\/+$/g, '');
    const revision = await this.content.revision(s.space.id, s.revisionId);
    const found = path ? locateByPath(await this.shownTree(s, revision), path) : null;
    if (!found) throw new NotFoundError('Page', path || '/');
    return this.pageJson(s, found.node.id, q, links);
  }

  /** The revision's page tree as the caller sees it: all of it, or for a site's visitor the pages their claims leave. */
  private async shownTree(s: RevisionScope, revision: Revision): Promise<PageTree> {
    const reader = s.actor.reader;
    if (!reader) return revision.tree;
    const shown = await reader.pages(s.space.id);
    // Their conditions are left out too: they name the claims and the rules that decide what visitors see.
    const prune = (nodes: PageTree): PageTree =>
      nodes.flatMap(({ condition: _condition, ...n }) => (shown.has(n.id) ? [{ ...n, pages: prune(n.pages) }] : []));
    return prune(revision.tree);
  }

  /**
   * A page's body as the published site renders it (the site renderer, the same blocks and HTML), for the web
   * app's reading and preview (#50): pages link to their screens in the app, files to their signed downloads,
   * and links that lead nowhere are marked as broken (the app is for members). Sanitized by construction.
   */
  async pageHtml(s: RevisionScope, pageId: string, links: Links): Promise<RenderedPage> {
    const { revision, node, document } = await this.content.page(s.space, s.revisionId, pageId);
    const nodes = document?.nodes ?? [];
    await this.prepare(nodes);
    return { object: 'rendered-page', id: node.id, title: node.title, html: nodes.length ? this.htmlOf(s, revision, links, nodes) : '' };
  }

  /**
   * Markdown not yet written, rendered as `pageId` would show it in this revision (the editor's live preview,
   * #50): its links resolve against the page's place in the tree, as a write of that markdown would resolve
   * them. Nothing is stored. Invalid markdown (front matter that does not parse) is a 400, as the write's.
   */
  async pagePreview(s: RevisionScope, pageId: string, markdown: string, links: Links): Promise<RenderedPage> {
    const { revision, node, path } = await this.content.page(s.space, s.revisionId, pageId);
    const parentPath = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    // Resolved as a write of this markdown resolves it (ContentChanges: no refs of a batch, no repository).
    const parsed = markdownToDocument(markdown, linkResolver(pathIndex(revision.tree), new Map(), parentPath), { titleFromHeading: true });
    await this.prepare(parsed.document.nodes);
    return {
      object: 'rendered-page',
      id: node.id,
      title: (parsed.meta.title ?? parsed.leadingTitle)?.trim() || node.title, // as a write of it would title the page
      html: this.htmlOf(s, revision, links, parsed.document.nodes),
    };
  }

  /**
   * A document that belongs to no page (a change request's description, #50) read in this revision: as markdown
   * for an editor (page links written as `./path.md` from the space's root) and as HTML as the site renders it.
   */
  async looseDocument(s: RevisionScope, document: JsonDocument | null, links: Links): Promise<{ markdown: string; html: string }> {
    const revision = await this.content.revision(s.space.id, s.revisionId);
    const nodes = document?.nodes ?? [];
    if (!nodes.length) return { markdown: '', html: '' };
    try {
      await this.prepare(nodes);
      return {
        markdown: documentToMarkdown({ object: 'document', data: {}, nodes }, relativeRefs(revision.tree, '')),
        html: this.htmlOf(s, revision, links, nodes),
      };
    } catch {
      // A document stored before documents were checked, that neither the writer nor the renderer can read:
      // read as empty (writing a new one replaces it), rather than failing the screen.
      return { markdown: '', html: '' };
    }
  }

  /** Markdown made a document that belongs to no page: its links resolved from the space's root in this revision. */
  async looseDocumentFromMarkdown(s: RevisionScope, markdown: string): Promise<JsonDocument> {
    const revision = await this.content.revision(s.space.id, s.revisionId);
    return markdownToDocument(markdown, linkResolver(pathIndex(revision.tree), new Map(), '')).document;
  }

  /**
   * A page's change as rendered blocks (#50): its top-level blocks in `s.revisionId` against `against` (a change
   * request's base), aligned by content as the block changes of "what changed" are, each block rendered by the
   * site renderer and marked unchanged, added or deleted. A page created has only added blocks; a page
   * deleted, only deleted ones; a page in neither is a 404.
   */
  async pageDiff(s: RevisionScope, pageId: string, against: string, links: Links): Promise<RenderedPageDiff> {
    const side = async (revisionId: string) => {
      const revision = await this.content.revision(s.space.id, revisionId);
      const found = locate(revision.tree, pageId);
      if (!found) return null;
      const docs = found.node.document
        ? await this.content.documents(s.space.organizationId, [found.node.document])
        : new Map<string, JsonDocument>();
      return {
        revision,
        node: found.node,
        blocks: ((found.node.document && docs.get(found.node.document)) || { nodes: [] }).nodes as DocBlock[],
      };
    };
    const [before, after] = await Promise.all([side(against), side(s.revisionId)]);
    if (!before && !after) throw new NotFoundError('Page', pageId);
    const render = (side: NonNullable<typeof before>, block: DocBlock) => this.htmlOf(s, side.revision, links, [block]);
    await this.prepare([...(before?.blocks ?? []), ...(after?.blocks ?? [])]);
    const blocks: RenderedPageDiff['blocks'] = [];
    const old = before?.blocks ?? [];
    const cur = after?.blocks ?? [];
    let c = 0;
    const same = (until: number) => {
      for (; c < until; c++) blocks.push({ change: 'unchanged', html: render(after!, cur[c]) });
    };
    for (const hunk of alignBlocks(old, cur)) {
      same(hunk.at);
      for (const item of hunk.items)
        if (item.target !== undefined) blocks.push({ change: 'deleted', html: render(before!, old[item.target]) });
      for (const item of hunk.items)
        if (item.current !== undefined) blocks.push({ change: 'added', html: render(after!, cur[item.current]) });
      c += hunk.length;
    }
    same(cur.length);
    const node = (after ?? before)!.node;
    return {
      object: 'rendered-page-diff',
      id: node.id,
      title: node.title,
      change: !before
        ? 'created'
        : !after
          ? 'deleted'
          : blocks.every((b) => b.change === 'unchanged') && before.node.title === after.node.title
            ? 'unchanged'
            : 'edited',
      ...(before && after && before.node.title !== after.node.title ? { titleBefore: before.node.title } : {}),
      blocks,
    };
  }

  /**
   * Blocks of a revision as the published site renders them (the site renderer, the same blocks and HTML),
   * for the web app's reading, preview and diff (#50): pages link to their screens in the app, files to their
   * signed downloads, and links that lead nowhere are marked as broken (the app is for members). Sanitized by
   * construction.
   */
  /** The highlighter made ready for the code of these blocks (grammars load once, on first use). */
  private prepare(nodes: JsonDocument['nodes']): Promise<void> {
    return this.highlighter.prepare(codeSyntaxes({ object: 'document', data: {}, nodes }));
  }

  /** Blocks rendered, after `prepare` (their code highlighted in classes, as on the published site). */
  private htmlOf(s: RevisionScope, revision: Revision, links: Links, nodes: JsonDocument['nodes']): string {
    const now = this.clock.now().getTime();
    const href = (ref: ContentRef): string | null => {
      switch (ref.kind) {
        case 'page': {
          const found = locate(revision.tree, ref.page);
          return found ? links.app(`${s.appBase}/${found.path}${ref.anchor ? `#${encodeURIComponent(ref.anchor)}` : ''}`) : null;
        }
        case 'file': {
          const file = revision.files.find((f) => f.id === ref.file);
          return file ? links.api(this.files.downloadPath(s.space.organizationId, file, now)) : null;
        }
        case 'url':
          return /^(https?:|mailto:)/i.test(ref.url) ? ref.url : null;
        case 'anchor':
          return `#${encodeURIComponent(ref.anchor)}`;
        default:
          return null;
      }
    };
    const title = (ref: ContentRef) => (ref.kind === 'page' ? (locate(revision.tree, ref.page)?.node.title ?? null) : null);
    const renderer = new DocumentRenderer({ href, title }, { markBroken: true, highlighter: this.highlighter });
    return render(h(Fragment, null, renderer.render({ object: 'document', data: {}, nodes })));
  }

  /** A page's body as the official JSONDocument (an empty document for a page without one). */
  async pageDocument(s: RevisionScope, pageId: string) {
    const reader = s.actor.reader;
    if (reader && !locate(await this.shownTree(s, await this.content.revision(s.space.id, s.revisionId)), pageId))
      throw new NotFoundError('Page', pageId);
    const { document } = await this.content.page(s.space, s.revisionId, pageId);
    return this.shownDocument(s, document ?? { object: 'document', data: {}, nodes: [] });
  }

  /** A document as the caller sees it: whole, or for a site's visitor with its conditional blocks decided by their claims. */
  private shownDocument(s: RevisionScope, document: JsonDocument): JsonDocument {
    const reader = s.actor.reader;
    return reader ? evaluateConditions(document, (e) => reader.holds(e)) : document;
  }

  async fileList(s: RevisionScope, q: ListQueryDto, links: Links) {
    const rev = await this.content.revision(s.space.id, s.revisionId);
    return filesPage(rev.files, q, (f) =>
      fileDto(f, this.files.downloadPath(s.space.organizationId, f, this.clock.now().getTime()), links),
    );
  }

  async file(s: RevisionScope, fileId: string, links: Links) {
    const rev = await this.content.revision(s.space.id, s.revisionId);
    const file = rev.files.find((f) => f.id === fileId);
    if (!file) throw new NotFoundError('File', fileId);
    return fileDto(file, this.files.downloadPath(s.space.organizationId, file, this.clock.now().getTime()), links);
  }

  /** A reusable content of the revision (the official RevisionReusableContent). */
  async reusableContent(s: RevisionScope, reusableContentId: string) {
    return reusableContentDto(await this.findReusable(s, reusableContentId));
  }

  private async findReusable(s: RevisionScope, reusableContentId: string) {
    const rev = await this.content.revision(s.space.id, s.revisionId);
    const found = (rev.reusableContents ?? []).find((r) => r.id === reusableContentId);
    if (!found) throw new NotFoundError('Reusable content', reusableContentId);
    return found;
  }

  /** A reusable content's document (an empty document when it has none). A site's visitor reaches none (docs/published-sites.md). */
  async reusableContentDocument(s: RevisionScope, reusableContentId: string): Promise<JsonDocument> {
    const found = await this.findReusable(s, reusableContentId);
    if (!found.document) return { object: 'document', data: {}, nodes: [] };
    const docs = await this.content.documents(s.space.organizationId, [found.document]);
    return docs.get(found.document) ?? { object: 'document', data: {}, nodes: [] };
  }

  async fileBacklinks(s: RevisionScope, fileId: string, q: ListQueryDto, links: Links) {
    const page = await this.linksService.fileBacklinks(s.space, s.revisionId, fileId, q.toPageRequest());
    return backlinksResponse(page, await this.locationContext(s, links));
  }

  /** Every link of the revision (`fromPage`: of one page), with status and stats. */
  async links(s: RevisionScope, q: LinksQueryDto & { brokenContext?: 'change-request' | 'space' }, links: Links, fromPage?: string) {
    const options = {
      appOrigin: links.app(''),
      status: q.status,
      ...(q.brokenContext ? { brokenContext: q.brokenContext } : {}),
      ...(fromPage ? { fromPage } : {}),
      ...(s.linksBase ? { base: s.linksBase } : {}),
    };
    const page = await this.linksService.list(s.space, s.revisionId, options, q.toPageRequest());
    return linksResponse(page, await this.locationContext(s, links));
  }

  async pageBacklinks(s: RevisionScope, pageId: string, q: ListQueryDto, links: Links) {
    const page = await this.linksService.backlinks(s.space, s.revisionId, pageId, q.toPageRequest());
    return backlinksResponse(page, await this.locationContext(s, links));
  }

  /** The organization and space objects that official ContentLocations embed. */
  private async locationContext(s: RevisionScope, links: Links): Promise<LocationContext> {
    const org = await this.organizations.get(s.actor, s.space.organizationId);
    return {
      organization: toOrganizationDto(org.organization, org.role, links, org.ownTeam),
      space: toSpaceDto(s.space, s.role, links),
      base: s.appBase,
      links,
    };
  }
}
