import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsString, MaxLength, MinLength } from 'class-validator';
import { OrganizationPermissions, organizationPermissions } from '@app/access';
import type { Links } from '@app/http-kit';
import {
  BILLING_PRODUCTS,
  ORGANIZATION_COMMUNITY_TYPES,
  ORGANIZATION_TYPES,
  ORGANIZATION_USE_CASES,
  ROLES,
  Role,
} from '@app/shared-kernel';

/** An organization's default content (also a member of the organization update request). */
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

/** An organization's merge rules (validated on update by the organizations context's mergeRulesProblem). */
export class MergeRulesDto {
  @ApiProperty({ enum: ['none', 'rules'] })
  type: 'none' | 'rules';
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', properties: { rule: { type: 'string' }, users: { type: 'array', items: { type: 'string' } } } },
  })
  rules?: { rule: string; users?: string[] }[];
}

/** The official Organization object: `GET /orgs/{id}`, and embedded by content locations. */
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

/** What the Organization object is made of (the organizations context's Organization has it). */
export interface OrganizationShape {
  id: string;
  title: string;
  createdAt: Date;
  emailDomains: string[];
  hostname: string | null;
  type: string;
  useCase: string | null;
  communityType: string | null;
  defaultRole: Role | null;
  defaultContent: DefaultContentDto | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: MergeRulesDto;
  logo: string | null;
}

/** `role`: the caller's (null: a guest; only members and guests are shown an organization). */
export function toOrganizationDto(org: OrganizationShape, role: Role | null, links: Links, ownTeam = false): OrganizationDto {
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
    permissions: { ...organizationPermissions(role ?? 'guest'), ownTeam },
  };
  if (org.hostname) dto.hostname = org.hostname;
  if (org.useCase) dto.useCase = org.useCase;
  if (org.communityType) dto.communityType = org.communityType;
  if (org.defaultContent) dto.defaultContent = org.defaultContent;
  if (org.logo) dto.urls.logo = org.logo;
  return dto;
}
