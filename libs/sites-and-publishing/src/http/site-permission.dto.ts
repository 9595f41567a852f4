import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { Role, ROLES } from '@app/shared-kernel';
import { ListQueryDto, Optional } from '@app/http-kit';
import { TeamDto, UserDto } from '@app/wire';

export class SiteAggregateQueryDto extends ListQueryDto {
  /** Only members whose effective role on the site is this one (`guest`: none — Quire has no guests) */
  @ApiPropertyOptional({ enum: [...ROLES, 'guest'] }) @Optional() @IsIn([...ROLES, 'guest']) role?: Role | 'guest';
  /** Only members whose display name or email contains this */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) search?: string;
  /** Only members of this team */
  @Optional() @IsString() @MinLength(1) @MaxLength(100) team?: string;
  /** By user id (the order Quire keeps for this list; `sort` is not supported); default `asc` */
  @ApiPropertyOptional({ enum: ['asc', 'desc'] }) @Optional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
}

export class SiteOriginDto {
  @ApiProperty({ enum: ['organization', 'site'] }) type: string;
  organization?: string;
  site?: string;
  @ApiPropertyOptional({ enum: ['member', 'team', 'default'] }) reason?: string;
  team?: string;
}

export class UserSitePermissionDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  user: UserDto;
  origin: SiteOriginDto;
  disabled: boolean;
}

export class UserSitePermissionOverrideDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  user: UserDto;
}

export class TeamSitePermissionOverrideDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  team: TeamDto;
}
