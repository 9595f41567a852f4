import { Injectable } from '@nestjs/common';
import { Actor, Clock, IdGenerator, NotFoundError, Page, PageRequest, Role, roleAtLeast, UnitOfWork } from '@app/shared-kernel';
import { ShareLink, SiteRepository } from '../domain/site-repository';
import { Site } from '../domain/site';
import { SiteEvents } from './site-events';
import { SITE_ROLES, SitesService } from './sites.service';
import { Access } from '@app/access';

export interface ShareLinkView {
  link: ShareLink;
  site: Site;
  /** Only admins see the secret key (and the URL that carries it). */
  showKey: boolean;
}

/** Share links of a site: members list them, admins create, rename, (de)activate and delete them and see their keys. */
@Injectable()
export class ShareLinksService {
  constructor(
    private readonly sites: SiteRepository,
    private readonly access: Access,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: SiteEvents,
    private readonly siteAccess: SitesService,
  ) {}

  /** `search`: names containing it; keys equal to it only for those who may see keys (a reader cannot probe for one). */
  async list(actor: Actor, organizationId: string, siteId: string, page: PageRequest, search?: string): Promise<Page<ShareLinkView>> {
    const role = await this.siteAccess.siteRole(organizationId, actor, siteId, SITE_ROLES.read);
    const site = await this.siteAccess.found(organizationId, siteId);
    const result = await this.sites.listShareLinks(
      site.id,
      page,
      search === undefined ? undefined : { text: search, byKey: showKey(role) },
    );
    return { ...result, items: result.items.map((link) => ({ link, site, showKey: showKey(role) })) };
  }

  async create(actor: Actor, organizationId: string, siteId: string, name: string): Promise<ShareLinkView> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      const link: ShareLink = {
        id: this.ids.next(),
        organizationId,
        siteId: site.id,
        name,
        key: this.ids.next(),
        active: true,
        createdAt: this.clock.now(),
      };
      await this.sites.insertShareLink(link);
      this.events.publish('site.share-link-created', organizationId, actor.userId, { siteId, shareLinkId: link.id });
      return { link, site, showKey: true };
    });
  }

  async update(
    actor: Actor,
    organizationId: string,
    siteId: string,
    shareLinkId: string,
    patch: { name?: string; active?: boolean },
  ): Promise<ShareLinkView> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      const link = await this.sites.findShareLink(site.id, shareLinkId);
      if (!link) throw new NotFoundError('Share link', shareLinkId);
      const next = { ...link, name: patch.name ?? link.name, active: patch.active ?? link.active };
      await this.sites.updateShareLink(next);
      this.events.publish('site.share-link-updated', organizationId, actor.userId, { siteId, shareLinkId });
      return { link: next, site, showKey: true };
    });
  }

  async delete(actor: Actor, organizationId: string, siteId: string, shareLinkId: string): Promise<'deleted' | 'absent'> {
    if ((await this.access.roleOf(organizationId, actor)) === null) return 'absent';
    if (!(await this.sites.find(organizationId, siteId))) return 'absent';
    await this.siteAccess.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
    return this.uow.run(async () => {
      const site = await this.siteAccess.locked(organizationId, siteId);
      if (!(await this.sites.deleteShareLink(site.id, shareLinkId))) return 'absent';
      this.events.publish('site.share-link-deleted', organizationId, actor.userId, { siteId, shareLinkId });
      return 'deleted';
    });
  }
}

const showKey = (role: Role) => roleAtLeast(role, SITE_ROLES.admin);
