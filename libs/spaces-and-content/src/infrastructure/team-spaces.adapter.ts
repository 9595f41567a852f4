import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { TeamSpaces } from '@app/organizations-and-teams';

/**
 * The teams context's TeamSpaces port: the live spaces each team was granted a role on, directly or
 * through a collection (and the collections below it).
 */
@Injectable()
export class GrantedTeamSpaces extends TeamSpaces {
  constructor(private readonly db: Db) {
    super();
  }

  async counts(organizationId: string, teamIds: string[]): Promise<Map<string, number>> {
    if (teamIds.length === 0) return new Map();
    const rows: { team_id: string; spaces: number }[] = await this.db.query(
      `WITH RECURSIVE g AS (
         SELECT team_id, space_id, collection_id FROM content_permissions WHERE organization_id = $1 AND team_id = ANY($2::text[])
       ), below (team_id, collection_id) AS (
         SELECT team_id, collection_id FROM g WHERE collection_id IS NOT NULL
         UNION
         SELECT b.team_id, c.id FROM below b JOIN collections c ON c.organization_id = $1 AND c.parent_id = b.collection_id
       ), reached (team_id, space_id) AS (
         SELECT team_id, space_id FROM g WHERE space_id IS NOT NULL
         UNION
         SELECT b.team_id, s.id FROM below b JOIN spaces s ON s.organization_id = $1 AND s.parent_id = b.collection_id
       )
       SELECT r.team_id, count(*)::int AS spaces FROM reached r JOIN spaces s ON s.id = r.space_id AND s.deleted_at IS NULL
       GROUP BY r.team_id`,
      [organizationId, teamIds],
    );
    return new Map(rows.map((r) => [r.team_id, r.spaces]));
  }
}
