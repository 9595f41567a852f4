import { createHmac } from 'node:crypto';
import type { Page, PageRequest } from '@app/shared-kernel';

/** An organization's subscription: events of the given types are POSTed to `url`, signed with `secret`. */
export interface Webhook {
  id: string;
  organizationId: string;
  url: string;
  /** Event types (see WebhookEventTypes); `*` for all. */
  events: string[];
  active: boolean;
  description: string | null;
  secret: string;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  /** Why Quire turned it off (null when it is active, or an admin turned it off). */
  deactivatedReason: string | null;
  deactivatedAt: Date | null;
  /** Deliveries that failed for good in a row (reset by a success). */
  failureStreak: number;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

/** One event for one webhook, tried until it succeeds, fails for good, or its 24 hours are over. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  organizationId: string;
  /** Stable across attempts and redeliveries: the receiver's key for de-duplication. */
  eventId: string;
  eventType: string;
  occurredAt: Date;
  data: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  leaseUntil: Date | null;
  responseCode: number | null;
  error: string | null;
  durationMs: number | null;
  createdAt: Date;
  deliveredAt: Date | null;
  redeliveryOf: string | null;
}

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Retries stop this long after the delivery was created. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 3_600_000;
/** A delivery being attempted is taken back after this (its process died). */
export const LEASE_MS = 60_000;
/** Deliveries failed for good in a row before the webhook is turned off. */
export const FAILURE_STREAK_LIMIT = 10;
export const MAX_EVENTS_PER_WEBHOOK = 100;
export const MAX_WEBHOOKS_PER_ORGANIZATION = 100;

/** Exponential backoff: 30 s, 1 min, 2 min … capped at 1 h, after the attempt numbered `attempts`. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
}

export type AttemptResult = { kind: 'answered'; status: number } | { kind: 'unreachable'; error: string; permanent: boolean };

/**
 * What an attempt means: 2xx delivered; 4xx (but 408 and 429) and 3xx refused for good; 5xx, 408,
 * 429 and network errors retried within the window; a refused URL (private address …) failed for good.
 */
export function outcomeOf(result: AttemptResult): 'succeeded' | 'retry' | 'failed' {
  if (result.kind === 'unreachable') return result.permanent ? 'failed' : 'retry';
  const s = result.status;
  if (s >= 200 && s < 300) return 'succeeded';
  if (s >= 500 || s === 408 || s === 429) return 'retry';
  return 'failed';
}

/** When to try again, or null when the retry window is over. */
export function nextAttemptAt(delivery: Pick<WebhookDelivery, 'createdAt' | 'attempts'>, now: Date): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(delivery.attempts));
  return next.getTime() - delivery.createdAt.getTime() > RETRY_WINDOW_MS ? null : next;
}

/** The JSON body of a delivery: the same bytes on every attempt and redelivery. */
export function deliveryBody(d: Pick<WebhookDelivery, 'eventId' | 'eventType' | 'occurredAt' | 'organizationId' | 'data'>): string {
  return JSON.stringify({
    id: d.eventId,
    type: d.eventType,
    createdAt: d.occurredAt.toISOString(),
    organization: d.organizationId,
    data: d.data,
  });
}

/** `X-Quire-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`. */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** What an attempt leaves on its delivery. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
}

export abstract class WebhookRepository {
  abstract insert(webhook: Webhook): Promise<void>;
  abstract find(organizationId: string, id: string): Promise<Webhook | null>;
  abstract list(organizationId: string, page: PageRequest): Promise<Page<Webhook>>;
  abstract count(organizationId: string): Promise<number>;
  /** Guarded: false when the row changed meanwhile. */
  abstract update(before: Webhook, after: Webhook): Promise<boolean>;
  abstract delete(organizationId: string, id: string): Promise<boolean>;
  /**
   * Seals every stored secret under the current key (a rotation), or only those still in plaintext
   * (kept from before secrets were sealed); answers how many were written.
   */
  abstract resealSecrets(onlyPlaintext: boolean): Promise<number>;
  /** One delivery per active webhook of the organization subscribed to the type, sharing a new event id. */
  abstract enqueue(event: { organizationId: string; type: string; occurredAt: Date; data: Record<string, unknown> }): Promise<string[]>;
  abstract insertDelivery(d: Omit<WebhookDelivery, 'id' | 'eventId'> & { eventId: string | null }): Promise<WebhookDelivery>;
  abstract findDelivery(webhookId: string, id: string): Promise<WebhookDelivery | null>;
  abstract deliveries(webhookId: string, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>>;
  /** Takes a due delivery for one attempt (compare-and-set: one process at a time); null when not due or taken. */
  abstract claim(id: string, now: Date): Promise<{ delivery: WebhookDelivery; webhook: Webhook } | null>;
  abstract finish(id: string, outcome: DeliveryOutcome): Promise<void>;
  /** A success resets the streak; a final failure adds to it and may turn the webhook off with its reason. */
  abstract recordSuccess(webhookId: string): Promise<void>;
  abstract recordFailure(webhookId: string, at: Date, deactivateReason: string | null, streakLimit: number): Promise<void>;
  /** Deliveries due now (pending and due, or whose attempt's lease ran out). */
  abstract due(now: Date, limit: number): Promise<string[]>;
}

/** The event types webhooks may subscribe to: those of every context, answered by the app. */
export abstract class WebhookEventTypes {
  abstract readonly types: readonly string[];
}
