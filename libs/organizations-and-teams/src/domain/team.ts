import { InvalidInputError, Page, PageRequest, Role, roleAtLeast } from '@app/shared-kernel';
import type { MemberView } from './member';

export const TEAM_TITLE_MAX = 64;
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface Team {
  id: string;
  organizationId: string;
  title: string;
  createdAt: Date;
}

export interface TeamView {
  team: Team;
  members: number;
  /** Spaces the team was granted a role on, directly or through a collection (set where it is known). */
  spaces?: number;
}

export interface TeamMemberView {
  member: MemberView;
  role: TeamRole;
}

export function checkTeamTitle(title: string): string {
  const t = title.trim();
  if (t.length < 1 || t.length > TEAM_TITLE_MAX) throw new InvalidInputError(`title must be 1 to ${TEAM_TITLE_MAX} characters`);
  return t;
}

/** Organization admins and the team's owners manage a team; every member of the organization sees it. */
export function teamPermissions(orgRole: Role | null, teamRole: TeamRole | null): { admin: boolean; view: boolean } {
  return { admin: roleAtLeast(orgRole, 'admin') || teamRole === 'owner', view: orgRole !== null };
}

/**
 * The outcome of a bulk membership update (spec 4.6): a user named in both `add` and `remove` ends
 * up removed; `memberships` sets roles (and adds); added users without a role become `member`.
 */
export function planTeamMembers(
  add: string[],
  remove: string[],
  memberships: Record<string, TeamRole>,
): { upsert: Map<string, TeamRole | null>; remove: Set<string> } {
  const removed = new Set(remove);
  const upsert = new Map<string, TeamRole | null>();
  for (const u of add) if (!removed.has(u)) upsert.set(u, null);
  for (const [u, role] of Object.entries(memberships)) if (!removed.has(u)) upsert.set(u, role);
  return { upsert, remove: removed };
}

export abstract class TeamRepository {
  /** `ownedBy`: only teams that user owns. */
  abstract list(organizationId: string, filter: { title?: string; ownedBy?: string }, page: PageRequest): Promise<Page<TeamView>>;
  abstract view(organizationId: string, teamId: string): Promise<TeamView | null>;
  abstract insert(team: Team, members: { userId: string; role: TeamRole }[]): Promise<void>;
  abstract rename(organizationId: string, teamId: string, title: string): Promise<void>;
  abstract delete(organizationId: string, teamId: string): Promise<boolean>;
  abstract roleOf(teamId: string, userId: string): Promise<TeamRole | null>;
  /** Ids of the organizations in which the user owns a team. */
  abstract organizationsOwningTeams(userId: string): Promise<Set<string>>;
  /** Ids of the organization's teams that the user owns. */
  abstract ownedTeamIds(organizationId: string, userId: string): Promise<Set<string>>;
  /** The members of these teams of the organization. */
  abstract membersOfTeams(organizationId: string, teamIds: string[]): Promise<{ teamId: string; userId: string }[]>;
  /** The teams of the organization the user belongs to (any team role). */
  abstract teamIdsOf(organizationId: string, userId: string): Promise<string[]>;
  /** These teams of the organization (unknown ids left out). */
  abstract views(organizationId: string, teamIds: string[]): Promise<TeamView[]>;
  abstract listMembers(organizationId: string, teamId: string, page: PageRequest): Promise<Page<TeamMemberView>>;
  /** Applies adds (role null keeps an existing role, else `member`), role changes and removals in one transaction. */
  abstract applyMembers(
    organizationId: string,
    teamId: string,
    upsert: Map<string, TeamRole | null>,
    remove: Set<string>,
    at: Date,
  ): Promise<void>;
  abstract removeMember(teamId: string, userId: string): Promise<boolean>;
  abstract teamsOfMember(
    organizationId: string,
    userId: string,
    title: string | undefined,
    page: PageRequest,
  ): Promise<Page<{ team: TeamView; role: TeamRole }>>;
}
