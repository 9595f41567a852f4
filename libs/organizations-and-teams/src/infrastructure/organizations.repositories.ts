import { Db, keysetPage, updateChanged } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { Page, PageRequest, Role } from '@app/shared-kernel';
import { ApiToken, TokenRepository } from '../domain/api-token';
import { Member, MemberFilter, MemberRepository, MembershipOfUser, MemberSort, MemberView, RoleChange, SortOrder } from '../domain/member';
import { SqlMemberQueries } from './teams-and-invites.repositories';
import { DefaultContent, Organization, OrganizationMergeRules, OrganizationRepository } from '../domain/organization';
import { User, UserRepository } from '../domain/user';
import { ApiTokenRow, MemberRow, OrganizationRow, UserRow } from './orm-entities';

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  constructor(private readonly db: Db) {
    super();
  }
  private get rows(): Repository<UserRow> {
    return this.db.repo(UserRow);
  }
  async findById(id: string): Promise<User | null> {
    return this.rows.findOneBy({ id });
  }
  async findByEmail(email: string): Promise<User | null> {
    return this.rows.findOneBy({ email });
  }
  async findByIds(ids: string[]): Promise<User[]> {
    return ids.length ? this.rows.findBy({ id: In(ids) }) : [];
  }
  async findByEmails(emails: string[]): Promise<User[]> {
    return emails.length ? this.rows.findBy({ email: In(emails) }) : [];
  }
  async insert(user: User): Promise<void> {
    await this.rows.insert(user);
  }
  async updateProfile(user: Pick<User, 'id' | 'displayName' | 'photoURL'>): Promise<boolean> {
    const result = await this.rows.update({ id: user.id }, { displayName: user.displayName, photoURL: user.photoURL });
    return (result.affected ?? 0) > 0;
  }
  count(): Promise<number> {
    return this.rows.count();
  }
}

@Injectable()
export class TypeOrmTokenRepository extends TokenRepository {
  constructor(private readonly db: Db) {
    super();
  }
  private get rows(): Repository<ApiTokenRow> {
    return this.db.repo(ApiTokenRow);
  }
  async insert(token: ApiToken): Promise<void> {
    await this.rows.insert(token);
  }
  findByHash(hash: string): Promise<ApiToken | null> {
    return this.rows.findOneBy({ hash });
  }
  findById(id: string): Promise<ApiToken | null> {
    return this.rows.findOneBy({ id });
  }
  listByUser(userId: string): Promise<ApiToken[]> {
    return this.rows.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
  async markRevoked(id: string, at: Date): Promise<void> {
    await this.rows.update({ id }, { revokedAt: at });
  }
}

function organizationToDomain(row: OrganizationRow): Organization {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt,
    emailDomains: row.emailDomains,
    hostname: row.hostname,
    type: row.type as Organization['type'],
    useCase: row.useCase as Organization['useCase'],
    communityType: row.communityType as Organization['communityType'],
    defaultRole: row.defaultRole as Role | null,
    defaultContent: (row.defaultContent as DefaultContent | null) ?? null,
    sso: row.sso,
    ai: row.ai,
    inviteLinks: row.inviteLinks,
    plan: row.plan as Organization['plan'],
    mergeRules: row.mergeRules as OrganizationMergeRules,
    logo: row.logo,
  };
}

function organizationToRow(org: Organization): OrganizationRow {
  return Object.assign(new OrganizationRow(), org);
}

@Injectable()
export class TypeOrmOrganizationRepository extends OrganizationRepository {
  constructor(private readonly db: Db) {
    super();
  }
  private get rows(): Repository<OrganizationRow> {
    return this.db.repo(OrganizationRow);
  }
  async findById(id: string): Promise<Organization | null> {
    const row = await this.rows.findOneBy({ id });
    return row ? organizationToDomain(row) : null;
  }
  async insert(org: Organization): Promise<void> {
    await this.rows.insert(organizationToRow(org));
  }
  update(before: Organization, after: Organization): Promise<boolean> {
    return updateChanged(this.rows, { id: before.id }, organizationToRow(before), organizationToRow(after), []);
  }
  async hostnameTaken(hostname: string, exceptOrganizationId: string): Promise<boolean> {
    return this.rows
      .createQueryBuilder('o')
      .where('o.hostname = :hostname AND o.id <> :id', { hostname, id: exceptOrganizationId })
      .getExists();
  }
  async withEmailDomain(domain: string, limit: number): Promise<Organization[]> {
    const rows = await this.rows
      .createQueryBuilder('o')
      .where(':domain = ANY(o.email_domains)', { domain })
      .orderBy('o.created_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(organizationToDomain);
  }
}

@Injectable()
export class TypeOrmMemberRepository extends MemberRepository {
  private readonly sql: SqlMemberQueries;

  constructor(private readonly db: Db) {
    super();
    this.sql = new SqlMemberQueries(db);
  }
  private get rows(): Repository<MemberRow> {
    return this.db.repo(MemberRow);
  }
  private get organizations(): Repository<OrganizationRow> {
    return this.db.repo(OrganizationRow);
  }
  list(organizationId: string, filter: MemberFilter, sort: MemberSort, order: SortOrder, page: PageRequest): Promise<Page<MemberView>> {
    return this.sql.list(organizationId, filter, sort, order, page);
  }
  async view(organizationId: string, userId: string): Promise<MemberView | null> {
    return (await this.sql.views(organizationId, [userId]))[0] ?? null;
  }
  views(organizationId: string, userIds: string[]): Promise<MemberView[]> {
    return this.sql.views(organizationId, userIds);
  }
  changeRole(organizationId: string, userId: string, role: Role | null): Promise<RoleChange> {
    return this.sql.guarded(organizationId, userId, role);
  }
  remove(organizationId: string, userId: string): Promise<RoleChange> {
    return this.sql.guarded(organizationId, userId, 'removed');
  }
  async find(organizationId: string, userId: string): Promise<Member | null> {
    const row = await this.rows.findOneBy({ organizationId, userId });
    return row ? { ...row, role: row.role as Role | null } : null;
  }
  async memberIds(organizationId: string, userIds: string[]): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    const rows = await this.rows.find({ select: { userId: true }, where: { organizationId, userId: In(userIds) } });
    return new Set(rows.map((r) => r.userId));
  }
  async activeRoles(organizationId: string): Promise<{ userId: string; role: Role | null }[]> {
    const rows = await this.rows.find({ select: { userId: true, role: true }, where: { organizationId, disabled: false } });
    return rows.map((r) => ({ userId: r.userId, role: r.role as Role | null }));
  }
  async upsert(member: Member): Promise<void> {
    await this.rows.upsert(member, ['organizationId', 'userId']);
  }
  async organizationsRequiringSso(userId: string): Promise<string[]> {
    const rows: { id: string }[] = await this.rows.query(
      `SELECT o.id FROM organization_members m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = $1 AND o.sso AND NOT m.sso AND NOT m.disabled ORDER BY o.id`,
      [userId],
    );
    return rows.map((r) => r.id);
  }
  async markSso(organizationId: string, userId: string): Promise<boolean> {
    const result = await this.rows.update({ organizationId, userId }, { sso: true });
    return (result.affected ?? 0) > 0;
  }
  async shareOrganization(userA: string, userB: string, within?: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM organization_members a JOIN organization_members b ON a.organization_id = b.organization_id
       WHERE a.user_id = $1 AND b.user_id = $2 AND NOT a.disabled AND NOT b.disabled AND ($3::text IS NULL OR a.organization_id = $3) LIMIT 1`,
      [userA, userB, within ?? null],
    );
    return rows.length > 0;
  }
  async listOrganizationsOfUser(userId: string, page: PageRequest, only?: string): Promise<Page<MembershipOfUser>> {
    const base = `SELECT m.organization_id, m.role, m.joined_at FROM organization_members m
      WHERE m.user_id = $1 AND NOT m.disabled AND ($2::text IS NULL OR m.organization_id = $2)`;
    const members = await keysetPage<{ organization_id: string; role: string; joined_at: Date }>(
      this.db,
      base,
      [userId, only ?? null],
      {
        columns: ['q.joined_at', 'q.organization_id'],
        shape: ['timestamp', 'text'],
        keyOf: (r) => [r.joined_at.toISOString(), r.organization_id],
      },
      page,
    );
    const orgs = members.items.length ? await this.organizations.findBy({ id: In(members.items.map((m) => m.organization_id)) }) : [];
    const byId = new Map(orgs.map((o) => [o.id, organizationToDomain(o)]));
    return {
      ...members,
      items: members.items
        .filter((m) => byId.has(m.organization_id))
        .map((m) => ({ organization: byId.get(m.organization_id)!, role: m.role as Role | null })),
    };
  }
}
