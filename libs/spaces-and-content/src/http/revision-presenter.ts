import { Injectable } from '@nestjs/common';
import { OrganizationsService } from '@app/organizations-and-teams';
import { Actor, Clock, NotFoundError, Role } from '@app/shared-kernel';
import { Links, ListQueryDto, ReadCacheSettings, RenderedJson } from '@app/http-kit';
import { ContentService } from '../application/content.service';
import { FilesService } from '../application/files.service';
import { LinksService } from '../application/links.service';
import { RevisionChanges } from '../application/revision-changes';
import { refToUrl, locateByPath, locate } from '@app/content-model';
import type { ContentRef } from '@app/content-model';
import { DocumentRenderer } from '@app/site-renderer';
import { Fragment, h } from 'preact';
import { render } from 'preact-render-to-string';
import type { JsonDocument } from '@app/content-model';
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
  ) {
    this.rendered = new RenderedJson(settings.maxBytes, 'rendered-content');
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
    const mergedFrom = rev.mergedFrom && origin ? await origin(rev.mergedFrom) : null;
    return revisionDto(rev, s.appBase, links, mergedFrom);
  }

  /** The page tree as JSON text (cached: a 5,000-page tree is rendered once per revision). */
  async pagesJson(s: RevisionScope, links: Links): Promise<Buffer> {
    return this.cached(this.keyOf(s, links, 'pages'), async () => ({
      pages: pagesDto((await this.content.revision(s.space.id, s.revisionId)).tree, s.appBase, links),
    }));
  }

  /** A page with its body (document or markdown), as JSON text; cached per revision, page, format and ref mode. */
  async pageJson(s: RevisionScope, pageId: string, q: PageQueryDto, links: Links): Promise<Buffer> {
    const format = q.format ?? 'document';
    const refMode = q['format.markdown.refs'] === 'stable' ? 'stable' : 'relative';
    return this.cached(this.keyOf(s, links, 'page', pageId, format, format === 'markdown' ? refMode : ''), async () => {
      const { revision, node, path, document } = await this.content.page(s.space, s.revisionId, pageId);
      const refs = refMode === 'stable' ? refToUrl : relativeRefs(revision.tree, path);
      return pageWithBody(node, path, s.appBase, links, document, format, refs);
    });
  }

  /**
   * A page by its path (official getPageByPath, getPageInRevisionByPath, getPageInChangeRequestByPath):
   * the same answer as by id. `pagePath` is the page's slugs joined by `/` (leading and trailing `/`
   * ignored), given as path segments or as one encoded segment (`guide%2Fsetup`).
   */
  async pageJsonByPath(s: RevisionScope, pagePath: string | string[], q: PageQueryDto, links: Links): Promise<Buffer> {
    const path = (Array.isArray(pagePath) ? pagePath.join('/') : pagePath).replace(/^\/+|\/+$/g, '');
    const revision = await this.content.revision(s.space.id, s.revisionId);
    const found = path ? locateByPath(revision.tree, path) : null;
    if (!found) throw new NotFoundError('Page', path || '/');
    return this.pageJson(s, found.node.id, q, links);
  }

  /**
   * A page's body as the published site renders it (the site renderer, the same blocks and HTML), for the web
   * app's reading and preview (#50): pages link to their screens in the app, files to their signed downloads,
   * and links that lead nowhere are marked as broken (the app is for members). Sanitized by construction.
   */
  async pageHtml(
    s: RevisionScope,
    pageId: string,
    links: Links,
  ): Promise<{ object: 'rendered-page'; id: string; title: string; html: string }> {
    const { revision, node, document } = await this.content.page(s.space, s.revisionId, pageId);
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
    const renderer = new DocumentRenderer({ href, title }, { markBroken: true });
    const html = document ? render(h(Fragment, null, renderer.render(document))) : '';
    return { object: 'rendered-page', id: node.id, title: node.title, html };
  }

  /** A page's body as the official JSONDocument (an empty document for a page without one). */
  async pageDocument(s: RevisionScope, pageId: string) {
    const { document } = await this.content.page(s.space, s.revisionId, pageId);
    return document ?? { object: 'document', data: {}, nodes: [] };
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

  /** A reusable content's document (an empty document when it has none). */
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
