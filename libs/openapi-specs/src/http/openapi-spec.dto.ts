import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Links, Optional } from '@app/http-kit';
import { Role, roleAtLeast } from '@app/shared-kernel';
import {
  OpenApiSpec,
  PROCESS_ERROR_CODES,
  PROCESSING_STATES,
  SLUG_MAX,
  SPEC_VISIBILITIES,
  SpecVersion,
  SpecVisibility,
  URL_MAX,
} from '../domain/openapi-spec';
import { SPEC_ROLES } from '../application/openapi-specs.service';

/** Exactly one of `url` or `text` (official OpenAPISpecSource). */
export class SpecSourceDto {
  /** An http(s) URL the document is read from (10 MB at most) */
  @Optional() @IsString() @MaxLength(URL_MAX) url?: string;
  /** The document itself, JSON or YAML (10 MB at most) */
  @Optional() @IsString() @MinLength(1) text?: string;
}

export class CreateSpecDto {
  /** 1–100 lowercase letters, digits and single dashes */
  @ApiProperty({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', minLength: 1, maxLength: SLUG_MAX })
  @IsString()
  slug: string;
  @ValidateNested() @Type(() => SpecSourceDto) @IsObject() source: SpecSourceDto;
}

export class PutSpecDto {
  @ValidateNested() @Type(() => SpecSourceDto) @IsObject() source: SpecSourceDto;
}

export class UpdateSpecDto {
  @ApiProperty({ enum: SPEC_VISIBILITIES }) @IsIn(SPEC_VISIBILITIES) visibility: SpecVisibility;
}

export class ProcessingErrorDto {
  message: string;
  /** What kind of problem: JSON_SYNTAX, YAML_SYNTAX, NOT_OPENAPI, SCHEMA, REF_NOT_FOUND, EXTERNAL_REF, HTTP_STATUS, TIMEOUT, TOO_LARGE, ADDRESS_REFUSED, … */
  code: string;
  /** 1-based line of the source, for syntax errors */
  line?: number;
  /** JSON pointer into the document, for schema and reference errors */
  pointer?: string;
}

export class SpecPermissionsDto {
  view: boolean;
  edit: boolean;
}

export class SpecUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
  /** The public link of a public specification (its latest version, no token needed) */
  @ApiPropertyOptional({ format: 'uri' }) published?: string;
}

export class OpenApiSpecDto {
  @ApiProperty({ enum: ['openapi-spec'] }) object: 'openapi-spec';
  id: string;
  createdAt: string;
  updatedAt: string;
  slug: string;
  /** The source URL (URL sources) */
  @ApiPropertyOptional({ format: 'uri' }) sourceURL?: string;
  @ApiProperty({ enum: PROCESSING_STATES }) processingState: (typeof PROCESSING_STATES)[number];
  @ApiProperty({ enum: SPEC_VISIBILITIES }) visibility: SpecVisibility;
  lastVersion?: string;
  lastProcessedAt?: string;
  @ApiPropertyOptional({ enum: PROCESS_ERROR_CODES }) lastProcessErrorCode?: (typeof PROCESS_ERROR_CODES)[number];
  @ApiProperty({ type: [ProcessingErrorDto] }) lastProcessedErrors: ProcessingErrorDto[];
  /** How many errors the last run found (at most 50 are listed) */
  lastProcessedErrorCount: number;
  permissions: SpecPermissionsDto;
  urls: SpecUrlsDto;
}

export class SpecVersionUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
}

export class SpecVersionDto {
  @ApiProperty({ enum: ['openapi-spec-version'] }) object: 'openapi-spec-version';
  id: string;
  createdAt: string;
  /** Where the specification of this version is readable: the source URL, or the content in this API */
  @ApiProperty({ format: 'uri' }) url: string;
  urls: SpecVersionUrlsDto;
}

export class SpecContentUrlsDto {
  @ApiProperty({ format: 'uri' }) source: string;
  @ApiProperty({ format: 'uri', nullable: true, type: String }) public: string | null;
}

export class SpecContentDto {
  /** `{entry, files: [{path, format, content}]}`: the document as processed */
  @ApiProperty({ type: 'object', additionalProperties: true }) filesystem: object;
  @ApiProperty({ format: 'uri' }) url: string;
  urls: SpecContentUrlsDto;
}

export class SpecRawContentDto {
  text: string;
  @ApiProperty({ enum: ['json', 'yaml'] }) format: 'json' | 'yaml';
}

const specPath = (spec: OpenApiSpec) => `/orgs/${spec.organizationId}/openapi/${spec.slug}`;
export const publicLink = (spec: OpenApiSpec, links: Links) => links.api(`/openapi/public/${spec.id}`);

export function toSpecDto(spec: OpenApiSpec, role: Role, links: Links): OpenApiSpecDto {
  const dto: OpenApiSpecDto = {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.createdAt.toISOString(),
    updatedAt: spec.updatedAt.toISOString(),
    slug: spec.slug,
    processingState: spec.processingState,
    visibility: spec.visibility,
    lastProcessedErrors: spec.lastProcessedErrors,
    lastProcessedErrorCount: spec.lastProcessedErrorCount,
    permissions: { view: true, edit: roleAtLeast(role, SPEC_ROLES.write) },
    urls: { location: links.api(specPath(spec)), app: links.app(`/o/${spec.organizationId}/openapi/${spec.slug}`) },
  };
  if (spec.source.kind === 'url') dto.sourceURL = spec.source.url;
  if (spec.lastVersionId) dto.lastVersion = spec.lastVersionId;
  if (spec.lastProcessedAt) dto.lastProcessedAt = spec.lastProcessedAt.toISOString();
  if (spec.lastProcessErrorCode) dto.lastProcessErrorCode = spec.lastProcessErrorCode;
  if (spec.visibility === 'public' && spec.lastVersionId) dto.urls.published = publicLink(spec, links);
  return dto;
}

const versionLocation = (spec: OpenApiSpec, id: string, links: Links) => links.api(`${specPath(spec)}/versions/${id}`);

export function toVersionDto(spec: OpenApiSpec, v: Omit<SpecVersion, 'text'>, links: Links): SpecVersionDto {
  const location = versionLocation(spec, v.id, links);
  return {
    object: 'openapi-spec-version',
    id: v.id,
    createdAt: v.createdAt.toISOString(),
    url: v.sourceUrl ?? `${location}/content`,
    urls: { location },
  };
}

export function toContentDto(spec: OpenApiSpec, v: SpecVersion, links: Links): SpecContentDto {
  const entry = `openapi.${v.format}`;
  const url = v.sourceUrl ?? `${versionLocation(spec, v.id, links)}/content`;
  return {
    filesystem: { entry, files: [{ path: entry, format: v.format, content: v.text }] },
    url,
    urls: { source: url, public: spec.visibility === 'public' ? publicLink(spec, links) : null },
  };
}
