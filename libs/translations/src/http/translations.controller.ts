import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Actor, LANGUAGES, Language } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  Optional,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { translationPermissions, TranslationsService, TranslationView } from '../application/translations.service';

// ---------------------------------------------------------------------------------------------
// Requests

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

// ---------------------------------------------------------------------------------------------
// Responses

class TranslationSourceOutDto {
  space: string;
  @ApiProperty({ enum: LANGUAGES }) language: string;
}

class TranslationResultDto {
  /** The space holding the translation */
  space: string;
  /** The revision the latest completed run wrote */
  revision: string;
  @ApiProperty({ enum: LANGUAGES }) language: string;
}

class TranslationStatsDto {
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

class TranslationRunDto {
  @ApiProperty({ enum: ['completed', 'failed'] }) status: string;
  startedAt: string;
  finishedAt: string;
  /** The translator that served the run (`apertium`, `libretranslate`, `chat-completions`) */
  @ApiProperty({ type: 'string', nullable: true }) translator: string | null;
  /** Why a failed run failed; nothing was written by it */
  @ApiProperty({ type: 'string', nullable: true }) error: string | null;
}

class PermissionsDto {
  view: boolean;
  edit: boolean;
}

class UrlsDto {
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
  permissions: PermissionsDto;
  urls: UrlsDto;
}

export function toTranslationDto({ translation: t, role }: TranslationView, links: Links): TranslationDto {
  const dto: TranslationDto = {
    object: 'translation',
    id: t.id,
    status: t.status,
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: t.instructions,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    stats: { ...t.stats },
    permissions: translationPermissions(role),
    urls: { location: links.api(`/orgs/${t.organizationId}/translations/${t.id}`) },
  };
  if (t.targetSpaceId && t.resultRevision) dto.result = { space: t.targetSpaceId, revision: t.resultRevision, language: t.language };
  if (t.latestRun)
    dto.latestRun = {
      status: t.latestRun.status,
      startedAt: t.latestRun.startedAt.toISOString(),
      finishedAt: t.latestRun.finishedAt.toISOString(),
      translator: t.latestRun.translator,
      error: t.latestRun.error,
    };
  return dto;
}

// ---------------------------------------------------------------------------------------------

/** Translations of spaces (spec part 1 §4.8). */
@ApiTags('translations')
@ApiStandardErrors()
@Controller('orgs/:organizationId/translations')
export class TranslationsController {
  constructor(private readonly translations: TranslationsService) {}

  @Get()
  @ApiOperation({ operationId: 'listTranslations', summary: 'List the translations of the organization, oldest first' })
  @ApiOkResponse({ type: ListOf(TranslationDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return listEnvelope(await this.translations.list(actor, organizationId, q.toPageRequest()), (v) => toTranslationDto(v, links));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({
    operationId: 'createTranslation',
    summary: 'Translate a space into another language (role create); its first run starts in the background',
  })
  @ApiCreatedResponse({ type: TranslationDto, description: 'Translation has been created' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateTranslationDto,
    @RequestLinks() links: Links,
  ): Promise<TranslationDto> {
    return toTranslationDto(await this.translations.create(actor, organizationId, body), links);
  }

  @Get(':translationId')
  @ApiOperation({ operationId: 'getTranslation', summary: 'A translation with its status, result and statistics' })
  @ApiOkResponse({ type: TranslationDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
    @RequestLinks() links: Links,
  ): Promise<TranslationDto> {
    return toTranslationDto(await this.translations.get(actor, organizationId, translationId), links);
  }

  @WriteTransaction()
  @Put(':translationId')
  @ApiOperation({ operationId: 'updateTranslation', summary: 'Set the instructions of a translation (role create)' })
  @ApiOkResponse({ type: TranslationDto, description: 'Translation has been updated' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
    @Body() body: UpdateTranslationDto,
    @RequestLinks() links: Links,
  ): Promise<TranslationDto> {
    return toTranslationDto(await this.translations.updateInstructions(actor, organizationId, translationId, body.instructions), links);
  }

  @WriteTransaction()
  @Delete(':translationId')
  @ApiDeleteOperation('deleteTranslation', 'Delete a translation (role create); its target space stays', 'Translation')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.translations.delete(actor, organizationId, translationId));
  }

  @WriteTransaction()
  @Post(':translationId/run')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'runTranslation',
    summary: 'Run the translation again (role create): pages changed since the latest completed run are translated in the background',
  })
  @ApiNoContentResponse({ description: 'Translation run triggered' })
  async run(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
  ): Promise<void> {
    await this.translations.requestRun(actor, organizationId, translationId);
  }
}
