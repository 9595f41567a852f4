import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  MaxLength,
  MinLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { Role, ROLES } from '@app/shared-kernel';
import { Links, ListQueryDto, Satisfies, Optional } from '@app/http-kit';
import type { Invite } from '../domain/invite';
import { MEMBER_SORTS, MemberSort, MemberView, SortOrder } from '../domain/member';
import { TEAM_ROLES, TEAM_TITLE_MAX, TeamMemberView, TeamRole } from '../domain/team';
import { toUserDto, UserDto, TeamDto } from '@app/wire';

// ---------- members ----------

export class ListMembersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: [...ROLES, 'guest'], description: 'The role to filter the list by' })
  @Optional()
  @IsIn([...ROLES, 'guest'])
  role?: Role | 'guest';

  /** A query to filter the list by display name and email */
  @Optional() @IsString() @MaxLength(200) search?: string;

  @ApiPropertyOptional({ enum: MEMBER_SORTS, default: 'joinedAt' })
  @Optional()
  @IsIn(MEMBER_SORTS)
  sort?: MemberSort;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @Optional()
  @IsIn(['asc', 'desc'])
  order?: SortOrder;
}

export class UpdateMemberDto {
  @ApiPropertyOptional({ enum: ROLES, nullable: true })
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES)
  role: Role | null;
}

export class MemberDto {
  @ApiProperty({ enum: ['member'] }) object: 'member';
  /** The user's id */
  id: string;
  @ApiProperty({ enum: ROLES, nullable: true }) role: Role | null;
  user: UserDto;
  disabled: boolean;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastSeenAt?: string;
  sso: boolean;
  /** Spaces granted to the member themselves (directly or through a collection; not through a team or their role), among those the caller can read */
  spaces: number;
  /** Teams the member is in */
  teams: number;
  /** Sites granted to the member themselves */
  sites: number;
}

export function toMemberDto(v: MemberView, links: Links): MemberDto {
  const dto: MemberDto = {
    object: 'member',
    id: v.user.id,
    role: v.member.role,
    user: toUserDto(v.user, links),
    disabled: v.member.disabled,
    joinedAt: v.member.joinedAt.toISOString(),
    sso: v.member.sso,
    spaces: v.spaces ?? 0,
    teams: v.teams,
    sites: v.sites ?? 0,
  };
  if (v.member.lastSeenAt) dto.lastSeenAt = v.member.lastSeenAt.toISOString();
  return dto;
}

// ---------- teams ----------

export class ListTeamsQueryDto extends ListQueryDto {
  /** The id of a member of the organization: only teams they can manage are returned */
  @Optional() @IsString() @MaxLength(100) owner?: string;
  /** Only teams whose title contains this text (case-insensitive) */
  @Optional() @IsString() @MaxLength(TEAM_TITLE_MAX) title?: string;
}

export class TitleQueryDto extends ListQueryDto {
  /** Only teams whose title contains this text (case-insensitive) */
  @Optional() @IsString() @MaxLength(TEAM_TITLE_MAX) title?: string;
}

export class CreateTeamDto {
  @IsString() @MinLength(1) @MaxLength(TEAM_TITLE_MAX) title: string;
  /** Organization members to add (user ids or emails) */
  @Optional() @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(320, { each: true }) members?: string[];
}

export class UpdateTeamDto {
  @IsString() @MinLength(1) @MaxLength(TEAM_TITLE_MAX) title: string;
}

export class TeamMemberRoleDto {
  @ApiProperty({ enum: TEAM_ROLES })
  @IsIn(TEAM_ROLES)
  role: TeamRole;
}

export class PutTeamMemberDto {
  @ApiPropertyOptional({ enum: TEAM_ROLES })
  @Optional()
  @IsIn(TEAM_ROLES)
  role?: TeamRole;
}

/** `memberships`: an object of user id → { role: "owner" | "member" } (at most 1000). */
function membershipsProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'memberships must map user ids to {"role": "owner" | "member"}';
  const entries = Object.entries(value as Record<string, unknown>);
  const ok =
    entries.length <= 1000 &&
    entries.every(
      ([k, v]) =>
        k.length > 0 &&
        k.length <= 320 &&
        typeof v === 'object' &&
        v !== null &&
        Object.keys(v).length === 1 &&
        (TEAM_ROLES as readonly unknown[]).includes((v as { role?: unknown }).role),
    );
  return ok ? null : 'memberships must map user ids to {"role": "owner" | "member"}';
}

export class UpdateTeamMembersDto {
  /** Users to add: user ids or emails of organization members */
  @Optional() @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(320, { each: true }) add?: string[];
  /** Users to remove: user ids or emails (a user also in `add` ends up removed) */
  @Optional() @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(320, { each: true }) remove?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/TeamMemberRoleDto' },
    description: 'Role per user id',
  })
  @Optional()
  @Satisfies(membershipsProblem)
  memberships?: Record<string, TeamMemberRoleDto>;
}

export class TeamMembershipDto {
  @ApiProperty({ enum: TEAM_ROLES }) role: TeamRole;
}

export class TeamMemberPermissionsDto {
  view: boolean;
}

export class TeamMemberItemDto {
  organization: MemberDto;
  team: TeamMembershipDto;
  permissions: TeamMemberPermissionsDto;
}

export function toTeamMemberItem(v: TeamMemberView, links: Links): TeamMemberItemDto {
  return { organization: toMemberDto(v.member, links), team: { role: v.role }, permissions: { view: true } };
}

export class MemberTeamItemDto {
  team: TeamDto;
  member: TeamMembershipDto;
}

// ---------- invites ----------

const EMAIL_MAX = 320;

/** An invited address: an email, or `{email, role}` (role null: a guest), and nothing else. */
function isInvitee(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= 3 && value.length <= EMAIL_MAX;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  if (Object.keys(o).some((k) => k !== 'email' && k !== 'role')) return false;
  return (
    typeof o.email === 'string' &&
    o.email.length >= 3 &&
    o.email.length <= EMAIL_MAX &&
    'role' in o &&
    (o.role === null || ROLES.includes(o.role as Role))
  );
}

/** Official InviteUsersToOrganization. */
export class InviteUsersDto {
  @ApiProperty({
    description: 'The addresses to invite (at most 100): an email, or {email, role} (role null: a guest)',
    maxItems: 100,
    items: {
      oneOf: [
        { type: 'string', format: 'email', maxLength: EMAIL_MAX },
        {
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email', maxLength: EMAIL_MAX },
            role: { type: 'string', enum: [...ROLES], nullable: true },
          },
          required: ['email', 'role'],
        },
      ],
    },
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateBy(
    { name: 'isInvitee', validator: { validate: isInvitee, defaultMessage: () => 'each of emails must be an email or {email, role}' } },
    { each: true },
  )
  emails: (string | { email: string; role: Role | null })[];
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'The role of addresses given without one (default read; null: a guest)',
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsIn(ROLES)
  role?: Role | null;
  /** Mark them as SSO members of the organization (default false) */
  @Optional() @IsBoolean() sso?: boolean;
}

export class InvitedUsersDto {
  /** The members invited (added, raised or already there) */
  users: string[];
  /** How many of them were not members before */
  invited: number;
}

export class CreateInviteDto {
  @ApiProperty({ enum: ROLES, nullable: true, description: 'The role of the member in the organization; null for a guest' })
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES)
  role: Role | null;
}

export class UpdateInviteDto {
  @ApiProperty({ enum: ROLES, nullable: true, description: 'null for a guest' })
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES)
  role: Role | null;
}

export class InviteDto {
  @ApiProperty({ enum: ['invite'] }) object: 'invite';
  /** The invite's id: a secret; whoever has it can join */
  id: string;
  @ApiProperty({ enum: ROLES, nullable: true }) role: Role | null;
  /** True when the caller already has all the invite grants */
  redundant: boolean;
}

export function toInviteDto(i: Invite, redundant: boolean): InviteDto {
  return { object: 'invite', id: i.id, role: i.role, redundant };
}
