import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest, SecretBox } from '@app/shared-kernel';
import { DeliveryFilter, DeliveryOutcome, DeliveryStatus, LEASE_MS, Webhook, WebhookDelivery, WebhookRepository } from '../domain/webhook';

interface WebhookRow {
  id: string;
  organization_id: string;
  url: string;
  events: string[];
  active: boolean;
  description: string | null;
  secret: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  deactivated_reason: string | null;
  deactivated_at: Date | null;
  failure_streak: number;
  seq: string;
}

interface DeliveryRow {
  id: string;
  seq: string;
  webhook_id: string;
  organization_id: string;
  event_id: string;
  event_type: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  response_code: number | null;
  error: string | null;
  duration_ms: number | null;
  created_at: Date;
  delivered_at: Date | null;
  redelivery_of: string | null;
}

function toWebhook(r: WebhookRow, secrets: SecretBox): Webhook {
  return {
    id: r.id,
    organizationId: r.organization_id,
    url: r.url,
    events: r.events,
    active: r.active,
    description: r.description,
    secret: secrets.open(r.secret),
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deactivatedReason: r.deactivated_reason,
    deactivatedAt: r.deactivated_at,
    failureStreak: r.failure_streak,
  };
}

function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    organizationId: r.organization_id,
    eventId: r.event_id,
    eventType: r.event_type,
    occurredAt: r.occurred_at,
    data: r.data,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    leaseUntil: r.lease_until,
    responseCode: r.response_code,
    error: r.error,
    durationMs: r.duration_ms,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at,
    redeliveryOf: r.redelivery_of,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class SqlWebhookRepository extends WebhookRepository {
  /** Secrets are sealed on the way in and opened on the way out: no row holds one in plaintext. */
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    super();
  }

  async resealSecrets(onlyPlaintext: boolean): Promise<number> {
    const rows: { id: string; secret: string }[] = await this.db.query('SELECT id, secret FROM webhooks');
    let n = 0;
    for (const r of rows) {
      if (onlyPlaintext ? this.secrets.isSealed(r.secret) : this.secrets.isCurrent(r.secret)) continue;
      // Guarded on the value read: a concurrent rotation of the webhook's own secret wins.
      n += await this.db.execute('UPDATE webhooks SET secret = $3 WHERE id = $1 AND secret = $2', [
        r.id,
        r.secret,
        this.secrets.seal(this.secrets.open(r.secret)),
      ]);
    }
    return n;
  }

  async insert(w: Webhook): Promise<void> {
    await this.db.query(
      `INSERT INTO webhooks (id, organization_id, url, events, active, description, secret, created_by, created_at, updated_at,
         deactivated_reason, deactivated_at, failure_streak)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        w.id,
        w.organizationId,
        w.url,
        w.events,
        w.active,
        w.description,
        this.secrets.seal(w.secret),
        w.createdBy,
        w.createdAt,
        w.updatedAt,
        w.deactivatedReason,
        w.deactivatedAt,
        w.failureStreak,
      ],
    );
  }

  async find(organizationId: string, id: string): Promise<Webhook | null> {
    const rows: WebhookRow[] = await this.db.query('SELECT * FROM webhooks WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows[0] ? toWebhook(rows[0], this.secrets) : null;
  }

  async list(organizationId: string, page: PageRequest): Promise<Page<Webhook>> {
    const result = await keysetPage<WebhookRow>(
      this.db,
      'SELECT * FROM webhooks WHERE organization_id = $1',
      [organizationId],
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)] },
      page,
    );
    return mapPage(result, (r) => toWebhook(r, this.secrets));
  }

  async count(organizationId: string): Promise<number> {
    const rows: { n: number }[] = await this.db.query('SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1', [
      organizationId,
    ]);
    return rows[0].n;
  }

  async update(before: Webhook, after: Webhook): Promise<boolean> {
    // Guarded on the time of the last change: a concurrent PATCH or an automatic deactivation makes this one re-read.
    return (
      (await this.db.execute(
        `UPDATE webhooks SET url = $3, events = $4, active = $5, description = $6, secret = $7, updated_at = $8,
           deactivated_reason = $9, deactivated_at = $10, failure_streak = $11
         WHERE id = $1 AND updated_at = $2`,
        [
          before.id,
          before.updatedAt,
          after.url,
          after.events,
          after.active,
          after.description,
          this.secrets.seal(after.secret),
          after.updatedAt,
          after.deactivatedReason,
          after.deactivatedAt,
          after.failureStreak,
        ],
      )) > 0
    );
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.execute('DELETE FROM webhooks WHERE organization_id = $1 AND id = $2', [organizationId, id])) > 0;
  }

  async enqueue(e: { organizationId: string; type: string; occurredAt: Date; data: Record<string, unknown> }): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `WITH event AS (SELECT gen_random_uuid() AS id)
       INSERT INTO webhook_deliveries (webhook_id, organization_id, event_id, event_type, occurred_at, data, status, next_attempt_at, created_at)
       SELECT w.id, w.organization_id, event.id, $2, $3, $4, 'pending', $3, $3
       FROM webhooks w, event
       WHERE w.organization_id = $1 AND w.active AND ($2 = ANY (w.events) OR '*' = ANY (w.events))
       RETURNING id`,
      [e.organizationId, e.type, e.occurredAt, e.data],
    );
    return rows.map((r) => r.id);
  }

  async insertDelivery(d: Omit<WebhookDelivery, 'id' | 'eventId'> & { eventId: string | null }): Promise<WebhookDelivery> {
    const rows: DeliveryRow[] = await this.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, organization_id, event_id, event_type, occurred_at, data, status, attempts,
         next_attempt_at, created_at, redelivery_of)
       VALUES ($1, $2, COALESCE($3::uuid, gen_random_uuid()), $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [
        d.webhookId,
        d.organizationId,
        d.eventId,
        d.eventType,
        d.occurredAt,
        d.data,
        d.status,
        d.attempts,
        d.nextAttemptAt,
        d.createdAt,
        d.redeliveryOf,
      ],
    );
    return toDelivery(rows[0]);
  }

  async findDelivery(webhookId: string, id: string): Promise<WebhookDelivery | null> {
    if (!UUID.test(id)) return null;
    const rows: DeliveryRow[] = await this.db.query('SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2', [webhookId, id]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async deliveries(webhookId: string, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const params: unknown[] = [webhookId];
    let where = 'webhook_id = $1';
    if (filter.status) where += ` AND status = $${params.push(filter.status)}`;
    const result = await keysetPage<DeliveryRow>(
      this.db,
      `SELECT * FROM webhook_deliveries WHERE ${where}`,
      params,
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)], direction: 'desc' },
      page,
    );
    return mapPage(result, toDelivery);
  }

  async claim(id: string, now: Date): Promise<{ delivery: WebhookDelivery; webhook: Webhook } | null> {
    if (!UUID.test(id)) return null;
    const rows: DeliveryRow[] = await this.db.query(
      `WITH c AS (
         UPDATE webhook_deliveries SET status = 'delivering', attempts = attempts + 1, lease_until = $2::timestamptz + interval '${LEASE_MS / 1000} seconds'
         WHERE id = $1 AND ((status = 'pending' AND next_attempt_at <= $2) OR (status = 'delivering' AND lease_until < $2))
         RETURNING *)
       SELECT * FROM c`,
      [id, now],
    );
    if (!rows[0]) return null;
    const hooks: WebhookRow[] = await this.db.query('SELECT * FROM webhooks WHERE id = $1', [rows[0].webhook_id]);
    return hooks[0] ? { delivery: toDelivery(rows[0]), webhook: toWebhook(hooks[0], this.secrets) } : null;
  }

  async finish(id: string, o: DeliveryOutcome): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3, lease_until = NULL, response_code = $4, error = $5, duration_ms = $6,
         delivered_at = CASE WHEN $2 = 'succeeded' THEN $7::timestamptz ELSE delivered_at END
       WHERE id = $1`,
      [id, o.status, o.nextAttemptAt, o.responseCode, o.error, o.durationMs, o.at],
    );
  }

  async recordSuccess(webhookId: string): Promise<void> {
    await this.db.query('UPDATE webhooks SET failure_streak = 0 WHERE id = $1 AND failure_streak <> 0', [webhookId]);
  }

  async recordFailure(webhookId: string, at: Date, reason: string | null, limit: number): Promise<void> {
    // One statement: the streak grows, and the webhook is turned off (once) when the reason says so or the streak is long.
    await this.db.query(
      `UPDATE webhooks SET failure_streak = failure_streak + 1,
         active = CASE WHEN active AND ($3::text IS NOT NULL OR failure_streak + 1 >= $4) THEN false ELSE active END,
         deactivated_reason = CASE WHEN active AND ($3::text IS NOT NULL OR failure_streak + 1 >= $4)
           THEN COALESCE($3::text, (failure_streak + 1) || ' deliveries in a row failed') ELSE deactivated_reason END,
         deactivated_at = CASE WHEN active AND ($3::text IS NOT NULL OR failure_streak + 1 >= $4) THEN $2::timestamptz ELSE deactivated_at END,
         updated_at = CASE WHEN active AND ($3::text IS NOT NULL OR failure_streak + 1 >= $4) THEN $2::timestamptz ELSE updated_at END
       WHERE id = $1`,
      [webhookId, at, reason, limit],
    );
  }

  async due(now: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM webhook_deliveries
       WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'delivering' AND lease_until < $1)
       ORDER BY next_attempt_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }
}
