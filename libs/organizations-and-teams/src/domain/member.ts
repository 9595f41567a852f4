import type { Page, PageRequest, Role } from '@app/shared-kernel';
import type { Organization } from './organization';

export interface Member {
  organizationId: string;
  userId: string;
  role: Role;
  joinedAt: Date;
  sso: boolean;
  disabled: boolean;
}

export interface MembershipOfUser {
  organization: Organization;
  role: Role;
}

export abstract class MemberRepository {
  abstract find(organizationId: string, userId: string): Promise<Member | null>;
  abstract upsert(member: Member): Promise<void>;
  /** Organizations the user belongs to, ordered by (joinedAt, organization id). */
  /** True when both users are members of at least one common organization. */
  abstract shareOrganization(userA: string, userB: string): Promise<boolean>;
  abstract listOrganizationsOfUser(userId: string, page: PageRequest): Promise<Page<MembershipOfUser>>;
}
