import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Optional, toStrictInt } from '@app/http-kit';
import type { ApiToken } from '../domain/api-token';

export class CreateApiTokenDto {
  /** What the token is for (shown in the list) */
  @IsString() @MinLength(1) @MaxLength(100) label: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 3650, description: 'Days until it expires; without it, it does not' })
  @Optional()
  @Transform(toStrictInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;
}

export class ApiTokenDto {
  @ApiProperty({ enum: ['api-token'] }) object: 'api-token';
  id: string;
  label: string;
  /** Its first characters, to tell tokens apart */
  prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The organization an SSO token is limited to' }) organization: string | null;
}

export class CreatedApiTokenDto extends ApiTokenDto {
  @ApiProperty({ description: 'The token itself: shown this once, never again' }) token: string;
}

export function toApiTokenDto(t: ApiToken): ApiTokenDto {
  return {
    object: 'api-token',
    id: t.id,
    label: t.label,
    prefix: t.prefix,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
    organization: t.organizationId,
  };
}
