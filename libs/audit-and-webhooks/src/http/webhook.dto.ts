import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { Links, ListQueryDto, Optional } from '@app/http-kit';
import type { DeliveryStatus, Webhook, WebhookDelivery } from '../domain/webhook';

const STATUSES: DeliveryStatus[] = ['pending', 'delivering', 'succeeded', 'failed'];

export class CreateWebhookDto {
  /** Where events are POSTed: https (http, and private or loopback addresses, only on a host of QUIRE_WEBHOOK_ALLOWLIST). */
  @IsString() @MaxLength(2048) url: string;

  /** Event types to receive (GET /webhook-event-types), or `["*"]` for all. */
  @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) @MaxLength(100, { each: true }) events: string[];

  /** Deliver events (default true). */
  @Optional() @IsBoolean() active?: boolean;

  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 500 })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class UpdateWebhookDto {
  @Optional() @IsString() @MaxLength(2048) url?: string;
  @Optional() @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) @MaxLength(100, { each: true }) events?: string[];
  /** false turns deliveries off; true turns a deactivated webhook back on (its failure streak starts again). */
  @Optional() @IsBoolean() active?: boolean;

  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 500 })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  /** A new secret, shown once in this response; the old one stops signing at once. */
  @Optional() @IsBoolean() rotateSecret?: boolean;
}

export class DeliveriesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: STATUSES }) @Optional() @IsIn(STATUSES) status?: DeliveryStatus;
}

class WebhookUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) deliveries: string;
}

export class WebhookDto {
  @ApiProperty({ enum: ['webhook'] }) object: 'webhook';
  id: string;
  url: string;
  events: string[];
  active: boolean;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  /** Why Quire turned the webhook off (repeated failures); null otherwise. */
  @ApiProperty({ nullable: true, type: String }) deactivatedReason: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) deactivatedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  urls: WebhookUrlsDto;
}

export class WebhookWithSecretDto extends WebhookDto {
  /** The signing secret: shown only when the webhook is created and when the secret is rotated. */
  secret: string;
}

/** An updated webhook: with its new `secret` when this update rotated it, without any otherwise. */
export class UpdatedWebhookDto extends WebhookDto {
  /** The new signing secret, present only when `rotateSecret` was true (shown once). */
  secret?: string;
}

class DeliveryEventDto {
  /** Stable across attempts and redeliveries: de-duplicate on it. */
  id: string;
  type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ enum: ['webhook-delivery'] }) object: 'webhook-delivery';
  @ApiProperty({ format: 'uuid' }) id: string;
  event: DeliveryEventDto;
  @ApiProperty({ enum: STATUSES }) status: DeliveryStatus;
  attempts: number;
  /** The HTTP status of the latest answer. */
  @ApiProperty({ nullable: true, type: Number }) responseCode: number | null;
  @ApiProperty({ nullable: true, type: Number }) durationMs: number | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) nextAttemptAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) deliveredAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) redeliveryOf: string | null;
}

export class WebhookEventTypesDto {
  items: string[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toWebhookDto(w: Webhook, links: Links): WebhookDto {
  const location = links.api(`/orgs/${w.organizationId}/webhooks/${w.id}`);
  return {
    object: 'webhook',
    id: w.id,
    url: w.url,
    events: w.events,
    active: w.active,
    description: w.description,
    deactivatedReason: w.deactivatedReason,
    deactivatedAt: iso(w.deactivatedAt),
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    urls: { location, deliveries: `${location}/deliveries` },
  };
}

export function toDeliveryDto(d: WebhookDelivery): WebhookDeliveryDto {
  return {
    object: 'webhook-delivery',
    id: d.id,
    event: { id: d.eventId, type: d.eventType, createdAt: d.occurredAt.toISOString() },
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode,
    durationMs: d.durationMs,
    error: d.error,
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    deliveredAt: iso(d.deliveredAt),
    redeliveryOf: d.redeliveryOf,
  };
}
