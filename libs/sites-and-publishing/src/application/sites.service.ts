import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  pageInMemory,
  Role,
  roleAtLeast,
  UnitOfWork,
} from '@app/shared-kernel';
import { SPACE_TITLE_MAX, SpacesService, SpaceView } from '@app/spaces-and-content';
import { AdaptiveJsonSchema, checkAdaptiveJsonSchema, Condition, templateConditions } from '../domain/adaptive';
import {
  applyOverride,
  checkCustomization,
  checkOverride,
  CustomizationSettings,
  defaultCustomization,
  patchOverride,
} from '../domain/customization';
import * as S from '../domain/site';
import { Site, SiteType, SiteVisibility, Structure } from '../domain/site';
import { scopeOf, spacesInScope, type SiteSearchBody } from '../domain/site-search-scope';
import { PublishingAuth, SHARE_KEY_PATTERN, SiteFilter, SiteRepository } from '../domain/site-repository';
import { SiteEvents, SiteEventType } from './site-events';
import { Access } from '@app/access';
import { SiteStates } from './site-states';

/** A site as the caller sees it, with their organization role (permissions are computed from it). */
export interface SiteView {
  site: Site;
  role: Role;
}

/** A site with the live spaces its site spaces show (for site spaces' `space` and `title`). */
export interface SiteWithSpaces extends SiteView {
  spaces: Map<string, SpaceView>;
}

export interface CreateSiteInput {
  type?: SiteType;
  title?: string;
  visibility?: SiteVisibility;
  spaces?: string[];
}

export interface SitePatch {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string | null;
  hostname?: string | null;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: S.AgentsContext;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  /** null removes the proxy. */
  proxy?: string | null;
}

/** Who may do what (docs/permissions.md): reading needs membership, the structure `create`, settings `admin`. */
export const SITE_ROLES = { read: 'read', structure: 'create', create: 'create', admin: 'admin' } as const satisfies Record<string, Role>;

@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SiteRepository,
    private readonly access: Access,
    private readonly spaces: SpacesService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: SiteEvents,
    private readonly states: SiteStates,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Sites

  async list(actor: Actor, organizationId: string, filter: SiteFilter, page: PageRequest): Promise<Page<SiteView>> {
    const roleOn = await this.access.rolesOnItems(organizationId, actor);
    if (!roleOn) throw new NotFoundError('Organization', organizationId);
    const narrowing = await this.access.itemNarrowing(organizationId, actor);
    const result = await this.sites.list(organizationId, { ...filter, narrowing }, page);
    return { ...result, items: result.items.flatMap((site) => (roleOn(site.id) ? [{ site, role: roleOn(site.id)! }] : [])) };
  }

  async get(actor: Actor, organizationId: string, siteId: string): Promise<SiteView> {
    const role = await this.siteRole(organizationId, actor, siteId, SITE_ROLES.read);
    return { site: await this.found(organizationId, siteId), role };
  }

  /** The site with the spaces it shows; `shareKey`, when given, must open the site (else 404). */
  async getWithSpaces(actor: Actor, organizationId: string, siteId: string, shareKey?: string): Promise<SiteWithSpaces> {
    const view = await this.get(actor, organizationId, siteId);
    if (shareKey !== undefined) await this.requireShareKey(organizationId, siteId, shareKey);
    return { ...view, spaces: await this.spacesOf(actor, view.site) };
  }

  /** The key of an active share link of the site, or a 404 (the same for a wrong key as for a deactivated one). */
  async requireShareKey(organizationId: string, siteId: string, shareKey: string): Promise<void> {
    const state = await this.states.state(siteId);
    const active =
      state?.organizationId === organizationId && SHARE_KEY_PATTERN.test(shareKey) && (await this.sites.shareKeyActive(siteId, shareKey));
    if (!active) throw new NotFoundError('Share link');
  }

  async create(actor: Actor, organizationId: string, input: CreateSiteInput): Promise<SiteWithSpaces> {
    const role = await this.access.require(organizationId, actor, SITE_ROLES.create);
    const spaceIds = [...new Set(input.spaces ?? [])];
    const spaces = await this.liveSpaces(actor, organizationId, spaceIds);
    const structure = S.emptyStructure();
    for (const id of spaceIds) S.addSiteSpace(structure, { id: this.ids.next(), spaceId: id, spaceTitle: spaces.get(id)!.space.title });
    const site: Site = {
      id: this.ids.next(),
      organizationId,
      type: input.type ?? 'basic',
      title: S.checkSiteTitle(input.title ?? 'Untitled site'),
      hostname: null,
      basename: null,
      proxy: null,
      visibility: input.visibility ?? 'public',
      published: false,
      adaptiveContent: false,
      agentsContext: 'included',
      createdAt: this.clock.now(),
      version: 1,
      structure,
    };
    await this.uow.run(async () => {
      await this.sites.insert(site);
      this.events.publish('site.created', organizationId, actor.userId, { siteId: site.id });
    });
    return { site, role, spaces };
  }

  async update(actor: Actor, organizationId: string, siteId: string, patch: SitePatch): Promise<SiteView> {
    const result = await this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.updated', (site) => {
      if (patch.title !== undefined) site.title = S.checkSiteTitle(patch.title);
      if (patch.visibility !== undefined) site.visibility = patch.visibility;
      if (patch.basename !== undefined) site.basename = patch.basename === null ? null : S.checkPath(patch.basename);
      if (patch.hostname !== undefined) {
        if (patch.hostname !== null && !S.HOSTNAME_PATTERN.test(patch.hostname))
          throw new InvalidInputError('hostname must be a lowercase host name with at least three labels (docs.example.com)');
        site.hostname = patch.hostname;
      }
      if (patch.proxy !== undefined) {
        if (patch.proxy !== null && !S.PROXY_PATTERN.test(patch.proxy))
          throw new InvalidInputError('proxy must be a host followed by one or more path segments (example.com/docs)');
        site.proxy = patch.proxy;
      }
      if (patch.adaptiveContent !== undefined) site.adaptiveContent = patch.adaptiveContent.enabled;
      if (patch.agentsContext !== undefined) site.agentsContext = patch.agentsContext;
      if (patch.defaultSiteSection !== undefined) S.setDefaultSection(site.structure, patch.defaultSiteSection);
      if (patch.defaultSiteSpace !== undefined) S.setDefaultSiteSpace(site.structure, patch.defaultSiteSpace);
    });
    return { site: result.site, role: result.role };
  }

  async delete(actor: Actor, organizationId: string, siteId: string): Promise<'deleted' | 'absent'> {
    const role = await this.access.roleOf(organizationId, actor);
    if (role === null) return 'absent';
    const site = await this.sites.find(organizationId, siteId);
    if (!site) return 'absent';
    await this.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
    return this.uow.run(async () => {
      if (!(await this.sites.delete(organizationId, siteId))) return 'absent';
      this.events.publish('site.deleted', organizationId, actor.userId, { siteId });
      return 'deleted';
    });
  }

  async setPublished(actor: Actor, organizationId: string, siteId: string, published: boolean): Promise<SiteView> {
    const { site, role } = await this.mutate(
      actor,
      organizationId,
      siteId,
      SITE_ROLES.admin,
      published ? 'site.published' : 'site.unpublished',
      (s) => {
        s.published = published;
      },
    );
    return { site, role };
  }

  // -------------------------------------------------------------------------------------------
  // Structure: sections, section groups, site spaces

  async addSection(
    actor: Actor,
    organizationId: string,
    siteId: string,
    input: { spaceId: string; title?: string | null; icon?: string | null; siteSectionGroupId?: string },
  ): Promise<{ section: S.SectionNode } & SiteWithSpaces> {
    const [space] = (await this.liveSpaces(actor, organizationId, [input.spaceId])).values();
    const title = input.title ?? sectionTitleFrom(space.space.title);
    const r = await this.mutateStructure(actor, organizationId, siteId, (site) => {
      const section = S.addSection(site.structure, {
        id: this.ids.next(),
        title,
        icon: input.icon ?? undefined,
        siteSpace: { id: this.ids.next(), spaceId: space.space.id, spaceTitle: space.space.title },
      });
      if (input.siteSectionGroupId !== undefined) S.addSectionToGroup(site.structure, input.siteSectionGroupId, section.id);
      return section;
    });
    return { section: r.result, ...r };
  }

  updateSection(actor: Actor, organizationId: string, siteId: string, sectionId: string, patch: S.SectionPatch) {
    if (patch.condition) Condition.parse(patch.condition);
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.updateSection(site.structure, sectionId, patch));
  }

  async deleteSection(actor: Actor, organizationId: string, siteId: string, sectionId: string): Promise<'deleted' | 'absent'> {
    return this.deleteIn(actor, organizationId, siteId, (site) => S.deleteSection(site.structure, sectionId));
  }

  addGroup(
    actor: Actor,
    organizationId: string,
    siteId: string,
    input: { title: string; icon?: string; sections?: string[]; parent?: string },
  ) {
    return this.mutateStructure(actor, organizationId, siteId, (site) =>
      S.addGroup(site.structure, {
        id: this.ids.next(),
        title: input.title,
        icon: input.icon,
        sectionIds: input.sections ?? [],
        parentId: input.parent,
      }),
    );
  }

  updateGroup(actor: Actor, organizationId: string, siteId: string, groupId: string, patch: { title?: string; icon?: string | null }) {
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.updateGroup(site.structure, groupId, patch));
  }

  deleteGroup(actor: Actor, organizationId: string, siteId: string, groupId: string): Promise<'deleted' | 'absent'> {
    return this.deleteIn(actor, organizationId, siteId, (site) => S.deleteGroup(site.structure, groupId));
  }

  addSectionToGroup(actor: Actor, organizationId: string, siteId: string, groupId: string, sectionId: string) {
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.addSectionToGroup(site.structure, groupId, sectionId));
  }

  async removeSectionFromGroup(actor: Actor, organizationId: string, siteId: string, groupId: string, sectionId: string) {
    // The group must exist (404 otherwise); a section that is not in it is a 204 with nothing changed.
    return this.deleteIn(actor, organizationId, siteId, (site) => S.removeSectionFromGroup(site.structure, groupId, sectionId), false);
  }

  async addSiteSpace(actor: Actor, organizationId: string, siteId: string, input: { spaceId: string; sectionId?: string }) {
    const [space] = (await this.liveSpaces(actor, organizationId, [input.spaceId])).values();
    return this.mutateStructure(actor, organizationId, siteId, (site) =>
      S.addSiteSpace(site.structure, {
        id: this.ids.next(),
        spaceId: space.space.id,
        spaceTitle: space.space.title,
        sectionId: input.sectionId,
      }),
    );
  }

  /**
   * Official applyTemplateToSite: an empty site gets a space made from Quire's `product-docs` template (an
   * introduction, guides, a changelog), titled after the site, as its site space. A site that shows a space
   * already is a 400. The caller needs the site's structure role and the right to create a space at the
   * organization's top; the request's one transaction writes the space and the structure, or neither.
   */
  async applyTemplate(actor: Actor, organizationId: string, siteId: string): Promise<void> {
    await this.siteRole(organizationId, actor, siteId, SITE_ROLES.structure);
    const empty = (site: Site) => {
      if (S.spaceIdsOf(site.structure).length > 0)
        throw new InvalidInputError('The site shows spaces already: a template fills an empty site');
    };
    const site = await this.found(organizationId, siteId);
    empty(site);
    // A space's title is shorter than a site's: cut to fit.
    const title = site.title.trim().slice(0, SPACE_TITLE_MAX).trim() || 'Documentation';
    const { space } = await this.spaces.create(actor, organizationId, { title, template: { id: SITE_TEMPLATE } });
    await this.mutateStructure(actor, organizationId, siteId, (locked) => {
      // Checked again under the site's lock: two templates at once give one site space, the other call fails whole.
      empty(locked);
      return S.addSiteSpace(locked.structure, { id: this.ids.next(), spaceId: space.id, spaceTitle: space.title });
    });
  }

  /** Official addExternalLinkToSite: a link at the root or in a group of a site with sections (structure role). */
  addExternalLink(actor: Actor, organizationId: string, siteId: string, input: S.ExternalLinkInput) {
    if (input.condition) Condition.parse(input.condition);
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.addExternalLink(site.structure, this.ids.next(), input));
  }

  updateExternalLink(actor: Actor, organizationId: string, siteId: string, linkId: string, patch: Partial<S.ExternalLinkInput>) {
    if (patch.condition) Condition.parse(patch.condition);
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.updateExternalLink(site.structure, linkId, patch));
  }

  deleteExternalLink(actor: Actor, organizationId: string, siteId: string, linkId: string): Promise<'deleted' | 'absent'> {
    return this.deleteIn(actor, organizationId, siteId, (site) => S.deleteExternalLink(site.structure, linkId));
  }

  /**
   * Official duplicateSiteSpace: a full copy of the site space's space (as duplicateSpace makes it: its content,
   * its sharing, beside it), placed beside the site space (S.duplicateSiteSpace). The caller needs the site's
   * structure role and the right to create a space where the space is; the request's one transaction writes
   * both or neither.
   */
  async duplicateSiteSpace(actor: Actor, organizationId: string, siteId: string, siteSpaceId: string) {
    await this.siteRole(organizationId, actor, siteId, SITE_ROLES.structure);
    const { node } = S.findSiteSpace((await this.found(organizationId, siteId)).structure, siteSpaceId);
    const copy = await this.spaces.duplicate(actor, node.spaceId);
    return this.mutateStructure(actor, organizationId, siteId, (site) =>
      S.duplicateSiteSpace(site.structure, siteSpaceId, {
        siteSpaceId: this.ids.next(),
        sectionId: this.ids.next(),
        spaceId: copy.space.id,
        spaceTitle: copy.space.title,
        sectionTitle: sectionTitleFrom(copy.space.title),
      }),
    );
  }

  async updateSiteSpace(actor: Actor, organizationId: string, siteId: string, siteSpaceId: string, patch: S.SiteSpacePatch) {
    if (patch.condition) Condition.parse(patch.condition);
    if (patch.spaceId !== undefined) await this.liveSpaces(actor, organizationId, [patch.spaceId]);
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.updateSiteSpace(site.structure, siteSpaceId, patch));
  }

  deleteSiteSpace(actor: Actor, organizationId: string, siteId: string, siteSpaceId: string): Promise<'deleted' | 'absent'> {
    return this.deleteIn(actor, organizationId, siteId, (site) => S.deleteSiteSpace(site.structure, siteSpaceId));
  }

  /**
   * The whole structure replaced by another (a site imported from its repository's configuration), and the
   * site's title with it: one write under the site's lock. The spaces it names must be live spaces of the
   * organization the caller sees.
   */
  async replaceStructure(actor: Actor, organizationId: string, siteId: string, structure: S.Structure, title: string) {
    await this.liveSpaces(actor, organizationId, S.spaceIdsOf(structure));
    return this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.structure-changed', (site) => {
      site.structure = S.cloneStructure(structure);
      site.title = S.checkSiteTitle(title);
    });
  }

  /** sortSiteStructure: the deprecated moves of sections, groups and site spaces come here too. */
  sort(
    actor: Actor,
    organizationId: string,
    siteId: string,
    item: S.StructurePointer,
    position: { before?: S.StructurePointer; after?: S.StructurePointer },
  ) {
    return this.mutateStructure(actor, organizationId, siteId, (site) => S.sortStructure(site.structure, item, position));
  }

  // -------------------------------------------------------------------------------------------
  // Settings: adaptive schema and customization

  async adaptiveSchema(actor: Actor, organizationId: string, siteId: string): Promise<{ jsonSchema: AdaptiveJsonSchema; updatedAt: Date }> {
    const { site } = await this.get(actor, organizationId, siteId);
    const { adaptiveSchema } = await this.sites.settings(site.id);
    if (!adaptiveSchema) throw new NotFoundError('Adaptive schema of site', siteId);
    return adaptiveSchema;
  }

  async setAdaptiveSchema(actor: Actor, organizationId: string, siteId: string, jsonSchema: unknown) {
    const checked = checkAdaptiveJsonSchema(jsonSchema);
    const at = this.clock.now();
    await this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.updated', async (site) => {
      await this.sites.setAdaptiveSchema(site.id, checked, at);
    });
    return { jsonSchema: checked, updatedAt: at };
  }

  async templateConditions(actor: Actor, organizationId: string, siteId: string) {
    const { site } = await this.get(actor, organizationId, siteId);
    return templateConditions((await this.sites.settings(site.id)).adaptiveSchema?.jsonSchema ?? null);
  }

  async customization(
    actor: Actor,
    organizationId: string,
    siteId: string,
  ): Promise<{ settings: CustomizationSettings; updatedAt?: Date }> {
    const { site } = await this.get(actor, organizationId, siteId);
    return (await this.sites.settings(site.id)).customization ?? { settings: defaultCustomization() };
  }

  async setCustomization(actor: Actor, organizationId: string, siteId: string, settings: unknown) {
    const checked = checkCustomization(settings);
    const at = this.clock.now();
    await this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.updated', async (site) => {
      await this.sites.setCustomization(site.id, checked, at);
    });
    return { settings: checked, updatedAt: at };
  }

  /** A site space's customization: the site's with its override over it (official getSiteSpaceCustomizationById). */
  async siteSpaceCustomization(
    actor: Actor,
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
  ): Promise<{ settings: CustomizationSettings; updatedAt?: Date; hasOverrides: boolean }> {
    const { site } = await this.get(actor, organizationId, siteId);
    S.findSiteSpace(site.structure, siteSpaceId);
    const settings = await this.sites.settings(site.id);
    const override = settings.siteSpaceCustomizations[siteSpaceId] ?? {};
    return {
      settings: applyOverride(settings.customization?.settings ?? defaultCustomization(), override),
      updatedAt: settings.customization?.updatedAt,
      hasOverrides: Object.keys(override).length > 0,
    };
  }

  /** Patches a site space's override (a value replaces, null resets to the site's; admin). */
  async overrideSiteSpaceCustomization(actor: Actor, organizationId: string, siteId: string, siteSpaceId: string, body: unknown) {
    const patch = checkOverride(body);
    await this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.updated', async (site) => {
      S.findSiteSpace(site.structure, siteSpaceId);
      const current = (await this.sites.settings(site.id)).siteSpaceCustomizations[siteSpaceId] ?? {};
      const next = patchOverride(current, patch);
      await this.sites.setSiteSpaceCustomization(site.id, siteSpaceId, Object.keys(next).length ? next : null);
    });
    return this.siteSpaceCustomization(actor, organizationId, siteId, siteSpaceId);
  }

  /** Removes a site space's override: it shows the site's customization again (admin). */
  async deleteSiteSpaceCustomization(
    actor: Actor,
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
  ): Promise<'deleted' | 'absent'> {
    if ((await this.access.roleOf(organizationId, actor)) === null) return 'absent';
    if (!(await this.sites.find(organizationId, siteId))) return 'absent';
    const { result } = await this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.updated', async (site) => {
      const shown = S.siteSpaces(site.structure).some((x) => x.node.id === siteSpaceId);
      const overrides = (await this.sites.settings(site.id)).siteSpaceCustomizations;
      if (!shown || !overrides[siteSpaceId]) return 'absent' as const;
      await this.sites.setSiteSpaceCustomization(site.id, siteSpaceId, null);
      return 'deleted' as const;
    });
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // Visitor authentication (official getSitePublishingAuthById & co; backend `custom` only)

  /** The key visitor tokens are signed with; made on first read (admins only: it is a secret). */
  async publishingAuth(actor: Actor, organizationId: string, siteId: string): Promise<PublishingAuth> {
    await this.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
    const site = await this.found(organizationId, siteId);
    const existing = await this.sites.publishingAuth(site.id);
    if (existing) return existing;
    return this.changePublishingAuth(actor, organizationId, siteId, (current) => current ?? this.newAuth());
  }

  updatePublishingAuth(
    actor: Actor,
    organizationId: string,
    siteId: string,
    patch: { fallbackURL?: string | null; logoutURL?: string | null },
  ) {
    return this.changePublishingAuth(actor, organizationId, siteId, (current) => {
      const auth = current ?? this.newAuth();
      return {
        ...auth,
        fallbackURL: patch.fallbackURL === undefined ? auth.fallbackURL : patch.fallbackURL,
        logoutURL: patch.logoutURL === undefined ? auth.logoutURL : patch.logoutURL,
      };
    });
  }

  /** A new key: every token signed with the old one stops working at once. */
  regeneratePublishingAuth(actor: Actor, organizationId: string, siteId: string) {
    return this.changePublishingAuth(actor, organizationId, siteId, (current) => ({
      ...(current ?? this.newAuth()),
      privateKey: this.newKey(),
    }));
  }

  private async changePublishingAuth(
    actor: Actor,
    organizationId: string,
    siteId: string,
    change: (current: PublishingAuth | null) => PublishingAuth,
  ): Promise<PublishingAuth> {
    const r = await this.mutate(actor, organizationId, siteId, SITE_ROLES.admin, 'site.updated', async (site) => {
      const next = change(await this.sites.publishingAuth(site.id));
      await this.sites.setPublishingAuth(site.id, next);
      return next;
    });
    return r.result;
  }

  private newKey(): string {
    return `${this.ids.next()}${this.ids.next()}`;
  }

  private newAuth(): PublishingAuth {
    return { privateKey: this.newKey(), fallbackURL: null, logoutURL: null };
  }

  // -------------------------------------------------------------------------------------------

  /** Lists of structure items are short and in structure order: paged in memory by position. */
  /** listSiteSections: the site (with its spaces) and a page of its sections in structure order, each with its group. */
  async listSections(actor: Actor, organizationId: string, siteId: string, shareKey: string | undefined, page: PageRequest) {
    const view = await this.getWithSpaces(actor, organizationId, siteId, shareKey);
    const { structure } = view.site;
    const all = S.sections(structure).map((section) => ({ section, group: S.parentGroupOf(structure, section.id) }));
    return { view, page: SitesService.pageOf(all, page) };
  }

  /** listSiteSectionGroups: the site and a page of its section groups in structure order, each with its parent. */
  async listGroups(actor: Actor, organizationId: string, siteId: string, page: PageRequest) {
    const view = await this.getWithSpaces(actor, organizationId, siteId);
    const { structure } = view.site;
    const all = S.groups(structure).map((group) => ({ group, parent: S.parentGroupOf(structure, group.id) }));
    return { view, page: SitesService.pageOf(all, page) };
  }

  /**
   * listSiteSpaces: the site and a page of its site spaces in structure order (`isDefault`: only the site's
   * default one, or only the others), leaving out those whose space left the site meanwhile.
   */
  async listSiteSpaces(
    actor: Actor,
    organizationId: string,
    siteId: string,
    filter: { shareKey?: string; isDefault?: boolean },
    page: PageRequest,
  ) {
    const view = await this.getWithSpaces(actor, organizationId, siteId, filter.shareKey);
    const all = S.siteSpaces(view.site.structure).filter(
      ({ node, section }) =>
        view.spaces.has(node.spaceId) &&
        (filter.isDefault === undefined || S.isSiteDefault(node.default, section?.default) === filter.isDefault),
    );
    return { view, page: SitesService.pageOf(all, page) };
  }

  static pageOf<T>(items: T[], page: PageRequest): Page<T> {
    const keyed = items.map((item, i) => ({ item, key: String(i).padStart(6, '0') }));
    const result = pageInMemory(keyed, (k) => k.key, page);
    return { ...result, items: result.items.map((k) => k.item) };
  }

  /** The spaces searchSiteContent searches for this body, after the caller's site read role (403/404 otherwise). */
  async searchedSpaces(actor: Actor, organizationId: string, siteId: string, body: SiteSearchBody): Promise<string[]> {
    await this.siteRole(organizationId, actor, siteId, SITE_ROLES.read);
    const site = await this.found(organizationId, siteId);
    return spacesInScope(site.structure, scopeOf(body));
  }

  /** The site (404 when the organization has none of that id); no role check: the caller made it. */
  async found(organizationId: string, siteId: string): Promise<Site> {
    const site = await this.sites.find(organizationId, siteId);
    if (!site) throw new NotFoundError('Site', siteId);
    return site;
  }

  /** The site of that id, in whichever organization (null when none): for a caller that has only the id and decides access itself. */
  byId(siteId: string): Promise<Site | null> {
    return this.sites.findById(siteId);
  }

  /** The site under its row lock, inside a unit of work: writes of its parts (share links, redirects) move its version. */
  async locked(organizationId: string, siteId: string): Promise<Site> {
    const site = await this.sites.findForUpdate(organizationId, siteId);
    if (!site) throw new NotFoundError('Site', siteId);
    return site;
  }

  /** The live spaces of the organization the site may show; one that is not (deleted, elsewhere, unknown) is a 404. */
  private async liveSpaces(actor: Actor, organizationId: string, ids: string[]): Promise<Map<string, SpaceView>> {
    if (ids.length === 0) return new Map();
    const views = await this.spaces.viewsOf(actor, organizationId, ids);
    const missing = ids.find((id) => !views.has(id));
    if (missing !== undefined) throw new NotFoundError('Space', missing);
    return views;
  }

  spacesOf(actor: Actor, site: Site): Promise<Map<string, SpaceView>> {
    return this.spaces.viewsOf(actor, site.organizationId, S.spaceIdsOf(site.structure));
  }

  /**
   * The caller's role on the site: their organization role widened by the roles granted on the site to
   * them or their teams (official inviteToSite); 404 for non-members, 403 below `minimum`.
   */
  async siteRole(organizationId: string, actor: Actor, siteId: string, minimum: Role): Promise<Role> {
    const role = await this.access.roleOnItem(organizationId, actor, siteId, 'Site');
    if (!roleAtLeast(role, minimum)) throw new ForbiddenError(`This needs the "${minimum}" role on the site`);
    return role;
  }

  /** Read, change and write one site under its row lock: nothing half-written, no lost update. */
  private async mutate<T>(
    actor: Actor,
    organizationId: string,
    siteId: string,
    minimum: Role,
    event: SiteEventType,
    change: (site: Site) => T | Promise<T>,
  ): Promise<SiteView & { result: T }> {
    const role = await this.siteRole(organizationId, actor, siteId, minimum);
    return this.uow.run(async () => {
      const before = await this.sites.findForUpdate(organizationId, siteId);
      if (!before) throw new NotFoundError('Site', siteId);
      const site: Site = { ...before, structure: S.cloneStructure(before.structure) };
      const result = await change(site);
      await this.sites.save(before, site);
      site.version += 1;
      this.events.publish(event, organizationId, actor.userId, { siteId });
      return { site, role, result };
    });
  }

  private async mutateStructure<T>(actor: Actor, organizationId: string, siteId: string, change: (site: Site) => T) {
    const r = await this.mutate(actor, organizationId, siteId, SITE_ROLES.structure, 'site.structure-changed', change);
    return { ...r, spaces: await this.spacesOf(actor, r.site) };
  }

  /** A structure delete: 'absent' (204) when the item was not there (nothing is written then). */
  private async deleteIn(
    actor: Actor,
    organizationId: string,
    siteId: string,
    remove: (site: Site) => boolean,
    siteMayBeAbsent = true,
  ): Promise<'deleted' | 'absent'> {
    const role = await this.access.roleOf(organizationId, actor);
    if (role === null) return 'absent';
    if (siteMayBeAbsent && !(await this.sites.find(organizationId, siteId))) return 'absent';
    await this.siteRole(organizationId, actor, siteId, SITE_ROLES.structure);
    return this.uow.run(async () => {
      const before = await this.sites.findForUpdate(organizationId, siteId);
      if (!before) throw new NotFoundError('Site', siteId);
      const site: Site = { ...before, structure: S.cloneStructure(before.structure) };
      if (!remove(site)) return 'absent';
      await this.sites.save(before, site);
      this.events.publish('site.structure-changed', organizationId, actor.userId, { siteId });
      return 'deleted';
    });
  }
}

/** The space template an empty site is given (libs/spaces-and-content's catalog). */
const SITE_TEMPLATE = 'product-docs';

function sectionTitleFrom(spaceTitle: string): string {
  const title = spaceTitle.trim().slice(0, S.SECTION_TITLE.max);
  return title.length >= S.SECTION_TITLE.min ? title : 'Untitled section';
}

export type { Structure };
