import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  IdGenerator,
  InvalidInputError,
  checkOutboundHost,
  JobQueue,
  NotFoundError,
  Page,
  PageRequest,
  UnitOfWork,
  untilWritten,
} from '@app/shared-kernel';
import {
  DeliveryFilter,
  MAX_EVENTS_PER_WEBHOOK,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  Webhook,
  WebhookDelivery,
  WebhookEventTypes,
  WebhookRepository,
} from '../domain/webhook';
import { Access } from '@app/access';

/** Hosts a webhook may reach over plain http, or at a private or loopback address (tests, internal receivers). */
export abstract class WebhookSettings {
  abstract readonly allowlist: readonly string[];
}

export const DELIVER_QUEUE = 'webhook-deliver';
export const SWEEP_QUEUE = 'webhooks-sweep';
export const PING_EVENT = 'ping';

export interface WebhookInput {
  url?: string;
  events?: string[];
  active?: boolean;
  description?: string | null;
  rotateSecret?: boolean;
}

/** Webhooks of an organization: admins only (a webhook carries a secret and sees every event). */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly access: Access,
    private readonly types: WebhookEventTypes,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly jobs: JobQueue,
  ) {}

  /** Secrets written before they were sealed (plaintext rows from an older version) are sealed at start. */
  async onApplicationBootstrap(): Promise<void> {
    await this.webhooks.resealSecrets(true);
  }

  /** `quire secrets:rotate`: every webhook secret sealed again under the current key; answers how many. */
  resealSecrets(): Promise<number> {
    return this.webhooks.resealSecrets(false);
  }

  /** The event types a webhook may subscribe to. */
  eventTypes(): readonly string[] {
    return this.types.types;
  }

  async list(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<Webhook>> {
    await this.access.require(organizationId, actor, 'admin');
    return this.webhooks.list(organizationId, page);
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<Webhook> {
    await this.access.require(organizationId, actor, 'admin');
    return this.found(organizationId, id);
  }

  async create(actor: Actor, organizationId: string, input: WebhookInput): Promise<Webhook> {
    await this.access.require(organizationId, actor, 'admin');
    if (input.url === undefined) throw new InvalidInputError('url is required');
    if (input.events === undefined) throw new InvalidInputError('events is required');
    if ((await this.webhooks.count(organizationId)) >= MAX_WEBHOOKS_PER_ORGANIZATION)
      throw new ConflictError(`An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks`);
    const now = this.clock.now();
    const webhook: Webhook = {
      id: this.ids.next(),
      organizationId,
      url: this.checkUrl(input.url),
      events: this.checkEvents(input.events),
      active: input.active ?? true,
      description: input.description ?? null,
      secret: this.newSecret(),
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      deactivatedReason: null,
      deactivatedAt: null,
      failureStreak: 0,
    };
    await this.webhooks.insert(webhook);
    return webhook;
  }

  async update(actor: Actor, organizationId: string, id: string, input: WebhookInput): Promise<Webhook> {
    await this.access.require(organizationId, actor, 'admin');
    return untilWritten(async () => {
      const before = await this.found(organizationId, id);
      const after: Webhook = { ...before, updatedAt: this.clock.now() };
      if (input.url !== undefined) after.url = this.checkUrl(input.url);
      if (input.events !== undefined) after.events = this.checkEvents(input.events);
      if (input.description !== undefined) after.description = input.description;
      if (input.rotateSecret) after.secret = this.newSecret();
      if (input.active !== undefined && input.active !== before.active) {
        after.active = input.active;
        // Turned back on by an admin: a fresh start. Turned off by one: no automatic reason.
        after.deactivatedReason = null;
        after.deactivatedAt = input.active ? null : after.updatedAt;
        after.failureStreak = 0;
      }
      return (await this.webhooks.update(before, after)) ? after : undefined;
    }, 'The webhook');
  }

  /** false when there was nothing to delete, for this caller too (the official DELETE convention: 204, not 404). */
  async delete(actor: Actor, organizationId: string, id: string): Promise<boolean> {
    try {
      await this.access.require(organizationId, actor, 'admin');
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
    return this.webhooks.delete(organizationId, id);
  }

  async deliveries(
    actor: Actor,
    organizationId: string,
    id: string,
    filter: DeliveryFilter,
    page: PageRequest,
  ): Promise<Page<WebhookDelivery>> {
    await this.access.require(organizationId, actor, 'admin');
    await this.found(organizationId, id);
    return this.webhooks.deliveries(id, filter, page);
  }

  async delivery(actor: Actor, organizationId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.access.require(organizationId, actor, 'admin');
    await this.found(organizationId, id);
    const d = await this.webhooks.findDelivery(id, deliveryId);
    if (!d) throw new NotFoundError('Delivery', deliveryId);
    return d;
  }

  /** The same event again (same event id and body), as a new delivery tried at once; the webhook must be active. */
  async redeliver(actor: Actor, organizationId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const original = await this.delivery(actor, organizationId, id, deliveryId);
    const webhook = await this.found(organizationId, id);
    if (!webhook.active) throw new ConflictError('The webhook is inactive: turn it on (active: true) first');
    return this.queue({ ...original, eventId: original.eventId, redeliveryOf: original.id });
  }

  /** A `ping` event to this webhook only (also when it is inactive: it tests the receiver). */
  async ping(actor: Actor, organizationId: string, id: string): Promise<WebhookDelivery> {
    await this.access.require(organizationId, actor, 'admin');
    const webhook = await this.found(organizationId, id);
    const now = this.clock.now();
    return this.queue({
      webhookId: webhook.id,
      organizationId,
      eventId: null,
      eventType: PING_EVENT,
      occurredAt: now,
      data: { webhookId: webhook.id },
      redeliveryOf: null,
    });
  }

  private async queue(
    d: Pick<WebhookDelivery, 'webhookId' | 'organizationId' | 'eventType' | 'occurredAt' | 'data' | 'redeliveryOf'> & {
      eventId: string | null;
    },
  ): Promise<WebhookDelivery> {
    const now = this.clock.now();
    return this.uow.run(async () => {
      const delivery = await this.webhooks.insertDelivery({
        ...d,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        leaseUntil: null,
        responseCode: null,
        error: null,
        durationMs: null,
        createdAt: now,
        deliveredAt: null,
      });
      this.jobs.send(DELIVER_QUEUE, { deliveryId: delivery.id }, delivery.id);
      return delivery;
    });
  }

  private async found(organizationId: string, id: string): Promise<Webhook> {
    const w = await this.webhooks.find(organizationId, id);
    if (!w) throw new NotFoundError('Webhook', id);
    return w;
  }

  private newSecret(): string {
    return `whsec_${this.ids.next()}${this.ids.next()}`;
  }

  /** https anywhere public; http, and private or loopback addresses, only on an allowlisted host. */
  private checkUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new InvalidInputError('url: is not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new InvalidInputError('url: must be https (or http on an allowlisted host)');
    if (url.username || url.password) throw new InvalidInputError('url: must not carry credentials');
    checkOutboundHost(url, this.settings.allowlist, 'QUIRE_WEBHOOK_ALLOWLIST');
    return url.toString();
  }

  private checkEvents(events: string[]): string[] {
    const unique = [...new Set(events)];
    if (unique.length === 0) throw new InvalidInputError('events: subscribe to at least one event type (or "*")');
    if (unique.length > MAX_EVENTS_PER_WEBHOOK) throw new InvalidInputError(`events: at most ${MAX_EVENTS_PER_WEBHOOK}`);
    const unknown = unique.filter((e) => e !== '*' && !this.types.types.includes(e));
    if (unknown.length)
      throw new InvalidInputError(`events: unknown event type ${unknown.map((u) => `"${u}"`).join(', ')} (see GET /webhook-event-types)`);
    return unique;
  }
}
