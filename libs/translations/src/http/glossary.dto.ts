import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsString, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { LANGUAGES, Language } from '@app/shared-kernel';
import { ListQueryDto, Optional } from '@app/http-kit';
import { GLOSSARY_OPERATIONS_MAX, TERM_MAX } from '../domain/glossary';

const TRANSLATIONS_SCHEMA = {
  type: 'object',
  description: 'Terms by language code (official TranslationLanguage): 1 to 255 characters, no line break',
  additionalProperties: { type: 'string', minLength: 1, maxLength: TERM_MAX, pattern: '^[^\\n\\r]*$' },
} as const;

export class ListGlossaryQueryDto extends ListQueryDto {
  /** Sort by the term in this language (entries without one last); absent: in creation order */
  @ApiPropertyOptional({ enum: LANGUAGES }) @Optional() @IsIn(LANGUAGES) orderBy?: Language;
}

/** Official GlossaryBatchOperation: insert (translations), update (id, translations: replaced), delete (id). */
export class GlossaryOperationDto {
  @ApiProperty({ enum: ['insert', 'update', 'delete'] }) @IsIn(['insert', 'update', 'delete']) type: 'insert' | 'update' | 'delete';
  /** The entry to update or delete */
  @ApiPropertyOptional()
  @ValidateIf((o: GlossaryOperationDto) => o.type !== 'insert')
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  id?: string;
  @ApiPropertyOptional(TRANSLATIONS_SCHEMA)
  @ValidateIf((o: GlossaryOperationDto) => o.type !== 'delete')
  @IsObject()
  translations?: Record<string, unknown>;
}

export class UpdateGlossaryDto {
  @ApiProperty({ type: [GlossaryOperationDto], maxItems: GLOSSARY_OPERATIONS_MAX })
  @IsArray()
  @ArrayMaxSize(GLOSSARY_OPERATIONS_MAX)
  @ValidateNested({ each: true })
  @Type(() => GlossaryOperationDto)
  operations: GlossaryOperationDto[];
}

export class GlossaryEntryUrlsDto {
  /** URL of the glossary entry in the API */
  location: string;
}

export class GlossaryEntryDto {
  @ApiProperty({ enum: ['glossary-entry'] }) object: 'glossary-entry';
  id: string;
  @ApiProperty(TRANSLATIONS_SCHEMA) translations: Record<string, string>;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  urls: GlossaryEntryUrlsDto;
}
