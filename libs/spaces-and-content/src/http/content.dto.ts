import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ListQueryDto, Satisfies, Optional, toStrictBool } from '@app/http-kit';
import { DEFAULT_LEVELS, DefaultLevel } from '@app/access';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '../domain/collection';
import type { ContentPosition } from '../domain/position';
import { EMOJI_MAX, SPACE_TITLE_MAX, SpaceMergeRules } from '../domain/space';
import { EDIT_MODES, EditMode, Language, LANGUAGES } from '@app/shared-kernel';

const EMOJI_CHARS =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Presentation}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3|[#*0-9])+$/u;
const EMOJI_CODEPOINTS = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/i;

export function emojiProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > EMOJI_MAX) return `must be at most ${EMOJI_MAX} characters`;
  return EMOJI_CHARS.test(value) || EMOJI_CODEPOINTS.test(value)
    ? null
    : 'must be an emoji character or its Unicode codepoint (e.g. "1f389")';
}

function pointerProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const v = value as Record<string, unknown>;
  const idOk = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= 100;
  if (v.type === 'space') return idOk(v.space) && Object.keys(v).length === 2 ? null : 'a space pointer is {"type":"space","space":"<id>"}';
  if (v.type === 'collection')
    return idOk(v.collection) && Object.keys(v).length === 2 ? null : 'a collection pointer is {"type":"collection","collection":"<id>"}';
  return 'type must be "space" or "collection"';
}

export function positionProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => k !== 'before' && k !== 'after')) return 'only "before" and "after" are allowed';
  for (const k of ['before', 'after'] as const) {
    if (v[k] !== undefined) {
      const p = pointerProblem(v[k]);
      if (p) return `${k}: ${p}`;
    }
  }
  return null;
}

export function spaceMergeRulesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const v = value as Record<string, unknown>;
  if (v.type === 'inherit' || v.type === 'none') return Object.keys(v).length === 1 ? null : `type "${v.type}" takes no other members`;
  if (v.type !== 'rules') return 'type must be "inherit", "none" or "rules"';
  if (!Array.isArray(v.rules) || v.rules.length > 50) return 'rules must be an array of at most 50 rules';
  const ok = v.rules.every(
    (r: unknown) =>
      typeof r === 'object' &&
      r !== null &&
      typeof (r as { rule?: unknown }).rule === 'string' &&
      ((r as { users?: unknown }).users === undefined ||
        (Array.isArray((r as { users: unknown[] }).users) && (r as { users: unknown[] }).users.every((u) => typeof u === 'string'))),
  );
  return ok ? null : 'each rule is {"rule": string, "users"?: string[]}';
}

class PointerDto {
  @ApiProperty({ enum: ['space', 'collection'] }) type: 'space' | 'collection';
  @ApiPropertyOptional() space?: string;
  @ApiPropertyOptional() collection?: string;
}

export class ContentPositionDto {
  @ApiPropertyOptional({ type: PointerDto }) before?: PointerDto;
  @ApiPropertyOptional({ type: PointerDto }) after?: PointerDto;
}

// ---------- spaces ----------

export function templateProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'template must be {"id": "...", "params"?: {...}}';
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || !v.id || v.id.length > 100) return 'template.id must be a template id';
  if (Object.keys(v).some((k) => k !== 'id' && k !== 'params')) return 'template takes only id and params';
  if (v.params === undefined) return null;
  const p = v.params as Record<string, unknown>;
  if (typeof p !== 'object' || p === null || Object.keys(p).some((k) => k !== 'contentRefs'))
    return 'template.params takes only contentRefs';
  const refs = p.contentRefs;
  if (refs === undefined) return null;
  if (typeof refs !== 'object' || refs === null) return 'template.params.contentRefs must be an object';
  const ok = Object.values(refs).every(
    (r) =>
      typeof r === 'object' &&
      r !== null &&
      (r as { kind?: unknown }).kind === 'file' &&
      typeof (r as { file?: unknown }).file === 'string',
  );
  return ok ? null : 'template.params.contentRefs values must be {"kind": "file", "file": "<id>"}';
}

export class ApplyTemplateDto {
  /** The template's id: getting-started, api-reference or product-docs */
  @IsString() @MinLength(1) @MaxLength(100) id: string;

  @ApiPropertyOptional({
    type: 'object',
    properties: {
      contentRefs: {
        type: 'object',
        additionalProperties: { type: 'object', properties: { kind: { type: 'string', enum: ['file'] }, file: { type: 'string' } } },
      },
    },
  })
  @Optional()
  @Satisfies((v) => templateProblem({ id: 'x', params: v }))
  params?: { contentRefs?: Record<string, { kind: 'file'; file: string }> };
}

export class CreateSpaceDto {
  @Optional() @IsString() @MaxLength(SPACE_TITLE_MAX) title?: string;

  @ApiPropertyOptional({ description: 'Unicode codepoint or character of the emoji', example: '🎉' })
  @Optional()
  @Satisfies(emojiProblem)
  emoji?: string;

  /** ID of a parent collection */
  @Optional() @IsString() @MaxLength(100) parent?: string;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @Optional()
  @IsIn(LANGUAGES)
  language?: Language;

  @ApiPropertyOptional({ enum: EDIT_MODES })
  @Optional()
  @IsIn(EDIT_MODES)
  editMode?: EditMode;

  @ApiPropertyOptional({ type: ApplyTemplateDto, description: 'Create the space from a built-in template' })
  @Optional()
  @Satisfies(templateProblem)
  template?: { id: string; params?: { contentRefs?: Record<string, { kind: 'file'; file: string }> } };

  @ApiPropertyOptional({ enum: [true], description: 'Create a completely empty space (no page in it)' })
  @Optional()
  @Equals(true)
  empty?: true;
}

export class UpdateSpaceDto {
  @ApiPropertyOptional({ enum: EDIT_MODES })
  @Optional()
  @IsIn(EDIT_MODES)
  editMode?: EditMode;

  @Optional() @IsString() @MaxLength(SPACE_TITLE_MAX) title?: string;

  @ApiPropertyOptional({ enum: DEFAULT_LEVELS, nullable: true })
  @Optional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @Optional()
  @IsIn(LANGUAGES)
  language?: Language;

  @ApiPropertyOptional({
    type: 'object',
    description: '{"type":"inherit"}, {"type":"none"} or {"type":"rules","rules":[...]}',
    additionalProperties: true,
  })
  @Optional()
  @Satisfies(spaceMergeRulesProblem)
  mergeRules?: SpaceMergeRules;

  @ApiPropertyOptional({ nullable: true, description: 'An emoji, or null to remove it' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Satisfies(emojiProblem)
  emoji?: string | null;
}

export class MoveDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The unique id of the parent collection (null: top level)' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(100)
  parent?: string | null;

  @ApiPropertyOptional({ type: ContentPositionDto, description: 'Where to move the item; by default at the end' })
  @Optional()
  @Satisfies(positionProblem)
  position?: ContentPosition;
}

export class TransferDto {
  /** The unique id of the target organization */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  organization: string;
}

export class GetSpaceQueryDto {
  /** Share key of a share-link site, to resolve published URLs */
  @Optional()
  @IsString()
  @MaxLength(200)
  shareKey?: string;
}

// ---------- collections ----------

export class CreateCollectionDto {
  @Optional() @IsString() @MaxLength(COLLECTION_TITLE_MAX) title?: string;
  /** ID of a parent collection */
  @Optional() @IsString() @MaxLength(100) parent?: string;
}

export class UpdateCollectionDto {
  @Optional() @IsString() @MaxLength(COLLECTION_TITLE_MAX) title?: string;
  @Optional() @IsString() @MaxLength(COLLECTION_DESCRIPTION_MAX) description?: string;

  @ApiPropertyOptional({ enum: DEFAULT_LEVELS, nullable: true })
  @Optional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;
}

export class OrderedListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'Order by creation time' })
  @Optional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}

export class ListCollectionsQueryDto extends ListQueryDto {
  /** If true (default), nested collections are listed too */
  @ApiPropertyOptional({ type: Boolean, default: true })
  @Optional()
  @Transform(toStrictBool)
  @IsBoolean()
  nested?: boolean;
}

/** The official `getDocumentById` query: the document schema's version (Quire has one: both give it). */
export class DocumentByIdQueryDto {
  @ApiPropertyOptional({ enum: ['current', 'next'], description: 'Version of the schema used for the document' })
  @Optional()
  @IsIn(['current', 'next'])
  schema?: 'current' | 'next';
}
