import type { Page, PageRequest, Role } from '@app/shared-kernel';
import type { Organization } from './organization';
import type { User } from './user';

export interface Member {
  organizationId: string;
  userId: string;
  /** null: a guest (the official `MemberRoleOrGuest`), who reaches only content granted to them. */
  role: Role | null;
  joinedAt: Date;
  sso: boolean;
  disabled: boolean;
  lastSeenAt?: Date | null;
}

/** A member with their user and the number of teams they are in (the official OrganizationMember). */
export interface MemberView {
  member: Member;
  user: User;
  teams: number;
  /** Spaces and sites granted to the member themselves (set where it is known: `withContentCounts`). */
  spaces?: number;
  sites?: number;
}

export interface MembershipOfUser {
  organization: Organization;
  role: Role | null;
}

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export interface MemberFilter {
  /** A role, or `guest` (members without a role). */
  role?: Role | 'guest';
  /** Case-insensitive substring of the display name or the email. */
  search?: string;
}

export type RoleChange = 'changed' | 'absent' | 'last-admin';

export abstract class MemberRepository {
  abstract find(organizationId: string, userId: string): Promise<Member | null>;
  /** The ids among `userIds` that are members of the organization. */
  abstract memberIds(organizationId: string, userIds: string[]): Promise<Set<string>>;
  /** Every active (not disabled) member of the organization with their role. */
  abstract activeRoles(organizationId: string): Promise<{ userId: string; role: Role | null }[]>;
  abstract upsert(member: Member): Promise<void>;
  /** Organizations with `sso: true` in which the user is a member but not an SSO member. */
  abstract organizationsRequiringSso(userId: string): Promise<string[]>;
  /** Marks a member as an SSO member (they may sign in through the organization's SSO). */
  abstract markSso(organizationId: string, userId: string): Promise<boolean>;
  /** Whether the two users are active members of one common organization (`within` it only, when given). */
  abstract shareOrganization(userA: string, userB: string, within?: string): Promise<boolean>;
  /** The user's organizations (`only` that one, when given: a scoped token's). */
  abstract listOrganizationsOfUser(userId: string, page: PageRequest, only?: string): Promise<Page<MembershipOfUser>>;
  abstract list(
    organizationId: string,
    filter: MemberFilter,
    sort: MemberSort,
    order: SortOrder,
    page: PageRequest,
  ): Promise<Page<MemberView>>;
  abstract view(organizationId: string, userId: string): Promise<MemberView | null>;
  /** Those of these users who are members, in one query (a list of people another context names). */
  abstract views(organizationId: string, userIds: string[]): Promise<MemberView[]>;
  /** Changes a role atomically; refuses to leave the organization without an admin. */
  /** null: the member becomes a guest. */
  abstract changeRole(organizationId: string, userId: string, role: Role | null): Promise<RoleChange>;
  /** Removes a member (and their team memberships) atomically; refuses to remove the last admin. */
  abstract remove(organizationId: string, userId: string): Promise<RoleChange>;
}
