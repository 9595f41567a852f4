import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import type { Role } from '@app/shared-kernel';
import type { Membership } from '../domain/grants';
import { Memberships } from '../domain/memberships';

/** Memberships read from the organizations context's tables (organization_members, team_members); never written here. */
@Injectable()
export class SqlMemberships extends Memberships {
  constructor(private readonly db: Db) {
    super();
  }

  async membershipOf(organizationId: string, userId: string): Promise<Membership> {
    const rows: { role: Role | null }[] = await this.db.query(
      'SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2 AND NOT disabled',
      [organizationId, userId],
    );
    return rows.length === 0 ? null : (rows[0].role ?? 'guest');
  }

  async teamIdsOf(organizationId: string, userId: string): Promise<string[]> {
    const rows: { team_id: string }[] = await this.db.query(
      'SELECT team_id FROM team_members WHERE organization_id = $1 AND user_id = $2',
      [organizationId, userId],
    );
    return rows.map((r) => r.team_id);
  }

  async activeRoles(organizationId: string): Promise<{ userId: string; role: Role | 'guest' }[]> {
    const rows: { user_id: string; role: Role | null }[] = await this.db.query(
      'SELECT user_id, role FROM organization_members WHERE organization_id = $1 AND NOT disabled',
      [organizationId],
    );
    return rows.map((r) => ({ userId: r.user_id, role: r.role ?? 'guest' }));
  }

  async membersOfTeams(organizationId: string, teamIds: string[]): Promise<{ teamId: string; userId: string }[]> {
    if (teamIds.length === 0) return [];
    const rows: { team_id: string; user_id: string }[] = await this.db.query(
      'SELECT team_id, user_id FROM team_members WHERE organization_id = $1 AND team_id = ANY($2::text[])',
      [organizationId, teamIds],
    );
    return rows.map((r) => ({ teamId: r.team_id, userId: r.user_id }));
  }
}
