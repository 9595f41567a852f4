import { Injectable } from '@nestjs/common';
import { Actor, InvalidInputError, NotFoundError, Role } from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import { Structure } from '../domain/site';
import { SITE_ROLES } from './sites.service';
import { SiteModel } from './site-models';
import { VisitorGate } from './visitor-gate';
import { Access } from '@app/access';

/** What one caller sees: the model, the structure after their claims, their own permissions, and the key of that outcome. */
export interface PublishedView {
  model: SiteModel;
  structure: Structure;
  /** The caller's role on the site (its `permissions`). */
  role: Role;
  /** The caller's role on each space of the site (null: closed to them, so left out of their answer). */
  spaceRoles: Map<string, Role | null>;
  /** `<site id> <version> <outcome of each condition> <caller's roles>`: equal keys, equal answers. */
  key: string;
}

export const CLAIMS_JSON_MAX = 4096;

/**
 * GET /orgs/{id}/sites/{siteId}/published: the site as a visitor sees it, narrowed to the spaces the caller
 * may read, with the caller's own permissions on the site and on each of those spaces. What it shows never
 * depends on who asked before: the model of a version is built without any caller (SiteModels: every live
 * space of the site, as visitors get it), and the caller's roles are read for each request and are part of
 * the key of the rendered answer. The caller must be a member of the organization (any role); beyond that
 * the site answers as it answers a visitor, through the same gate (VisitorGate): unpublished → 404;
 * `share-link` → 404 without the key of an active share link; `visitor-auth` → 404 without a valid visitor
 * token (a JWT signed with the site's key, GET …/publishing/auth); claims the schema refuses → 400.
 */
@Injectable()
export class PublishedSitesService {
  constructor(
    private readonly gate: VisitorGate,
    private readonly access: Access,
    private readonly spaces: SpacesService,
  ) {}

  async open(
    actor: Actor,
    organizationId: string,
    siteId: string,
    visitor: { shareKey?: string; claims?: string; token?: string } = {},
  ): Promise<PublishedView> {
    await this.access.require(organizationId, actor, SITE_ROLES.read);
    const claims = parseClaims(visitor.claims);
    const passage = await this.gate.pass(
      siteId,
      { shareKey: visitor.shareKey, token: visitor.token, claims },
      { organizationId, strictClaims: true },
    );
    if (passage.kind !== 'admitted') throw new NotFoundError('Site', siteId);
    const { model, structure, outcomes } = passage;
    const [role, spaceRoles] = await Promise.all([
      this.access.roleOnItem(organizationId, actor, siteId, 'Site'),
      this.spaces.rolesOn(actor, organizationId, [...model.spaces.values()]),
    ]);
    const roles = [...spaceRoles].map(([id, r]) => `${id}:${r ?? '-'}`).join(',');
    return { model, structure, role, spaceRoles, key: `${siteId} ${model.site.version} ${outcomes} ${role} ${roles}` };
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
