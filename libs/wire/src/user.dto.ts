import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Links } from '@app/http-kit';

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

/** What the User object is made of (the organizations context's User has it). */
export interface UserShape {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string | null;
}

export function toUserDto(user: UserShape, links: Links): UserDto {
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
