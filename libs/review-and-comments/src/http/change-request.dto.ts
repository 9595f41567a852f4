import { PAGE_MARKDOWN_MAX } from '@app/wire';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { Links, ListQueryDto, Satisfies, Optional, toStrictBool } from '@app/http-kit';
import { User } from '@app/organizations-and-teams';
import { userDtos } from './user-dtos';
import type { ContentChangeInput } from '@app/spaces-and-content';
import {
  CHANGE_REQUEST_DESCRIPTION_MAX,
  CHANGE_REQUEST_STATUSES,
  ChangeRequest,
  ChangeRequestStatus,
  SUBJECT_MAX,
} from '../domain/change-request';
import { UserDto } from '@app/wire';

const MARKDOWN_MAX = PAGE_MARKDOWN_MAX;
const OPERATIONS = ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files'];

/** Checks one change's shape (the official ChangeRequestContentChange union); null when valid. */
export function changeProblem(c: unknown, i: number): string | null {
  const at = `changes[${i}]`;
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return `${at} must be an object`;
  const v = c as Record<string, unknown>;
  if (!OPERATIONS.includes(v.operation as string)) return `${at}.operation must be one of ${OPERATIONS.join(', ')}`;
  if (v.operation === 'insert_files') {
    if (!Array.isArray(v.files) || v.files.length < 1 || v.files.length > 20) return `${at}.files must be an array of 1 to 20 files`;
    if (Object.keys(v).some((k) => k !== 'operation' && k !== 'files')) return `${at}: unknown members`;
    for (const [j, f] of (v.files as unknown[]).entries()) {
      const where = `${at}.files[${j}]`;
      if (typeof f !== 'object' || f === null) return `${where} must be an object`;
      const file = f as Record<string, unknown>;
      if (Object.keys(file).some((k) => !['ref', 'name', 'contentType', 'base64', 'url'].includes(k))) return `${where}: unknown members`;
      if (typeof file.name !== 'string' || !file.name || file.name.length > 256) return `${where}.name must be 1 to 256 characters`;
      if ((file.base64 === undefined) === (file.url === undefined)) return `${where} needs exactly one source: base64 or url`;
      if (file.base64 !== undefined && (typeof file.base64 !== 'string' || file.base64.length > 1_400_000))
        return `${where}.base64 must be a string (1 MB of bytes at most)`;
      if (file.url !== undefined && (typeof file.url !== 'string' || file.url.length > 2048))
        return `${where}.url must be a URL of at most 2048 characters`;
      for (const k of ['ref', 'contentType'])
        if (file[k] !== undefined && (typeof file[k] !== 'string' || file[k].length > 255)) return `${where}.${k} must be a string`;
    }
    return null;
  }
  const str = (k: string, max: number, required = false): string | null => {
    if (v[k] === undefined) return required ? `${at}.${k} is required` : null;
    return typeof v[k] === 'string' && v[k].length <= max ? null : `${at}.${k} must be a string of at most ${max} characters`;
  };
  const pageFields = ['document', 'title', 'slug', 'emoji', 'description', 'hidden', 'icon', 'noIndex', 'noRobotsIndex', 'condition'];
  const allowed: Record<string, string[]> = {
    insert_page: ['operation', 'into', 'at', 'ref', ...pageFields],
    update_page: ['operation', 'page', 'into', 'at', ...pageFields],
    delete_page: ['operation', 'page'],
    revert_page: ['operation', 'page', 'revision', 'block'],
  };
  const unknown = Object.keys(v).filter((k) => !allowed[v.operation as string].includes(k));
  if (unknown.length) return `${at}: unknown member(s) ${unknown.join(', ')}`;
  const problems = [
    v.operation !== 'insert_page' ? str('page', 200, true) : null,
    v.operation === 'insert_page' && v.document === undefined ? `${at}.document is required` : null,
    v.into === null && v.operation === 'update_page' ? null : str('into', 200),
    v.at !== undefined && !(Number.isInteger(v.at) && (v.at as number) >= 0) ? `${at}.at must be an integer ≥ 0` : null,
    str('ref', 200),
    str('title', 255),
    v.title !== undefined && typeof v.title === 'string' && !v.title.trim() ? `${at}.title must not be empty` : null,
    str('slug', 100),
    str('emoji', 50),
    str('icon', 100),
    str('description', 1000),
    str('revision', 200),
    v.hidden !== undefined && typeof v.hidden !== 'boolean' ? `${at}.hidden must be a boolean` : null,
    v.noIndex !== undefined && typeof v.noIndex !== 'boolean' ? `${at}.noIndex must be a boolean` : null,
    v.noRobotsIndex !== undefined && typeof v.noRobotsIndex !== 'boolean' ? `${at}.noRobotsIndex must be a boolean` : null,
    v.condition !== undefined && v.condition !== null && (typeof v.condition !== 'string' || v.condition.length > 1024)
      ? `${at}.condition must be a string of at most 1024 characters, or null`
      : null,
    v.block !== undefined &&
    !(Array.isArray(v.block) && v.block.length <= 1000 && v.block.every((b) => typeof b === 'string' && b.length > 0 && b.length <= 100))
      ? `${at}.block must be an array of at most 1000 block keys (1 to 100 characters each)`
      : null,
  ];
  if (v.document !== undefined) {
    const d = v.document as Record<string, unknown>;
    if (typeof d !== 'object' || d === null || Array.isArray(d))
      problems.push(`${at}.document must be {"markdown": "..."} or {"document": {...}}`);
    else if ('markdown' in d) {
      if (typeof d.markdown !== 'string' || d.markdown.length > MARKDOWN_MAX || Object.keys(d).length !== 1)
        problems.push(`${at}.document.markdown must be a string of at most ${MARKDOWN_MAX} characters`);
    } else if ('document' in d) {
      if (typeof d.document !== 'object' || d.document === null || Object.keys(d).length !== 1)
        problems.push(`${at}.document.document must be a document object`);
    } else if (Object.keys(d).length) problems.push(`${at}.document must be {"markdown": "..."}, {"document": {...}} or {}`);
  }
  return problems.find((p) => p !== null) ?? null;
}

export class ContentChangesDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: 50,
    items: { type: 'object', additionalProperties: true },
    description: 'insert_page, update_page, delete_page, revert_page (official ChangeRequestContentChange)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @Satisfies((value) => (Array.isArray(value) ? (value.map(changeProblem).find((p) => p !== null) ?? null) : 'changes must be an array'))
  changes: ContentChangeInput[];
}

export class ContentChangesQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: true, description: 'true: the change request; false: it and the affected pages' })
  @Optional()
  @IsIn(['true', 'false'])
  compat?: 'true' | 'false';
}

export class ListChangeRequestsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CHANGE_REQUEST_STATUSES, default: 'open' })
  @Optional()
  @IsIn(CHANGE_REQUEST_STATUSES)
  status?: ChangeRequestStatus;
  /** Only change requests created by this user */
  @Optional() @IsString() @MaxLength(100) creator?: string;
  /** Only change requests this user wrote content into */
  @Optional() @IsString() @MaxLength(100) contributor?: string;
  /** Only change requests with a pending review request to this user */
  @Optional() @IsString() @MaxLength(100) requestedReviewer?: string;
  /** Only change requests linked to this conversations issues cluster (no link exists yet: none match) */
  @Optional() @IsString() @MaxLength(100) conversationsIssuesCluster?: string;
  /** Only change requests linked to this site topic (Quire has no site topics: none match) */
  @Optional() @IsString() @MinLength(1) @MaxLength(100) topic?: string;
  /** Most recent first by this time; without it, newest first by number */
  @ApiPropertyOptional({ enum: ['updatedAt', 'createdAt'] })
  @Optional()
  @IsIn(['updatedAt', 'createdAt'])
  orderBy?: 'updatedAt' | 'createdAt';
}

const asArray = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? [value] : value);

export class ListOrganizationChangeRequestsQueryDto extends ListQueryDto {
  /** Only change requests with one of these statuses (default `open`; repeat the parameter for several) */
  @ApiPropertyOptional({ type: [String], enum: CHANGE_REQUEST_STATUSES, default: ['open'] })
  @Optional()
  @Transform(asArray)
  @IsArray()
  @ArrayMaxSize(CHANGE_REQUEST_STATUSES.length)
  @IsIn(CHANGE_REQUEST_STATUSES, { each: true })
  status?: ChangeRequestStatus[];
  /** Only change requests created by this user */
  @Optional() @IsString() @MaxLength(100) creator?: string;
  /** Only change requests this user wrote content into */
  @Optional() @IsString() @MaxLength(100) contributor?: string;
  /** Only change requests with a pending review request to this user */
  @Optional() @IsString() @MaxLength(100) requestedReviewer?: string;
  /** Only change requests of this space */
  @Optional() @IsString() @MaxLength(100) space?: string;
  /** Only change requests linked to this conversations issues cluster (no link exists yet: none match) */
  @Optional() @IsString() @MaxLength(100) conversationsIssuesCluster?: string;
  /** Only change requests linked to this site (no link exists: none match) */
  @Optional() @IsString() @MaxLength(100) site?: string;
  /** Only change requests linked to this site topic (no link exists: none match) */
  @Optional() @IsString() @MaxLength(100) topic?: string;
  /** Only change requests opened by this style guide run (Quire has none: none match) */
  @Optional() @IsString() @MaxLength(100) styleguideRun?: string;
  /** Change requests from triage: Quire has none, so both values list the same */
  @Optional() @IsIn(['none', 'all']) finding?: 'none' | 'all';
  /** Sort by (newest first; default `updatedAt`) */
  @ApiPropertyOptional({ enum: ['updatedAt', 'createdAt'], default: 'updatedAt' })
  @Optional()
  @IsIn(['updatedAt', 'createdAt'])
  orderBy?: 'updatedAt' | 'createdAt';
}

export class PdfQueryDto {
  /** Export only the given page (needs `page`) */
  @Optional() @Transform(toStrictBool) @IsBoolean() only?: boolean;
  /** The page to export (with its subpages unless `only`) */
  @Optional() @IsString() @MaxLength(200) page?: string;
}

export class PdfUrlDto {
  /** Temporary URL of the PDF (valid for one hour) */
  url: string;
}

export class CreateChangeRequestDto {
  @Optional() @IsString() @MaxLength(SUBJECT_MAX) subject?: string;
}

export class UpdateChangeRequestDto {
  @Optional() @IsString() @MaxLength(SUBJECT_MAX) subject?: string;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'object', additionalProperties: true, description: 'A rich-text document (the official JSONDocument)' },
      {
        type: 'object',
        properties: { markdown: { type: 'string', maxLength: CHANGE_REQUEST_DESCRIPTION_MAX } },
        required: ['markdown'],
        description: "Quire extension: markdown (the official MarkdownDocument), its page links resolved from the space's root",
      },
    ],
    nullable: true,
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsObject()
  @Satisfies((v) => {
    if (v === null || typeof v !== 'object') return 'description must be a document';
    const o = v as { object?: unknown; nodes?: unknown; markdown?: unknown };
    if ('markdown' in o) {
      if (Object.keys(o).length !== 1 || typeof o.markdown !== 'string') return 'description as markdown is {"markdown": "…"} alone';
      return o.markdown.length > CHANGE_REQUEST_DESCRIPTION_MAX
        ? `description.markdown must be at most ${CHANGE_REQUEST_DESCRIPTION_MAX} characters`
        : null;
    }
    return o.object === 'document' && Array.isArray(o.nodes)
      ? null
      : 'description must be a document {"object":"document","data":{},"nodes":[]} or {"markdown": "…"}';
  })
  description?: object | null;

  /** Quire extension: the issues cluster (conversations) this change request addresses; null unlinks it */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  conversationsIssuesCluster?: string | null;

  @ApiPropertyOptional({ enum: ['draft', 'open', 'archived'] })
  @Optional()
  @IsIn(['draft', 'open', 'archived'])
  status?: ChangeRequestStatus;
}

export class ChangeRequestUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
}

export class ChangeRequestDto {
  @ApiProperty({ enum: ['change-request'] }) object: 'change-request';
  id: string;
  number: number;
  @ApiProperty({ enum: CHANGE_REQUEST_STATUSES }) status: ChangeRequestStatus;
  subject: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) description?: object;
  createdBy: UserDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  mergedBy?: UserDto;
  @ApiPropertyOptional({ format: 'date-time' }) mergedAt?: string;
  space: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  /** The issues cluster it addresses */
  conversationsIssuesCluster?: string;
  comments: number;
  /** True when main moved past the change request's base */
  outdated: boolean;
  urls: ChangeRequestUrlsDto;
}

export function toChangeRequestDto(cr: ChangeRequest, outdated: boolean, users: Map<string, User>, links: Links): ChangeRequestDto {
  const user = userDtos(users, links);
  const dto: ChangeRequestDto = {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: user(cr.createdBy),
    createdAt: cr.createdAt.toISOString(),
    updatedAt: cr.updatedAt.toISOString(),
    space: cr.spaceId,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    comments: cr.comments,
    outdated,
    urls: {
      location: links.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`),
      app: links.app(`/s/${cr.spaceId}/~/changes/${cr.number}`),
    },
  };
  if (cr.description) dto.description = cr.description;
  if (cr.mergedBy) dto.mergedBy = user(cr.mergedBy);
  if (cr.mergedAt) dto.mergedAt = cr.mergedAt.toISOString();
  if (cr.revisionMergedAncestor) dto.revisionMergedAncestor = cr.revisionMergedAncestor;
  if (cr.revisionMerged) dto.revisionMerged = cr.revisionMerged;
  if (cr.conversationsIssuesCluster) dto.conversationsIssuesCluster = cr.conversationsIssuesCluster;
  return dto;
}

export class MergeResultDto {
  revision: string;
  @ApiProperty({ enum: ['merge'] }) result: 'merge';
}

export class UpdateResultDto {
  revision: string;
  @ApiProperty({ enum: ['update'] }) result: 'update';
}
