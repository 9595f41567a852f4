import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Links } from '@app/http-kit';
import type { User } from '@app/organizations-and-teams';

/** The official User object, embedded by members, teams, comments, reviews and content permissions. */
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
