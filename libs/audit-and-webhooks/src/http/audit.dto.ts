import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsString, Max, MaxLength, Min } from 'class-validator';
import { Links, Optional, toStrictInt } from '@app/http-kit';
import { InvalidInputError, pageRequest, PageRequest } from '@app/shared-kernel';
import type { AuditAction, AuditEvent, AuditEventFilter } from '../domain/audit-event';

/** Filters and paging of `listOrganizationAuditEvents` (official: limit 1..100, default 20). */
export class AuditEventsQueryDto {
  @Optional() @IsString() @MaxLength(2048) page?: string;

  /** Number of events to return, up to 100 (default 20). */
  @Optional() @Transform(toStrictInt) @IsInt() @Min(1) @Max(100) limit?: number;

  /** Include events occurring at or after this time. */
  @Optional() @IsISO8601({ strict: true, strictSeparator: true }) from?: string;

  /** Include events occurring at or before this time. */
  @Optional() @IsISO8601({ strict: true, strictSeparator: true }) to?: string;

  /** An exact action id (see `audit-event-actions`). */
  @Optional() @IsString() @MaxLength(256) action?: string;

  /** An exact actor id (a user id, or `cli`). */
  @Optional() @IsString() @MaxLength(256) actor?: string;

  /** An exact target id. */
  @Optional() @IsString() @MaxLength(256) target?: string;

  toPageRequest(): PageRequest {
    return pageRequest(this.page, this.limit ?? 20);
  }

  toFilter(): AuditEventFilter {
    const from = this.from !== undefined ? new Date(this.from) : undefined;
    const to = this.to !== undefined ? new Date(this.to) : undefined;
    if (from && to && from > to) throw new InvalidInputError('from must not be after to');
    return { from, to, action: this.action, actor: this.actor, target: this.target };
  }
}

export class AuditEventActorDto {
  @ApiProperty({ enum: ['user', 'integration', 'installation', 'system', 'support'] }) type: 'user' | 'system';
  @ApiProperty({ description: 'A user id, or `cli` for the administration CLI' }) id: string;
  @ApiPropertyOptional() label?: string;
}

export class AuditEventTargetDto {
  @ApiProperty({ description: 'Kind of resource affected (the `object` of the resource: space, comment, site …)' }) type: string;
  @ApiProperty() id: string;
  @ApiPropertyOptional({ description: 'Its title or name when the write answered with it' }) label?: string;
}

class AuditEventUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
}

export class AuditEventDto {
  @ApiProperty({ enum: ['audit-event'] }) object: 'audit-event';
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty({ description: 'The operationId of the write (see audit-event-actions)' }) action: string;
  @ApiProperty({ type: AuditEventActorDto }) actor: AuditEventActorDto;
  @ApiProperty({ enum: ['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'] }) source: 'api' | 'script';
  @ApiProperty({ type: AuditEventTargetDto }) target: AuditEventTargetDto;
  @ApiProperty({ type: AuditEventUrlsDto }) urls: AuditEventUrlsDto;
}

export class AuditEventDetailsDto extends AuditEventDto {
  @ApiPropertyOptional({ description: 'The request id (X-Request-Id) of the write' }) executionId?: string;
  @ApiPropertyOptional({ description: 'The request id (X-Request-Id) of the write' }) correlationId?: string;
  @ApiProperty({ minimum: 1 }) schemaVersion: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'method, route template, path parameters; the API token id and the client address',
  })
  payload: Record<string, unknown>;
}

export class AuditEventActionDto {
  @ApiProperty({ enum: ['audit-event-action'] }) object: 'audit-event-action';
  @ApiProperty() id: string;
  @ApiProperty() label: string;
}

export class AuditEventActionsDto {
  @ApiProperty({ type: [AuditEventActionDto] }) items: AuditEventActionDto[];
}

export function toAuditEventDto(e: AuditEvent, links: Links): AuditEventDto {
  return {
    object: 'audit-event',
    id: e.id,
    occurredAt: e.occurredAt.toISOString(),
    action: e.action,
    actor: e.actor,
    source: e.source,
    target: e.target,
    urls: { location: links.api(`/orgs/${e.organizationId}/audit-events/${e.id}`) },
  };
}

export function toAuditEventDetailsDto(e: AuditEvent, links: Links): AuditEventDetailsDto {
  return {
    ...toAuditEventDto(e, links),
    ...(e.requestId !== null ? { executionId: e.requestId, correlationId: e.requestId } : {}),
    schemaVersion: 1,
    payload: { ...e.payload, tokenId: e.tokenId, clientAddress: e.clientAddress },
  };
}

export function toActionDto(a: AuditAction): AuditEventActionDto {
  return { object: 'audit-event-action', id: a.id, label: a.label };
}
