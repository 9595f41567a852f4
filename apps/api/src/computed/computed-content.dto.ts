import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Optional } from '@app/http-kit';
import { RevisionFileDto, RevisionPageDto, RevisionReusableContentDto } from '@app/wire';

/** The official computed content source: `builtin:openapi`, `builtin:translation` (integration sources are refused). */
export class ComputedSourceDto {
  @ApiProperty({ description: 'builtin:openapi or builtin:translation', minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  type: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The properties the computation takes (per type)' })
  @Optional()
  @IsObject()
  props?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'What the computation depends on: `spec` or `translation`, each `{ref}`',
  })
  @Optional()
  @IsObject()
  dependencies?: Record<string, unknown>;
}

/** The official body of getComputedDocument and getComputedRevision. */
export class ComputeContentDto {
  @ApiProperty({ type: ComputedSourceDto }) @IsObject() @ValidateNested() @Type(() => ComputedSourceDto) source: ComputedSourceDto;
  @ApiProperty({ description: 'Seed to use for the generation of IDs (the same seed gives the same ids)', minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  seed: string;
}

/** The answer of getComputedRevision: the pages (their bodies inline, `document`), files and reusable contents. */
export class ComputedRevisionDto {
  @ApiProperty({ type: [RevisionPageDto] }) pages: RevisionPageDto[];
  @ApiProperty({ type: [RevisionFileDto] }) files: RevisionFileDto[];
  @ApiProperty({ type: [RevisionReusableContentDto] }) reusableContents: RevisionReusableContentDto[];
}

export class SchemaQueryDto {
  @ApiPropertyOptional({ enum: ['current', 'next'], description: 'Version of the schema used for the document' })
  @Optional()
  @IsIn(['current', 'next'])
  schema?: 'current' | 'next';
}
