import { Injectable } from '@nestjs/common';
import { NotFoundError, Page, PageRequest, pageInMemory } from '@app/shared-kernel';
import { ExtractedLink, LinkStatus, linkStatus } from '@app/content-model';
import { Revision, RevisionRepository } from '../domain/content/revision';
import { PageNode, walk } from '@app/content-model';
import type { Space } from '../domain/space';

export interface PageLocation {
  node: PageNode;
  path: string;
}

export interface LinkUsage {
  key: string;
  link: ExtractedLink;
  status: LinkStatus;
  /** The target page when it exists in the revision. */
  target: PageLocation | null;
  locations: PageLocation[];
}

export interface LinksPage extends Page<LinkUsage> {
  stats: { total: number; broken: { total: number; changeRequest?: number } };
}

function keyOf(l: ExtractedLink): string {
  return `${l.kind}:${l.target}${l.anchor ? `#${l.anchor}` : ''}`;
}

/** Links and backlinks of a revision, computed from the links extracted when bodies were written. */
@Injectable()
export class LinksService {
  constructor(private readonly revisions: RevisionRepository) {}

  private pages(rev: Revision): Map<string, PageLocation> {
    const m = new Map<string, PageLocation>();
    walk(rev.tree, (l) => m.set(l.node.id, { node: l.node, path: l.path }));
    return m;
  }

  private async usages(space: Space, rev: Revision, appOrigin: string, fromPage?: string): Promise<LinkUsage[]> {
    const pages = this.pages(rev);
    const sources = [...pages.values()].filter((p) => p.node.document && (!fromPage || p.node.id === fromPage));
    const links = await this.revisions.links(
      space.organizationId,
      sources.map((p) => p.node.document!),
    );
    const byKey = new Map<string, LinkUsage>();
    for (const source of sources) {
      for (const link of links.get(source.node.document!) ?? []) {
        const key = keyOf(link);
        let usage = byKey.get(key);
        if (!usage) {
          const status = linkStatus(link, new Set(pages.keys()), new Set(rev.files.map((f) => f.id)), appOrigin);
          usage = { key, link, status, target: link.kind === 'page' ? (pages.get(link.target) ?? null) : null, locations: [] };
          byKey.set(key, usage);
        }
        if (!usage.locations.some((l) => l.node.id === source.node.id)) usage.locations.push(source);
      }
    }
    return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * GET …/links: every link target of the revision with its status and where it appears.
   * With `base` (a change request's base revision), `stats.broken.changeRequest` counts links broken
   * in this revision that were not broken in the base.
   */
  async list(
    space: Space,
    revisionId: string,
    options: { appOrigin: string; fromPage?: string; status?: LinkStatus; base?: string; brokenContext?: 'change-request' | 'space' },
    page: PageRequest,
  ): Promise<LinksPage> {
    const rev = await this.revisions.find(space.id, revisionId);
    if (!rev) throw new NotFoundError('Revision', revisionId);
    if (options.fromPage && !this.pages(rev).has(options.fromPage)) throw new NotFoundError('Page', options.fromPage);
    const all = await this.usages(space, rev, options.appOrigin, options.fromPage);
    const broken = all.filter((u) => u.status === 'broken');
    const stats: LinksPage['stats'] = { total: all.length, broken: { total: broken.length } };
    // In a change request (`base`: the revision it started from), a broken link is the change request's when it was not broken there.
    let brokenBefore: Set<string> | null = null;
    if (options.base) {
      const baseRev = await this.revisions.find(space.id, options.base);
      brokenBefore = baseRev
        ? new Set(
            (await this.usages(space, baseRev, options.appOrigin, options.fromPage)).filter((u) => u.status === 'broken').map((u) => u.key),
          )
        : new Set<string>();
      stats.broken.changeRequest = broken.filter((u) => !brokenBefore!.has(u.key)).length;
    }
    let filtered = options.status ? all.filter((u) => u.status === options.status) : all;
    // `brokenContext`: only broken links, those the change request broke or those already broken in the space.
    if (options.brokenContext) {
      const inSpace = (key: string) => brokenBefore === null || brokenBefore.has(key);
      const ours = options.brokenContext === 'change-request';
      filtered = filtered.filter((u) => u.status === 'broken' && inSpace(u.key) !== ours);
    }
    return { ...pageInMemory(filtered, (u) => u.key, page), stats };
  }

  /** GET …/files/{fileId}/backlinks: the pages of the revision that link to or show the file. */
  async fileBacklinks(space: Space, revisionId: string, fileId: string, page: PageRequest): Promise<Page<PageLocation>> {
    const rev = await this.revisions.find(space.id, revisionId);
    if (!rev) throw new NotFoundError('Revision', revisionId);
    if (!rev.files.some((f) => f.id === fileId)) throw new NotFoundError('File', fileId);
    return this.linking(rev, await this.revisions.hashesLinkingTo(space.organizationId, 'file', fileId), page);
  }

  private linking(rev: Revision, hashes: Set<string>, page: PageRequest): Page<PageLocation> {
    const pages = this.pages(rev);
    return pageInMemory(
      [...pages.values()].filter((p) => p.node.document && hashes.has(p.node.document)),
      (p) => p.path,
      page,
    );
  }

  /** GET …/page/{pageId}/backlinks: the pages of the revision that link to the page. */
  async backlinks(space: Space, revisionId: string, pageId: string, page: PageRequest): Promise<Page<PageLocation>> {
    const rev = await this.revisions.find(space.id, revisionId);
    if (!rev) throw new NotFoundError('Revision', revisionId);
    if (!this.pages(rev).has(pageId)) throw new NotFoundError('Page', pageId);
    return this.linking(rev, await this.revisions.hashesLinkingTo(space.organizationId, 'page', pageId), page);
  }
}
