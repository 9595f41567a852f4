import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ROLES, Role } from '@app/shared-kernel';
import { Links, Satisfies, Optional } from '@app/http-kit';
import {
  BILLING_PRODUCTS,
  HOSTNAME_MAX,
  HOSTNAME_MIN,
  MAX_EMAIL_DOMAINS,
  MERGE_RULE_KINDS_PLAIN,
  MERGE_RULE_KINDS_WITH_USERS,
  Organization,
  ORGANIZATION_COMMUNITY_TYPES,
  ORGANIZATION_TYPES,
  ORGANIZATION_USE_CASES,
  OrganizationMergeRules,
  OrganizationPermissions,
  organizationPermissions,
  TITLE_MAX,
  TITLE_MIN,
} from '../domain/organization';
import type { User } from '../domain/user';

// ---------- requests ----------

export class CreateOrganizationDto {
  /** Name of the organization */
  @IsString()
  @MinLength(TITLE_MIN)
  @MaxLength(TITLE_MAX)
  @Matches(/\S.*\S/, { message: 'title must contain at least two non-space characters' })
  title: string;

  /** Email domains whose users may join the organization */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_EMAIL_DOMAINS)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  emailDomains?: string[];
}

export class DefaultContentDto {
  @ApiProperty({ enum: ['site'] })
  @Equals('site')
  type: 'site';

  /** Unique identifier for the site */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  site: string;
}

export function mergeRulesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const v = value as Record<string, unknown>;
  if (v.type === 'none') return Object.keys(v).length === 1 ? null : 'type "none" takes no other members';
  if (v.type !== 'rules') return 'type must be "none" or "rules"';
  if (!Array.isArray(v.rules)) return 'rules must be an array';
  if (v.rules.length > 50) return 'at most 50 rules';
  for (const r of v.rules as unknown[]) {
    if (typeof r !== 'object' || r === null) return 'each rule must be an object';
    const rule = r as Record<string, unknown>;
    if ((MERGE_RULE_KINDS_WITH_USERS as readonly unknown[]).includes(rule.rule)) {
      if (
        !Array.isArray(rule.users) ||
        rule.users.length > 100 ||
        !rule.users.every((u) => typeof u === 'string' && u.length > 0 && u.length <= 100)
      ) {
        return `rule "${String(rule.rule)}" needs users: an array of up to 100 user ids`;
      }
      if (Object.keys(rule).some((k) => k !== 'rule' && k !== 'users')) return `rule "${String(rule.rule)}" has unknown members`;
    } else if ((MERGE_RULE_KINDS_PLAIN as readonly unknown[]).includes(rule.rule)) {
      if (Object.keys(rule).some((k) => k !== 'rule')) return `rule "${String(rule.rule)}" takes no other members`;
    } else {
      return `unknown rule "${String(rule.rule)}"`;
    }
  }
  return Object.keys(v).every((k) => k === 'type' || k === 'rules') ? null : 'unknown members';
}

export class MergeRulesDto {
  @ApiProperty({ enum: ['none', 'rules'] })
  type: 'none' | 'rules';
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', properties: { rule: { type: 'string' }, users: { type: 'array', items: { type: 'string' } } } },
  })
  rules?: { rule: string; users?: string[] }[];
}

/** Every member optional: `title` and `emailDomains` keep the rules of creation. */
export class UpdateOrganizationDto extends PartialType(CreateOrganizationDto, { skipNullProperties: false }) {
  /** Default hostname for the organization's public content */
  @Optional()
  @IsString()
  @MinLength(HOSTNAME_MIN)
  @MaxLength(HOSTNAME_MAX)
  hostname?: string;

  @ApiPropertyOptional({ enum: ROLES, nullable: true, description: 'Role given to members who join; null for guests' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES)
  defaultRole?: Role | null;

  @ApiPropertyOptional({ type: DefaultContentDto, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => DefaultContentDto)
  defaultContent?: DefaultContentDto | null;

  @ApiPropertyOptional({ type: String, format: 'uri', maxLength: 2048, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(2048)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false })
  logo?: string | null;

  @Optional() @IsBoolean() sso?: boolean;
  @Optional() @IsBoolean() ai?: boolean;
  @Optional() @IsBoolean() inviteLinks?: boolean;

  @ApiPropertyOptional({ type: MergeRulesDto })
  @Optional()
  @Satisfies(mergeRulesProblem)
  mergeRules?: OrganizationMergeRules;
}

// ---------- responses ----------

export class UserUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
}

export class UserDto {
  @ApiProperty({ enum: ['user'] }) object: 'user';
  id: string;
  displayName: string;
  email: string;
  @ApiPropertyOptional() photoURL?: string;
  urls: UserUrlsDto;
}

export function toUserDto(user: User, links: Links): UserDto {
  const dto: UserDto = {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    urls: { location: links.api(`/users/${user.id}`) },
  };
  if (user.photoURL) dto.photoURL = user.photoURL;
  return dto;
}

export class OrganizationPermissionsDto implements OrganizationPermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

export class OrganizationUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
  @ApiPropertyOptional({ format: 'uri' }) logo?: string;
}

export class OrganizationTrialDto {
  @ApiProperty({ enum: ['notapplicable', 'none', 'active', 'ended', 'expired'] }) status: string;
  count: number;
}

export class OrganizationDto {
  @ApiProperty({ enum: ['organization'] }) object: 'organization';
  id: string;
  title: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  emailDomains: string[];
  hostname?: string;
  @ApiProperty({ enum: ORGANIZATION_TYPES }) type: string;
  @ApiPropertyOptional({ enum: ORGANIZATION_USE_CASES }) useCase?: string;
  @ApiPropertyOptional({ enum: ORGANIZATION_COMMUNITY_TYPES }) communityType?: string;
  @ApiPropertyOptional({ enum: ROLES, nullable: true }) defaultRole?: Role | null;
  @ApiPropertyOptional({ type: DefaultContentDto }) defaultContent?: DefaultContentDto;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  @ApiProperty({ enum: BILLING_PRODUCTS }) plan: string;
  @ApiProperty({ type: MergeRulesDto }) mergeRules: MergeRulesDto;
  urls: OrganizationUrlsDto;
  trial: OrganizationTrialDto;
  @ApiProperty({ description: 'Deprecated, always true' }) internal_isOnNewTrial: boolean;
  permissions: OrganizationPermissionsDto;
}

export function toOrganizationDto(org: Organization, role: Role | null, links: Links, ownTeam = false): OrganizationDto {
  const dto: OrganizationDto = {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt.toISOString(),
    emailDomains: org.emailDomains,
    type: org.type,
    defaultRole: org.defaultRole,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    mergeRules: org.mergeRules,
    urls: { location: links.api(`/orgs/${org.id}`), app: links.app(`/o/${org.id}`) },
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    permissions: { ...organizationPermissions(role), ownTeam },
  };
  if (org.hostname) dto.hostname = org.hostname;
  if (org.useCase) dto.useCase = org.useCase;
  if (org.communityType) dto.communityType = org.communityType;
  if (org.defaultContent) dto.defaultContent = org.defaultContent;
  if (org.logo) dto.urls.logo = org.logo;
  return dto;
}
