import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from '@app/http-kit';
import { PASSWORD_MAX } from '../domain/session';
import type { Session } from '../domain/session';

export class SignInDto {
  /** The user's email address */
  @IsString() @MinLength(3) @MaxLength(320) email: string;
  @ApiProperty({ maxLength: PASSWORD_MAX, format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX)
  password: string;
}

export class SignInLinkDto {
  /** The token of a one-time sign-in link (what follows `#` in the link) */
  @IsString() @MinLength(20) @MaxLength(200) token: string;
}

export class SetPasswordDto {
  @ApiPropertyOptional({ maxLength: PASSWORD_MAX, format: 'password', description: 'The password now; needed when one is set' })
  @Optional()
  @IsString()
  @MaxLength(PASSWORD_MAX)
  currentPassword?: string;
  @ApiProperty({ minLength: 10, maxLength: PASSWORD_MAX, format: 'password', description: '10 to 256 characters' })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  newPassword: string;
}

export class SessionDto {
  @ApiProperty({ enum: ['session'] }) object: 'session';
  id: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Last use (to the hour)' }) lastSeenAt: string;
  @ApiProperty({ format: 'date-time', description: 'When it ends unless used again' }) expiresAt: string;
  @ApiProperty({ enum: ['password', 'link', 'sso'], description: 'How it began' }) method: 'password' | 'link' | 'sso';
  @ApiPropertyOptional({ description: 'For a session an SSO login began: the one organization it reaches' }) organization?: string;
  @ApiProperty({ nullable: true, type: String, description: "The browser's User-Agent when it signed in" }) userAgent: string | null;
  @ApiProperty({ description: 'Whether it is the session of this request' }) current: boolean;
}

export class SignedInDto {
  @ApiProperty({ enum: ['signed-in'] }) object: 'signed-in';
  /** The signed-in user's id */
  user: string;
  email: string;
  displayName: string;
  @ApiProperty({ type: SessionDto }) session: SessionDto;
  @ApiProperty({ description: 'Send it as the X-CSRF-Token header with every call made with the session cookie' })
  csrfToken: string;
}

export function toSessionDto(s: Session, currentId: string | null): SessionDto {
  return {
    object: 'session',
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    method: s.method,
    ...(s.scope ? { organization: s.scope } : {}),
    userAgent: s.userAgent,
    current: s.id === currentId,
  };
}
