import type { Role } from '@app/shared-kernel';
import type { Membership } from './grants';

/**
 * Port: the memberships access decisions read. The organizations-and-teams context writes members and
 * teams; access reads who is a member with which role, and who is in which team, to answer "what may
 * this actor do here" without asking that context back.
 */
export abstract class Memberships {
  /** The user's membership: their role, `guest` (no role), or null when not a member, or a disabled one. */
  abstract membershipOf(organizationId: string, userId: string): Promise<Membership>;
  /** The teams of the organization the user is in (grants to a team reach its members). */
  abstract teamIdsOf(organizationId: string, userId: string): Promise<string[]>;
  /** Every active member with their organization role, `guest` for guests (aggregate access lists). */
  abstract activeRoles(organizationId: string): Promise<{ userId: string; role: Role | 'guest' }[]>;
  /** The members of these teams. */
  abstract membersOfTeams(organizationId: string, teamIds: string[]): Promise<{ teamId: string; userId: string }[]>;
}
