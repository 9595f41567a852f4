import { Injectable } from '@nestjs/common';
import { Actor, BoundedMap, Clock, InvalidInputError, NotFoundError, Role } from '@app/shared-kernel';
import { SpacesService, type Space } from '@app/spaces-and-content';
import { AdaptiveJsonSchema, Condition, visitorClaims } from '../domain/adaptive';
import { CustomizationSettings, defaultCustomization } from '../domain/customization';
import { conditionsOf, Site, spaceIdsOf, Structure, visibleStructure } from '../domain/site';
import { SiteRepository, VisitorTokens } from '../domain/site-repository';
import { SITE_ROLES } from './sites.service';
import { Access } from '@app/access';

/** Everything a published read of one site version needs, the same for every caller; immutable once built. */
export interface PublishedModel {
  site: Site;
  /** The live spaces the site shows, as a visitor gets them (whatever the spaces' own permissions). */
  spaces: Map<string, Space>;
  customization: { settings: CustomizationSettings; updatedAt?: Date };
  schema: AdaptiveJsonSchema | null;
  /** Parsed conditions by source, in structure order. */
  conditions: Map<string, Condition>;
}

/** What one caller sees: the model, the structure after their claims, their own permissions, and the key of that outcome. */
export interface PublishedView {
  model: PublishedModel;
  structure: Structure;
  /** The caller's role on the site (its `permissions`). */
  role: Role;
  /** The caller's role on each space of the site (null: closed to them, so left out of their answer). */
  spaceRoles: Map<string, Role | null>;
  /** `<site id> <version> <outcome of each condition> <caller's roles>`: equal keys, equal answers. */
  key: string;
}

const MODELS_MAX = 500;
export const CLAIMS_JSON_MAX = 4096;

/**
 * GET /orgs/{id}/sites/{siteId}/published: the site as a visitor sees it, narrowed to the spaces the caller
 * may read, with the caller's own permissions on the site and on each of those spaces. What it shows never depends on who asked before: the model of a
 * version is built without any caller (every live space of the site, as visitors get it), and the caller's
 * roles are read for each request and are part of the key of the rendered answer. The caller must be a member of
 * the organization (any role); beyond that the site answers as it would answer a visitor: unpublished →
 * 404; `share-link` → 404 without the key of an active share link; `visitor-auth` → 404 without a
 * valid visitor token (a JWT signed with the site's key, GET …/publishing/auth). One indexed query
 * per request decides that (the site's version and the key's validity, so a deactivated link or a
 * regenerated key stops working at once in every process); the model of a version is built once per
 * process.
 */
@Injectable()
export class PublishedSitesService {
  private readonly models = new BoundedMap<string, PublishedModel>(MODELS_MAX);

  constructor(
    private readonly sites: SiteRepository,
    private readonly access: Access,
    private readonly spaces: SpacesService,
    private readonly tokens: VisitorTokens,
    private readonly clock: Clock,
  ) {}

  async open(
    actor: Actor,
    organizationId: string,
    siteId: string,
    visitor: { shareKey?: string; claims?: string; token?: string } = {},
  ): Promise<PublishedView> {
    const { shareKey } = visitor;
    await this.access.require(organizationId, actor, SITE_ROLES.read);
    const state = await this.sites.publishedState(organizationId, siteId, shareKey);
    if (!state || !state.published) throw new NotFoundError('Site', siteId);
    if (state.visibility === 'share-link' && !state.keyValid) throw new NotFoundError('Site', siteId);
    let signed: Record<string, unknown> | null = null;
    if (state.visibility === 'visitor-auth') {
      const ok = visitor.token && state.visitorAuthKey && (await this.tokens.verify(visitor.token, state.visitorAuthKey, this.clock.now()));
      if (!ok) throw new NotFoundError('Site', siteId);
      signed = ok;
    }
    const model = await this.model(organizationId, siteId, state.version);
    const claims = visitorClaims(model.schema, parseClaims(visitor.claims), signed);
    const adaptive = model.site.adaptiveContent;
    const outcomes = adaptive ? [...model.conditions.values()].map((c) => (c.test(claims) ? '1' : '0')).join('') : '';
    const structure = adaptive
      ? visibleStructure(model.site.structure, (c) => model.conditions.get(c)!.test(claims))
      : model.site.structure;
    const [role, spaceRoles] = await Promise.all([
      this.access.roleOnItem(organizationId, actor, siteId, 'Site'),
      this.spaces.rolesOn(actor, organizationId, [...model.spaces.values()]),
    ]);
    const roles = [...spaceRoles].map(([id, r]) => `${id}:${r ?? '-'}`).join(',');
    return { model, structure, role, spaceRoles, key: `${siteId} ${model.site.version} ${outcomes} ${role} ${roles}` };
  }

  private async model(organizationId: string, siteId: string, version: number): Promise<PublishedModel> {
    const key = `${siteId} ${version}`;
    const cached = this.models.get(key);
    if (cached) return cached;
    const site = await this.sites.find(organizationId, siteId);
    if (!site) throw new NotFoundError('Site', siteId);
    const [spaces, settings] = await Promise.all([
      this.spaces.liveIn(organizationId, spaceIdsOf(site.structure)),
      this.sites.settings(site.id),
    ]);
    const model: PublishedModel = {
      site,
      spaces: new Map(spaces.map((space) => [space.id, space])),
      customization: settings.customization ?? { settings: defaultCustomization() },
      schema: settings.adaptiveSchema?.jsonSchema ?? null,
      conditions: new Map(conditionsOf(site.structure).map((c) => [c, Condition.parse(c)])),
    };
    // Cache under the version read with the site (it can be newer than the state's: still consistent).
    this.models.set(`${siteId} ${site.version}`, model);
    return model;
  }
}

function parseClaims(json: string | undefined): unknown {
  if (json === undefined) return {};
  if (json.length > CLAIMS_JSON_MAX) throw new InvalidInputError(`visitorClaims must be at most ${CLAIMS_JSON_MAX} characters`);
  try {
    return JSON.parse(json);
  } catch {
    throw new InvalidInputError('visitorClaims must be a JSON object');
  }
}
