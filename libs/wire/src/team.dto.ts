import { ApiProperty } from '@nestjs/swagger';

/** The official Team object, embedded by content permissions and SSO settings. */
export class TeamPermissionsDto {
  admin: boolean;
  view: boolean;
}

export class TeamDto {
  @ApiProperty({ enum: ['team'] }) object: 'team';
  id: string;
  title: string;
  /** Count of members in this team */
  members: number;
  /** Count of spaces this team has access to */
  spaces: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  permissions: TeamPermissionsDto;
}

/** What the Team object is made of (the organizations context's TeamView has it). */
export interface TeamShape {
  team: { id: string; title: string; createdAt: Date };
  members: number;
  spaces?: number;
}

export function toTeamDto(v: TeamShape, permissions: { admin: boolean; view: boolean }): TeamDto {
  return {
    object: 'team',
    id: v.team.id,
    title: v.team.title,
    members: v.members,
    spaces: v.spaces ?? 0,
    createdAt: v.team.createdAt.toISOString(),
    permissions,
  };
}
