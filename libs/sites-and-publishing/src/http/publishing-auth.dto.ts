import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUrl, MaxLength } from 'class-validator';
import { Optional } from '@app/http-kit';

const AUTH_BACKENDS = ['custom', 'integration'] as const;

export class UpdatePublishingAuthDto {
  /** Only `custom` is supported (a backend of your own signs visitor tokens) */
  @ApiPropertyOptional({ enum: AUTH_BACKENDS }) @Optional() @IsIn(AUTH_BACKENDS) backend?: (typeof AUTH_BACKENDS)[number];
  /** Where visitors go when their token is refused; null unsets it */
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  fallbackURL?: string | null;
  /** Where visitors log out of your backend; null unsets it */
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  logoutURL?: string | null;
}

export class PublishingAuthDto {
  @ApiProperty({ enum: ['publishing-auth'] }) object: 'publishing-auth';
  @ApiProperty({ enum: ['custom'] }) backend: 'custom';
  /** The key visitor tokens are signed with (HS256) */
  privateKey: string;
  @ApiPropertyOptional({ format: 'uri' }) fallbackURL?: string;
  @ApiPropertyOptional({ format: 'uri' }) logoutURL?: string;
}

export function toPublishingAuthDto(auth: { privateKey: string; fallbackURL: string | null; logoutURL: string | null }): PublishingAuthDto {
  const dto: PublishingAuthDto = { object: 'publishing-auth', backend: 'custom', privateKey: auth.privateKey };
  if (auth.fallbackURL) dto.fallbackURL = auth.fallbackURL;
  if (auth.logoutURL) dto.logoutURL = auth.logoutURL;
  return dto;
}
