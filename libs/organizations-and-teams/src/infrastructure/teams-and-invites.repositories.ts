import { Db, isoSortKey, Keyset, keysetPage } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { mapPage, Page, PageRequest, Role } from '@app/shared-kernel';
import { Invite, InviteRepository } from '../domain/invite';
import { MemberFilter, MemberSort, MemberView, RoleChange, SortOrder } from '../domain/member';
import { Team, TeamMemberView, TeamRepository, TeamRole, TeamView } from '../domain/team';

/** Lists ordered by a text sort key, then id. */
function bySortKey<R extends { sort_key: string; id: string }>(): Keyset<R> {
  return { columns: ['q.sort_key', 'q.id'], shape: ['text', 'text'], keyOf: (r) => [r.sort_key, r.id] };
}

/** Member lists: by the chosen sort key, then the user id. */
function memberKeyset<R extends { sort_key: string; tiebreak: string }>(direction: 'asc' | 'desc'): Keyset<R> {
  return { columns: ['q.sort_key', 'q.tiebreak'], shape: ['text', 'text'], keyOf: (r) => [r.sort_key, r.tiebreak], direction };
}

/** Selects a member with their user and team count; `sort_key`/`tiebreak` drive keyset paging. */
const MEMBER_SELECT = `
  SELECT m.organization_id, m.user_id, m.role, m.joined_at, m.sso, m.disabled, m.last_seen_at,
         u.email, u.display_name, u.photo_url, u.created_at AS user_created_at, u.email_asserted_by,
         (SELECT count(*)::int FROM team_members tm WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id) AS teams,
         m.user_id AS tiebreak`;

const SORT_KEYS: Record<MemberSort, string> = {
  joinedAt: isoSortKey('m.joined_at'),
  lastSeenAt: `COALESCE(${isoSortKey('m.last_seen_at')}, '')`,
  name: `lower(u.display_name) COLLATE "C"`,
};

interface MemberSqlRow {
  organization_id: string;
  user_id: string;
  role: string;
  joined_at: Date;
  sso: boolean;
  disabled: boolean;
  last_seen_at: Date | null;
  email: string;
  display_name: string;
  photo_url: string | null;
  user_created_at: Date;
  email_asserted_by: string | null;
  teams: number;
  sort_key: string;
  tiebreak: string;
}

function memberView(r: MemberSqlRow): MemberView {
  return {
    member: {
      organizationId: r.organization_id,
      userId: r.user_id,
      role: r.role as Role | null,
      joinedAt: r.joined_at,
      sso: r.sso,
      disabled: r.disabled,
      lastSeenAt: r.last_seen_at,
    },
    user: {
      id: r.user_id,
      email: r.email,
      displayName: r.display_name,
      photoURL: r.photo_url,
      createdAt: r.user_created_at,
      emailAssertedBy: r.email_asserted_by,
    },
    teams: r.teams,
  };
}

/** Member queries that need users and teams: raw SQL, one round trip per page. */
export class SqlMemberQueries {
  constructor(private readonly db: Db) {}

  async list(
    organizationId: string,
    filter: MemberFilter,
    sort: MemberSort,
    order: SortOrder,
    page: PageRequest,
  ): Promise<Page<MemberView>> {
    const params: unknown[] = [organizationId];
    let where = 'm.organization_id = $1';
    if (filter.role === 'guest') where += ' AND m.role IS NULL';
    else if (filter.role) {
      params.push(filter.role);
      where += ` AND m.role = $${params.length}`;
    }
    if (filter.search) {
      params.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where += ` AND (u.display_name ILIKE $${params.length} OR u.email ILIKE $${params.length})`;
    }
    const base = `${MEMBER_SELECT}, ${SORT_KEYS[sort]} AS sort_key FROM organization_members m JOIN users u ON u.id = m.user_id WHERE ${where}`;
    const rows = await keysetPage<MemberSqlRow>(this.db, base, params, memberKeyset(order), page);
    return mapPage(rows, memberView);
  }

  async views(organizationId: string, userIds: string[]): Promise<MemberView[]> {
    if (userIds.length === 0) return [];
    const rows: MemberSqlRow[] = await this.db.query(
      `${MEMBER_SELECT} FROM organization_members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND m.user_id = ANY($2::text[])`,
      [organizationId, [...new Set(userIds)]],
    );
    return rows.map(memberView);
  }

  /**
   * Role change (null: to a guest) or removal under a lock on the organization's admins, so two requests
   * cannot remove the last one.
   */
  async guarded(organizationId: string, userId: string, next: Role | null | 'removed'): Promise<RoleChange> {
    return this.db.transaction(async (em) => {
      const admins: { user_id: string }[] = await em.query(
        `SELECT user_id FROM organization_members WHERE organization_id = $1 AND role = 'admin' AND NOT disabled FOR UPDATE`,
        [organizationId],
      );
      const target: { role: string }[] = await em.query(
        'SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2 FOR UPDATE',
        [organizationId, userId],
      );
      if (!target.length) return 'absent';
      const losesAdmin = target[0].role === 'admin' && next !== 'admin';
      if (losesAdmin && admins.length <= 1) return 'last-admin';
      if (next === 'removed') {
        await em.query('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2', [organizationId, userId]);
      } else {
        await em.query('UPDATE organization_members SET role = $3 WHERE organization_id = $1 AND user_id = $2', [
          organizationId,
          userId,
          next,
        ]);
      }
      return 'changed';
    });
  }
}

interface TeamSqlRow {
  id: string;
  organization_id: string;
  title: string;
  created_at: Date;
  members: number;
  sort_key: string;
  role?: string;
}

const TEAM_SELECT = `SELECT t.id, t.organization_id, t.title, t.created_at,
  (SELECT count(*)::int FROM team_members tm WHERE tm.team_id = t.id) AS members,
  ${isoSortKey('t.created_at')} AS sort_key`;

function teamView(r: TeamSqlRow): TeamView {
  return { team: { id: r.id, organizationId: r.organization_id, title: r.title, createdAt: r.created_at }, members: r.members };
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

@Injectable()
export class SqlTeamRepository extends TeamRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async list(organizationId: string, filter: { title?: string; ownedBy?: string }, page: PageRequest): Promise<Page<TeamView>> {
    const params: unknown[] = [organizationId];
    let where = 't.organization_id = $1';
    if (filter.title) {
      params.push(likePattern(filter.title));
      where += ` AND t.title ILIKE $${params.length}`;
    }
    if (filter.ownedBy) {
      params.push(filter.ownedBy);
      where += ` AND EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = $${params.length} AND o.role = 'owner')`;
    }
    const rows = await keysetPage<TeamSqlRow>(this.db, `${TEAM_SELECT} FROM teams t WHERE ${where}`, params, bySortKey(), page);
    return mapPage(rows, teamView);
  }

  async view(organizationId: string, teamId: string): Promise<TeamView | null> {
    const rows: TeamSqlRow[] = await this.db.query(`${TEAM_SELECT} FROM teams t WHERE t.organization_id = $1 AND t.id = $2`, [
      organizationId,
      teamId,
    ]);
    return rows.length ? teamView(rows[0]) : null;
  }

  async insert(team: Team, members: { userId: string; role: TeamRole }[]): Promise<void> {
    await this.db.transaction(async (em) => {
      await em.query('INSERT INTO teams (id, organization_id, title, created_at) VALUES ($1, $2, $3, $4)', [
        team.id,
        team.organizationId,
        team.title,
        team.createdAt,
      ]);
      for (const m of members) {
        await em.query(
          `INSERT INTO team_members (team_id, organization_id, user_id, role, added_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
          [team.id, team.organizationId, m.userId, m.role, team.createdAt],
        );
      }
    });
  }

  async rename(organizationId: string, teamId: string, title: string): Promise<void> {
    await this.db.query('UPDATE teams SET title = $3 WHERE organization_id = $1 AND id = $2', [organizationId, teamId, title]);
  }

  async delete(organizationId: string, teamId: string): Promise<boolean> {
    const affected = await this.db.execute('DELETE FROM teams WHERE organization_id = $1 AND id = $2', [organizationId, teamId]);
    return affected > 0;
  }

  async roleOf(teamId: string, userId: string): Promise<TeamRole | null> {
    const rows: { role: TeamRole }[] = await this.db.query('SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2', [
      teamId,
      userId,
    ]);
    return rows[0]?.role ?? null;
  }

  async organizationsOwningTeams(userId: string): Promise<Set<string>> {
    const rows: { organization_id: string }[] = await this.db.query(
      `SELECT DISTINCT organization_id FROM team_members WHERE user_id = $1 AND role = 'owner'`,
      [userId],
    );
    return new Set(rows.map((r) => r.organization_id));
  }

  async ownedTeamIds(organizationId: string, userId: string): Promise<Set<string>> {
    const rows: { team_id: string }[] = await this.db.query(
      `SELECT team_id FROM team_members WHERE organization_id = $1 AND user_id = $2 AND role = 'owner'`,
      [organizationId, userId],
    );
    return new Set(rows.map((r) => r.team_id));
  }

  async membersOfTeams(organizationId: string, teamIds: string[]): Promise<{ teamId: string; userId: string }[]> {
    if (teamIds.length === 0) return [];
    const rows: { team_id: string; user_id: string }[] = await this.db.query(
      'SELECT team_id, user_id FROM team_members WHERE organization_id = $1 AND team_id = ANY($2::text[])',
      [organizationId, teamIds],
    );
    return rows.map((r) => ({ teamId: r.team_id, userId: r.user_id }));
  }

  async teamIdsOf(organizationId: string, userId: string): Promise<string[]> {
    const rows: { team_id: string }[] = await this.db.query(
      'SELECT team_id FROM team_members WHERE organization_id = $1 AND user_id = $2',
      [organizationId, userId],
    );
    return rows.map((r) => r.team_id);
  }

  async views(organizationId: string, teamIds: string[]): Promise<TeamView[]> {
    if (teamIds.length === 0) return [];
    const rows: TeamSqlRow[] = await this.db.query(`${TEAM_SELECT} FROM teams t WHERE t.organization_id = $1 AND t.id = ANY($2::text[])`, [
      organizationId,
      teamIds,
    ]);
    return rows.map(teamView);
  }

  async listMembers(organizationId: string, teamId: string, page: PageRequest): Promise<Page<TeamMemberView>> {
    const base = `${MEMBER_SELECT}, tm.role AS team_role,
        ${isoSortKey('tm.added_at')} AS sort_key
      FROM team_members tm
      JOIN organization_members m ON m.organization_id = tm.organization_id AND m.user_id = tm.user_id
      JOIN users u ON u.id = m.user_id
      WHERE tm.organization_id = $1 AND tm.team_id = $2`;
    const rows = await keysetPage<MemberSqlRow & { team_role: TeamRole }>(
      this.db,
      base,
      [organizationId, teamId],
      memberKeyset('asc'),
      page,
    );
    return mapPage(rows, (r) => ({ member: memberView(r), role: r.team_role }));
  }

  async applyMembers(
    organizationId: string,
    teamId: string,
    upsert: Map<string, TeamRole | null>,
    remove: Set<string>,
    at: Date,
  ): Promise<void> {
    await this.db.transaction(async (em) => {
      await em.query('SELECT id FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
      for (const userId of remove) await em.query('DELETE FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
      for (const [userId, role] of upsert) {
        await em.query(
          `INSERT INTO team_members (team_id, organization_id, user_id, role, added_at) VALUES ($1, $2, $3, COALESCE($4, 'member'), $5)
           ON CONFLICT (team_id, user_id) DO UPDATE SET role = COALESCE($4, team_members.role)`,
          [teamId, organizationId, userId, role, at],
        );
      }
    });
  }

  async removeMember(teamId: string, userId: string): Promise<boolean> {
    const affected = await this.db.execute('DELETE FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
    return affected > 0;
  }

  async teamsOfMember(
    organizationId: string,
    userId: string,
    title: string | undefined,
    page: PageRequest,
  ): Promise<Page<{ team: TeamView; role: TeamRole }>> {
    const params: unknown[] = [organizationId, userId];
    let where = 't.organization_id = $1 AND tm.user_id = $2';
    if (title) {
      params.push(likePattern(title));
      where += ` AND t.title ILIKE $${params.length}`;
    }
    const base = `${TEAM_SELECT}, tm.role FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE ${where}`;
    const rows = await keysetPage<TeamSqlRow>(this.db, base, params, bySortKey(), page);
    return mapPage(rows, (r) => ({ team: teamView(r), role: r.role as TeamRole }));
  }
}

interface InviteSqlRow {
  id: string;
  organization_id: string;
  role: string;
  created_by: string;
  created_at: Date;
  email: string | null;
  sort_key: string;
}

function invite(r: InviteSqlRow): Invite {
  return {
    id: r.id,
    organizationId: r.organization_id,
    role: r.role as Role | null,
    createdBy: r.created_by,
    createdAt: r.created_at,
    email: r.email,
  };
}

@Injectable()
export class SqlInviteRepository extends InviteRepository {
  constructor(private readonly db: Db) {
    super();
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<Invite>> {
    const base = `SELECT i.*, ${isoSortKey('i.created_at')} AS sort_key
      FROM organization_invites i WHERE i.organization_id = $1 AND i.email IS NULL`;
    return mapPage(await keysetPage<InviteSqlRow>(this.db, base, [organizationId], bySortKey(), page), invite);
  }
  async find(organizationId: string, id: string): Promise<Invite | null> {
    const rows: InviteSqlRow[] = await this.db.query('SELECT * FROM organization_invites WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
    ]);
    return rows.length ? invite(rows[0]) : null;
  }
  async insert(i: Invite): Promise<void> {
    await this.db.query(
      'INSERT INTO organization_invites (id, organization_id, role, created_by, created_at, email) VALUES ($1, $2, $3, $4, $5, $6)',
      [i.id, i.organizationId, i.role, i.createdBy, i.createdAt, i.email ?? null],
    );
  }
  async updateRole(organizationId: string, id: string, role: Role | null): Promise<void> {
    await this.db.query('UPDATE organization_invites SET role = $3 WHERE organization_id = $1 AND id = $2', [organizationId, id, role]);
  }
  async delete(organizationId: string, id: string): Promise<boolean> {
    const affected = await this.db.execute('DELETE FROM organization_invites WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return affected > 0;
  }
}
