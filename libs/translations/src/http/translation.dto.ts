import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { LANGUAGES, Language } from '@app/shared-kernel';
import { Optional } from '@app/http-kit';

export class TranslationSourceDto {
  /** The id of the space to translate (a space of this organization) */
  @IsString() @MinLength(1) @MaxLength(100) space: string;
  /** The language the source space is written in */
  @ApiProperty({ enum: LANGUAGES }) @IsIn(LANGUAGES) language: Language;
}

export class CreateTranslationDto {
  @ApiProperty({ type: TranslationSourceDto }) @IsObject() @ValidateNested() @Type(() => TranslationSourceDto) source: TranslationSourceDto;
  /** The language to translate into */
  @ApiProperty({ enum: LANGUAGES }) @IsIn(LANGUAGES) language: Language;
  /** Guidance for the translator, a JSON document (`{object: "document", nodes: [...]}`, at most 20,000 characters as markdown); used by language-model translators */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @Optional() @IsObject() instructions?: object;
}

export class UpdateTranslationDto {
  /** A JSON document, at most 20,000 characters as markdown */
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsObject() instructions: object;
}

export class TranslationSourceOutDto {
  space: string;
  @ApiProperty({ enum: LANGUAGES }) language: string;
}

export class TranslationResultDto {
  /** The space holding the translation */
  space: string;
  /** The revision the latest completed run wrote */
  revision: string;
  @ApiProperty({ enum: LANGUAGES }) language: string;
}

export class TranslationStatsDto {
  /** Runs so far (completed and failed) */
  runs: number;
  /** Words sent to the translator over all runs (titles and text; code is never sent) */
  totalWords: number;
  /** Distinct pages translated over all runs */
  totalPages: number;
  /** Seconds spent in runs */
  totalDuration: number;
  latestRunDuration: number;
  /** Pages the latest run translated (new or changed since the run before) */
  latestPages: number;
  latestWords: number;
}

export class TranslationRunDto {
  @ApiProperty({ enum: ['completed', 'failed'] }) status: string;
  startedAt: string;
  finishedAt: string;
  /** The translator that served the run (`apertium`, `libretranslate`, `chat-completions`) */
  @ApiProperty({ type: 'string', nullable: true }) translator: string | null;
  /** Why a failed run failed; nothing was written by it */
  @ApiProperty({ type: 'string', nullable: true }) error: string | null;
}

export class TranslationPermissionsDto {
  view: boolean;
  edit: boolean;
}

export class TranslationUrlsDto {
  location: string;
}

export class TranslationDto {
  @ApiProperty({ enum: ['translation'] }) object: 'translation';
  id: string;
  /** `pending`: a run is wanted (or the latest one failed: see `latestRun`); `running`; `completed`: the result is the latest run's */
  @ApiProperty({ enum: ['pending', 'running', 'completed'] }) status: string;
  source: TranslationSourceOutDto;
  @ApiProperty({ enum: LANGUAGES }) language: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) instructions: object;
  /** Set once a run has completed */
  @ApiPropertyOptional({ type: TranslationResultDto }) result?: TranslationResultDto;
  createdAt: string;
  updatedAt: string;
  stats: TranslationStatsDto;
  /** Quire extension: what the latest run did (absent before the first run ends) */
  @ApiPropertyOptional({ type: TranslationRunDto }) latestRun?: TranslationRunDto;
  permissions: TranslationPermissionsDto;
  urls: TranslationUrlsDto;
}
