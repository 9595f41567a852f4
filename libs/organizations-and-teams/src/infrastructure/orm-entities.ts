import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('users')
export class UserRow {
  @PrimaryColumn('text') id: string;
  @Column('text') email: string;
  @Column('text', { name: 'display_name' }) displayName: string;
  @Column('text', { name: 'photo_url', nullable: true }) photoURL: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('text', { name: 'email_asserted_by', nullable: true }) emailAssertedBy: string | null;
}

@Entity('api_tokens')
export class ApiTokenRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'user_id' }) userId: string;
  @Column('text') label: string;
  @Column('text') prefix: string;
  @Column('text') hash: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('text', { name: 'organization_id', nullable: true }) organizationId: string | null;
}

@Entity('organizations')
export class OrganizationRow {
  @PrimaryColumn('text') id: string;
  @Column('text') title: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('text', { name: 'email_domains', array: true }) emailDomains: string[];
  @Column('text', { nullable: true }) hostname: string | null;
  @Column('text') type: string;
  @Column('text', { name: 'use_case', nullable: true }) useCase: string | null;
  @Column('text', { name: 'community_type', nullable: true }) communityType: string | null;
  @Column('text', { name: 'default_role', nullable: true }) defaultRole: string | null;
  @Column('jsonb', { name: 'default_content', nullable: true }) defaultContent: object | null;
  @Column('boolean') sso: boolean;
  @Column('boolean') ai: boolean;
  @Column('boolean', { name: 'invite_links' }) inviteLinks: boolean;
  @Column('text') plan: string;
  @Column('jsonb', { name: 'merge_rules' }) mergeRules: object;
  @Column('text', { nullable: true }) logo: string | null;
}

@Entity('organization_members')
export class MemberRow {
  @PrimaryColumn('text', { name: 'organization_id' }) organizationId: string;
  @PrimaryColumn('text', { name: 'user_id' }) userId: string;
  @Column('text', { nullable: true }) role: string | null;
  @Column('timestamptz', { name: 'joined_at' }) joinedAt: Date;
  @Column('boolean') sso: boolean;
  @Column('boolean') disabled: boolean;
  @Column('timestamptz', { name: 'last_seen_at', nullable: true }) lastSeenAt: Date | null;
}

@Entity('teams')
export class TeamRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'organization_id' }) organizationId: string;
  @Column('text') title: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}

@Entity('team_members')
export class TeamMemberRow {
  @PrimaryColumn('text', { name: 'team_id' }) teamId: string;
  @PrimaryColumn('text', { name: 'user_id' }) userId: string;
  @Column('text', { name: 'organization_id' }) organizationId: string;
  @Column('text') role: string;
  @Column('timestamptz', { name: 'added_at' }) addedAt: Date;
}

@Entity('organization_invites')
export class InviteRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'organization_id' }) organizationId: string;
  @Column('text', { nullable: true }) role: string | null;
  @Column('text', { name: 'created_by' }) createdBy: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}

export const ORGANIZATION_ENTITIES = [UserRow, ApiTokenRow, OrganizationRow, MemberRow, TeamRow, TeamMemberRow, InviteRow];
