import { Narrowing, Page, PageRequest, Role, strongestRole } from '@app/shared-kernel';
import type { DefaultLevel } from './roles';

/** Users and teams one invitation may name. */
export const INVITE_MAX = 100;

/** What can be shared: spaces, collections and sites. */
export type ContentKind = 'space' | 'collection' | 'site';
export type Principal = { kind: 'user'; id: string } | { kind: 'team'; id: string };

/** A role granted on a space or a collection to a member or a team of its organization. */
export interface ContentPermission {
  organizationId: string;
  content: { kind: ContentKind; id: string };
  principal: Principal;
  role: Role;
  grantedAt: Date;
}

/** Port: the grants of an organization's content. */
export abstract class ContentPermissionRepository {
  /** Grants or changes the role of each principal on the content (one statement). */
  abstract grant(permissions: ContentPermission[]): Promise<void>;
  /** Changes the role of a principal already granted; false when it had no grant there. */
  abstract update(contentId: string, principal: Principal, role: Role): Promise<boolean>;
  abstract revoke(contentId: string, principal: Principal): Promise<boolean>;
  /** The grants on one piece of content to this kind of principal, keyset-paged by principal id. */
  abstract list(contentId: string, kind: Principal['kind'], page: PageRequest): Promise<Page<ContentPermission>>;
  /** The strongest role per piece of content this user was granted, directly or through these teams. */
  abstract grantsOf(organizationId: string, userId: string, teamIds: string[]): Promise<Map<string, Role>>;
  /** Every grant on these pieces of content (a chain). */
  abstract onContent(contentIds: string[]): Promise<ContentPermission[]>;
  /** Removes every grant on these pieces of content (they left the organization, whose people the grants named). */
  abstract revokeAll(contentIds: string[]): Promise<void>;
  /** How many live spaces each team was granted a role on, directly or through a collection (and those below it). */
  abstract teamSpaceCounts(organizationId: string, teamIds: string[], narrowing: Narrowing): Promise<Map<string, number>>;
  /** The same for members granted a role themselves (not through a team), and how many sites each was granted. */
  abstract memberContentCounts(
    organizationId: string,
    userIds: string[],
    narrowing: Narrowing,
  ): Promise<Map<string, { spaces: number; sites: number }>>;
}

/** A piece of content and its parents up to the top level: their ids and default levels. */
export type ContentChain = { id: string; level: DefaultLevel }[];

/**
 * A user's place in an organization: a member's role; `guest`, a member without a role (the official
 * `null` role), whom only grants open content to; or null, not a member.
 */
export type Membership = Role | 'guest' | null;

/**
 * The effective role of a user on a piece of content, the one function every access decision and every
 * narrowed list asks (docs/permissions.md):
 * - non-members get nothing; organization admins get admin everywhere (never narrowed);
 * - a member's base is their organization role, widened by the content's default level: the first level up
 *   the chain (the item, then its parent collections) that is not `inherit`. When that level is null the
 *   content is restricted and the base is nothing: `inherit` under a restricted collection is restricted,
 *   while an item's own role level (the nearest one) opens it again;
 * - a guest has no base;
 * - every role granted to the user, directly or through a team, on the item or a parent collection widens it.
 * Null: no access at all (the item answers 404 and no list shows it).
 */
export function effectiveRole(member: Membership, chain: ContentChain, grants: ReadonlyMap<string, Role>): Role | null {
  if (member === null) return null;
  if (member === 'admin') return 'admin';
  let role: Role | null = null;
  if (member !== 'guest') {
    const level = chain.find((c) => c.level !== 'inherit')?.level;
    role = level === undefined || level === 'inherit' ? member : level === null ? null : strongestRole(member, level);
  }
  for (const c of chain) {
    const granted = grants.get(c.id);
    if (granted) role = strongestRole(role, granted);
  }
  return role;
}

/**
 * Every member's effective role on content with this chain (aggregate lists): their organization role,
 * the default level, and the grants on the chain to them or to a team they are in. `via` says where a
 * role above the organization role and default level came from: a grant to the member, or to a team.
 */
export function effectiveRoles(
  members: { userId: string; role: Role | 'guest' }[],
  chain: ContentChain,
  grants: ContentPermission[],
  teamMembers: { teamId: string; userId: string }[],
): { userId: string; role: Role; organizationRole: Role | null; via: { kind: 'user' } | { kind: 'team'; id: string } | null }[] {
  const teamsOf = new Map<string, string[]>();
  for (const m of teamMembers) teamsOf.set(m.userId, [...(teamsOf.get(m.userId) ?? []), m.teamId]);
  return members.flatMap((m) => {
    const teams = new Set(teamsOf.get(m.userId) ?? []);
    let role = effectiveRole(m.role, chain, new Map());
    let via: { kind: 'user' } | { kind: 'team'; id: string } | null = null;
    for (const g of grants) {
      const mine =
        (g.principal.kind === 'user' && g.principal.id === m.userId) || (g.principal.kind === 'team' && teams.has(g.principal.id));
      if (!mine || !chain.some((c) => c.id === g.content.id) || strongestRole(role, g.role) === role) continue;
      role = g.role;
      via = g.principal.kind === 'user' ? { kind: 'user' } : { kind: 'team', id: g.principal.id };
    }
    // Members the content is closed to (a guest, a restricted item) are not among those who can access it.
    return role === null ? [] : [{ userId: m.userId, role, organizationRole: m.role === 'guest' ? null : m.role, via }];
  });
}
