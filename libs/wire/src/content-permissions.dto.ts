import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { INVITE_MAX } from '@app/access';
import { Optional } from '@app/http-kit';
import { Role, ROLES } from '@app/shared-kernel';
import { TeamDto } from './team.dto';
import { UserDto } from './user.dto';

// The grants of spaces, collections and sites (official inviteToSpace, inviteToCollection, inviteToSite …).

export class InviteUsersAndTeamsDto {
  /** The role to grant (`null`, a guest in the official document, is refused: Quire has no guests) */
  @ApiProperty({ enum: ROLES, nullable: true }) @ValidateIf((_o, v) => v !== null) @IsIn(ROLES) role: Role | null;
  /** Members of the organization, by id or email */
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(INVITE_MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(320, { each: true })
  users?: string[];
  /** Teams of the organization, by id */
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(INVITE_MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(100, { each: true })
  teams?: string[];
}

export class UpdateContentPermissionDto {
  @ApiProperty({ enum: ROLES, nullable: true }) @ValidateIf((_o, v) => v !== null) @IsIn(ROLES) role: Role | null;
}

export class UserContentPermissionDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  user: UserDto;
}

export class TeamContentPermissionDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  team: TeamDto;
}
