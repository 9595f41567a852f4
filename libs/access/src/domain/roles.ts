import { Role, ROLES, roleAtLeast, strongestRole } from '@app/shared-kernel';

/** `defaultLevel` of collections and spaces: a role, `inherit` (from the parent), or null (no default access). */
export type DefaultLevel = Role | 'inherit' | null;
export const DEFAULT_LEVELS: readonly (Role | 'inherit')[] = [...ROLES, 'inherit'];

/**
 * The role a member has on a piece of content. `levels` are the `defaultLevel`s from the item up to
 * its top-level collection; the first one that is not `inherit` is the content's default level,
 * which can only widen the member's organization role (never narrow it). Non-members get null.
 */
export function contentRole(memberRole: Role | null, levels: DefaultLevel[]): Role | null {
  if (memberRole === null) return null;
  const level = levels.find((l) => l !== 'inherit');
  return strongestRole(memberRole, level ?? null);
}

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

/** What a member with `role` may do with the organization; docs/permissions.md is the table of it. */
export function organizationPermissions(role: Role | null): OrganizationPermissions {
  const member = role !== null;
  const admin = roleAtLeast(role, 'admin');
  const create = roleAtLeast(role, 'create');
  return {
    view: member,
    access: member,
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
