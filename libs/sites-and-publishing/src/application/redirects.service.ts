import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  UnitOfWork,
} from '@app/shared-kernel';
import { locateByPath, pathOf } from '@app/content-model';
import { ContentService, SpacesService } from '@app/spaces-and-content';
import { Access } from '@app/access';
import {
  checkExternalUrl,
  checkSource,
  matchRedirect,
  RedirectDestination,
  RedirectDestinationInput,
  redirectTarget,
  RedirectListFilter,
  REDIRECTS_MAX,
  SiteRedirect,
  SiteRedirects,
} from '../domain/redirects';
import { sections, Site, siteSpaces } from '../domain/site';
import { SiteRepository } from '../domain/site-repository';
import { SITE_ROLES, SitesService } from './sites.service';

export interface RedirectInput {
  source: string;
  destination: RedirectDestinationInput;
  captureWildcard?: boolean;
  draft?: boolean;
  permanent?: boolean;
}

export interface RedirectPatch {
  source?: string;
  destination?: RedirectDestination;
  captureWildcard?: boolean;
  draft?: boolean;
  permanent?: boolean;
}

/** One item of a bulk request (official `bulkUpsertSiteRedirects`): upsert or delete (`destination: null`), or publish a draft. */
export type BulkItem =
  | { source: string; intent: 'publish' }
  | {
      source: string;
      intent?: 'live' | 'draft';
      destination: RedirectDestinationInput | null;
      captureWildcard?: boolean;
      permanent?: boolean;
    };

export type BulkResult =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

/** Reading redirects needs the site's `read` role; writing them, the role that edits its structure. */
export const REDIRECT_ROLES = { read: SITE_ROLES.read, write: SITE_ROLES.structure } as const;

/**
 * Site redirects (the official operations): sources below the site's root to a section, a site space,
 * a page or an external URL; live or draft. Writes take the site's row lock (the per-site limit holds,
 * nothing half-written) and move its version, so visitors see a change on their next request.
 */
@Injectable()
export class RedirectsService {
  constructor(
    private readonly sites: SiteRepository,
    private readonly redirects: SiteRedirects,
    private readonly siteAccess: SitesService,
    private readonly access: Access,
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async list(
    actor: Actor,
    organizationId: string,
    siteId: string,
    filter: RedirectListFilter,
    page: PageRequest,
  ): Promise<Page<SiteRedirect>> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, REDIRECT_ROLES.read);
    const site = await this.siteAccess.found(organizationId, siteId);
    return this.redirects.list(site.id, filter, page);
  }

  /** The live redirect a source path answers to (exact, else the longest wildcard) and where it sends. */
  async bySource(
    actor: Actor,
    organizationId: string,
    siteId: string,
    source: string,
    rootOf: (site: Site) => string,
    shareKey?: string,
  ): Promise<{ redirect: SiteRedirect; target: string }> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, REDIRECT_ROLES.read);
    const site = await this.siteAccess.found(organizationId, siteId);
    if (shareKey !== undefined) await this.siteAccess.requireShareKey(organizationId, siteId, shareKey);
    const found = matchRedirect(await this.redirects.live(site.id), checkSource(source));
    if (!found) throw new NotFoundError('Site redirect', source);
    const target = await this.target(site, found.redirect, found.rest, rootOf(site));
    if (target === null) throw new NotFoundError('Site redirect destination', source);
    // A share key resolves the published URL for whoever holds it: a URL of the site carries it (an external one does not).
    const withKey = shareKey !== undefined && target.startsWith(rootOf(site));
    return { redirect: found.redirect, target: withKey ? withQuery(target, 'shareKey', shareKey) : target };
  }

  /** Where a redirect sends (null: its destination is gone), from the site's root URL. */
  async target(site: Site, redirect: SiteRedirect, rest: string, root: string): Promise<string | null> {
    let pagePath: string | null = null;
    if (redirect.destination.kind === 'site-page')
      pagePath = await this.pagePath(site, redirect.destination.siteSpaceId, redirect.destination.pageId);
    return redirectTarget(redirect, rest, root, site.structure, () => pagePath);
  }

  async create(actor: Actor, organizationId: string, siteId: string, input: RedirectInput): Promise<SiteRedirect> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, REDIRECT_ROLES.write);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      await this.roomFor(site, 1);
      const redirect: SiteRedirect = {
        id: this.ids.next(),
        organizationId,
        siteId: site.id,
        source: checkSource(input.source),
        draft: input.draft ?? false,
        captureWildcard: input.captureWildcard ?? false,
        permanent: input.permanent ?? false,
        destination: await this.destination(site, input.destination),
        createdAt: this.clock.now(),
        updatedAt: null,
      };
      if (!(await this.redirects.insert(redirect)))
        throw new ConflictError(`The site already has a ${redirect.draft ? 'draft' : 'live'} redirect from ${redirect.source}`);
      return redirect;
    });
  }

  async update(actor: Actor, organizationId: string, siteId: string, redirectId: string, patch: RedirectPatch): Promise<SiteRedirect> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, REDIRECT_ROLES.write);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      const before = await this.redirects.find(site.id, redirectId);
      if (!before) throw new NotFoundError('Site redirect', redirectId);
      const next: SiteRedirect = {
        ...before,
        source: patch.source !== undefined ? checkSource(patch.source) : before.source,
        draft: patch.draft ?? before.draft,
        captureWildcard: patch.captureWildcard ?? before.captureWildcard,
        permanent: patch.permanent ?? before.permanent,
        destination: patch.destination !== undefined ? await this.destination(site, patch.destination) : before.destination,
        updatedAt: this.clock.now(),
      };
      if (!(await this.redirects.update(next)))
        throw new ConflictError(`The site already has a ${next.draft ? 'draft' : 'live'} redirect from ${next.source}`);
      return next;
    });
  }

  async delete(actor: Actor, organizationId: string, siteId: string, redirectId: string): Promise<'deleted' | 'absent'> {
    if ((await this.access.roleOf(organizationId, actor)) === null) return 'absent';
    if (!(await this.sites.find(organizationId, siteId))) return 'absent';
    await this.siteAccess.siteRole(organizationId, actor, siteId, REDIRECT_ROLES.write);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      return (await this.redirects.delete(site.id, redirectId)) ? 'deleted' : 'absent';
    });
  }

  /**
   * Up to 500 operations, each on its own: its result says created, updated, deleted, published or the
   * error it met (a bad destination is that item's error, not the request's). All in one transaction
   * under the site's lock.
   */
  async bulk(actor: Actor, organizationId: string, siteId: string, items: BulkItem[]): Promise<BulkResult[]> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, REDIRECT_ROLES.write);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      let count = await this.redirects.count(site.id);
      const results: BulkResult[] = [];
      for (const item of items) {
        const draft = item.intent === 'draft';
        try {
          checkSource(item.source, 'redirects[].source');
          if (item.intent === 'publish') {
            const drafted = await this.redirects.findBySource(site.id, item.source, true);
            if (!drafted) throw new NotFoundError('Draft redirect', item.source);
            const live = await this.redirects.findBySource(site.id, item.source, false);
            await this.redirects.delete(site.id, drafted.id);
            const now = this.clock.now();
            if (live) {
              await this.redirects.update({ ...drafted, id: live.id, createdAt: live.createdAt, draft: false, updatedAt: now });
              count--;
              results.push({ status: 'published', source: item.source, draft: false, id: live.id });
            } else {
              await this.redirects.insert({ ...drafted, draft: false, updatedAt: now });
              results.push({ status: 'published', source: item.source, draft: false, id: drafted.id });
            }
            continue;
          }
          const existing = await this.redirects.findBySource(site.id, item.source, draft);
          if (item.destination === null) {
            if (existing) {
              await this.redirects.delete(site.id, existing.id);
              count--;
            }
            results.push({ status: 'deleted', source: item.source, draft });
            continue;
          }
          const destination = await this.destination(site, item.destination);
          if (existing) {
            await this.redirects.update({
              ...existing,
              destination,
              captureWildcard: item.captureWildcard ?? existing.captureWildcard,
              permanent: item.permanent ?? existing.permanent,
              updatedAt: this.clock.now(),
            });
            results.push({ status: 'updated', source: item.source, draft, id: existing.id });
          } else {
            if (count >= REDIRECTS_MAX) throw new InvalidInputError(`A site has at most ${REDIRECTS_MAX} redirects`);
            const created: SiteRedirect = {
              id: this.ids.next(),
              organizationId,
              siteId: site.id,
              source: item.source,
              draft,
              captureWildcard: item.captureWildcard ?? false,
              permanent: item.permanent ?? false,
              destination,
              createdAt: this.clock.now(),
              updatedAt: null,
            };
            await this.redirects.insert(created);
            count++;
            results.push({ status: 'created', source: item.source, draft, id: created.id });
          }
        } catch (e) {
          if (!(e instanceof InvalidInputError || e instanceof NotFoundError)) throw e;
          results.push({ status: 'error', source: item.source, draft, error: e.message });
        }
      }
      return results;
    });
  }

  /** A destination checked against the site as it is (a `path` becomes the page it names). */
  private async destination(site: Site, input: RedirectDestinationInput): Promise<RedirectDestination> {
    switch (input.kind) {
      case 'external':
        return { kind: 'external', url: checkExternalUrl(input.url) };
      case 'site-section':
        if (!sections(site.structure).some((s) => s.id === input.siteSectionId))
          throw new InvalidInputError(`destination.siteSectionId: the site has no section ${input.siteSectionId}`);
        return { kind: 'site-section', siteSectionId: input.siteSectionId };
      case 'site-space':
        if (!siteSpaces(site.structure).some((s) => s.node.id === input.siteSpaceId))
          throw new InvalidInputError(`destination.siteSpaceId: the site has no site space ${input.siteSpaceId}`);
        return { kind: 'site-space', siteSpaceId: input.siteSpaceId };
      case 'site-page':
        if ((await this.pagePath(site, input.siteSpaceId, input.pageId)) === null)
          throw new InvalidInputError(`destination: site space ${input.siteSpaceId} of the site has no page ${input.pageId}`);
        return { kind: 'site-page', siteSpaceId: input.siteSpaceId, pageId: input.pageId };
      case 'path': {
        const shown = siteSpaces(site.structure).find((s) => s.node.spaceId === input.spaceId);
        const space = shown ? await this.spaces.find(input.spaceId) : null;
        if (!shown || !space || space.deletedAt !== null)
          throw new InvalidInputError(`destination.spaceId: the site shows no space ${input.spaceId}`);
        const revision = await this.content.revision(space.id, space.revision);
        const found = locateByPath(revision.tree, input.path.replace(/^\/+|\/+$/g, ''));
        if (!found) throw new InvalidInputError(`destination.path: space ${input.spaceId} has no page at "${input.path}"`);
        return { kind: 'site-page', siteSpaceId: shown.node.id, pageId: found.node.id };
      }
    }
  }

  /** A page's path in its site space's current content; null when either is gone. */
  private async pagePath(site: Site, siteSpaceId: string, pageId: string): Promise<string | null> {
    const shown = siteSpaces(site.structure).find((s) => s.node.id === siteSpaceId);
    const space = shown ? await this.spaces.find(shown.node.spaceId) : null;
    if (!space || space.deletedAt !== null) return null;
    return pathOf((await this.content.revision(space.id, space.revision)).tree, pageId);
  }

  private async roomFor(site: Site, more: number): Promise<void> {
    if ((await this.redirects.count(site.id)) + more > REDIRECTS_MAX)
      throw new InvalidInputError(`A site has at most ${REDIRECTS_MAX} redirects`);
  }
}

/** `url` with one more query parameter, before its fragment. */
function withQuery(url: string, name: string, value: string): string {
  const at = url.indexOf('#');
  const [base, hash] = at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
  return `${base}${base.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}${hash}`;
}
