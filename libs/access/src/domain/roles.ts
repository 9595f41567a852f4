import { Role, ROLES, roleAtLeast } from '@app/shared-kernel';

/**
 * `defaultLevel` of collections and spaces: a role, `inherit` (from the parent), or null: restricted, the
 * organization's members get no access through it (only grants and organization admins open it).
 */
export type DefaultLevel = Role | 'inherit' | null;
export const DEFAULT_LEVELS: readonly (Role | 'inherit')[] = [...ROLES, 'inherit'];

export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

/** What a caller with `role` on a space may do; the same function guards the writes (docs/permissions.md). */
export function spacePermissions(role: Role | null): SpacePermissions {
  const admin = roleAtLeast(role, 'admin');
  return {
    view: role !== null,
    access: role !== null,
    admin,
    viewInviteLinks: admin,
    edit: roleAtLeast(role, 'edit'),
    triggerGitSync: roleAtLeast(role, 'edit'),
    comment: roleAtLeast(role, 'comment'),
    merge: roleAtLeast(role, 'edit'),
    review: roleAtLeast(role, 'review'),
    installIntegration: admin,
  };
}

export interface CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}

export function collectionPermissions(role: Role | null): CollectionPermissions {
  return {
    view: role !== null,
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    create: roleAtLeast(role, 'create'),
  };
}

export interface OrganizationPermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/**
 * What a member with `role` may do with the organization; docs/permissions.md is the table of it. A guest
 * sees the organization and nothing of it (its lists answer them 404); null: not a member.
 */
export function organizationPermissions(membership: Role | 'guest' | null): OrganizationPermissions {
  const role = membership === 'guest' ? null : membership;
  const member = role !== null;
  const admin = roleAtLeast(role, 'admin');
  const create = roleAtLeast(role, 'create');
  return {
    view: membership !== null,
    access: membership !== null,
    admin,
    ownTeam: false,
    createContent: create,
    createOpenAPISpec: create,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export interface SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}

/**
 * What a caller with `role` on a site may do (docs/permissions.md): every member views it, its access and its
 * adaptive schema; `edit` edits its content settings, `create` its structure, `admin` the rest.
 */
export function sitePermissions(role: Role): SitePermissions {
  const admin = roleAtLeast(role, 'admin');
  return {
    view: true,
    access: true,
    edit: roleAtLeast(role, 'edit'),
    create: roleAtLeast(role, 'create'),
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: true,
    editAdaptiveSchema: admin,
  };
}
