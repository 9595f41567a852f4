import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
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
import { Satisfies, Optional, toStrictBool } from '@app/http-kit';
import {
  HOSTNAME_MAX,
  HOSTNAME_MIN,
  MAX_EMAIL_DOMAINS,
  MERGE_RULE_KINDS_PLAIN,
  MERGE_RULE_KINDS_WITH_USERS,
  OrganizationMergeRules,
  TITLE_MAX,
  TITLE_MIN,
} from '../domain/organization';
import { DefaultContentDto, MergeRulesDto, OrganizationDto } from '@app/wire';
import { DISPLAY_NAME_MAX, PHOTO_URL_MAX } from '../domain/user';

// ---------- requests ----------

/**
 * The official query of createOrganization. `withDefaultSite: true` (also create a default documentation
 * site, with `openapiUrl` attached to it) is refused with a 400 naming what to do instead: Quire creates
 * sites with `POST /orgs/{id}/sites`. `openapiUrl` alone is unused, as the official document says.
 */
export class CreateOrganizationQueryDto {
  /** If true, also creates a default documentation site for the organization (not supported: 400) */
  @ApiPropertyOptional({ type: Boolean }) @Optional() @Transform(toStrictBool) @IsBoolean() withDefaultSite?: boolean;
  /** URL of an OpenAPI specification to attach to the default site; only used when `withDefaultSite` is true */
  @Optional() @IsUrl({ protocols: ['http', 'https'], require_protocol: true }) @MaxLength(2048) openapiUrl?: string;
}

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

/** The official `updateUserById` body: at least one of the two. */
export class UpdateUserDto {
  /** Full name for the user */
  @ApiPropertyOptional({ minLength: 1, maxLength: DISPLAY_NAME_MAX })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(DISPLAY_NAME_MAX)
  displayName?: string;

  /** The user's photo: an http or https URL */
  @ApiPropertyOptional({ format: 'uri', maxLength: PHOTO_URL_MAX })
  @Optional()
  @IsString()
  @MaxLength(PHOTO_URL_MAX)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  photoURL?: string;
}

/** The official `getOrganizationsForEmailDomain` answer. */
export class OrganizationsForEmailDomainDto {
  @ApiProperty({ type: [OrganizationDto] }) organizations: OrganizationDto[];
}
