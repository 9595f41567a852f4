import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock, DomainEvent, DomainEvents, HostResolver, JobQueue, safeGet, SafeGetError, UnitOfWork } from '@app/shared-kernel';
import {
  AttemptResult,
  DELIVERY_TIMEOUT_MS,
  deliveryBody,
  FAILURE_STREAK_LIMIT,
  nextAttemptAt,
  outcomeOf,
  RETRY_WINDOW_MS,
  signatureHeader,
  WebhookEventTypes,
  WebhookRepository,
} from '../domain/webhook';
import { DELIVER_QUEUE, PING_EVENT, SWEEP_QUEUE, WebhookSettings } from './webhooks.service';

/** Reasons a URL can never be reached as configured: retrying would not help. */
const PERMANENT: ReadonlySet<string> = new Set(['bad-url', 'host-not-allowed', 'private-address']);

/**
 * Who gets told: every domain event becomes one delivery per subscribed active webhook, written in the
 * event's own unit of work (so a write never commits without its deliveries, and a rolled-back one
 * has none), then attempted by a job. A sweep each minute sends the deliveries that are due (retries,
 * jobs lost with a process): the rows are the truth, the job a nudge. At least once: the receiver
 * de-duplicates on the event `id`.
 */
@Injectable()
export class WebhookDeliveries implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly bus: DomainEvents,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly resolver: HostResolver,
    private readonly settings: WebhookSettings,
    private readonly uow: UnitOfWork,
    @Optional() types?: WebhookEventTypes,
  ) {
    this.offered = types ? new Set(types.types) : null;
  }

  /** The event types webhooks can subscribe to (null: every type); other events are another context's own business. */
  private readonly offered: ReadonlySet<string> | null;

  onModuleInit(): void {
    this.bus.addRecorder((event) => this.enqueue(event));
    this.jobs.work(DELIVER_QUEUE, async (data) => {
      if (typeof data.deliveryId === 'string') await this.attempt(data.deliveryId);
    });
    this.jobs.work(SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    this.jobs.schedule(SWEEP_QUEUE, '* * * * *');
  }

  /** In the publisher's unit of work: the deliveries commit with the write; their jobs are sent after it. */
  async enqueue(event: DomainEvent): Promise<void> {
    if (this.offered && !this.offered.has(event.type)) return;
    const ids = await this.webhooks.enqueue({
      organizationId: event.organizationId,
      type: event.type,
      occurredAt: event.occurredAt,
      data: { ...event.data, actor: event.actor },
    });
    for (const id of ids) this.jobs.send(DELIVER_QUEUE, { deliveryId: id }, id);
  }

  /** Sends a job for every delivery that is due; returns how many. */
  async sweep(): Promise<number> {
    const due = await this.webhooks.due(this.clock.now(), 500);
    for (const id of due) this.jobs.send(DELIVER_QUEUE, { deliveryId: id }, id);
    return due.length;
  }

  /** One attempt of a delivery, if it is due and no other process has it; false when there was nothing to do. */
  async attempt(deliveryId: string): Promise<boolean> {
    const claimed = await this.webhooks.claim(deliveryId, this.clock.now());
    if (!claimed) return false;
    const { delivery, webhook } = claimed;
    if (!webhook.active && delivery.eventType !== PING_EVENT) {
      await this.webhooks.finish(delivery.id, {
        status: 'failed',
        nextAttemptAt: null,
        responseCode: null,
        error: 'The webhook is inactive',
        durationMs: 0,
        at: this.clock.now(),
      });
      return true;
    }
    const body = deliveryBody(delivery);
    const started = performance.now();
    const result = await this.post(webhook.url, body, webhook.secret, delivery.eventType, delivery.eventId, delivery.id);
    const durationMs = Math.round(performance.now() - started);
    const now = this.clock.now();
    const outcome = outcomeOf(result);
    const next = outcome === 'retry' ? nextAttemptAt(delivery, now) : null;
    const status = outcome === 'succeeded' ? 'succeeded' : outcome === 'retry' && next ? 'pending' : 'failed';
    const responseCode = result.kind === 'answered' ? result.status : null;
    const error = result.kind === 'unreachable' ? result.error : status === 'succeeded' ? null : `The receiver answered ${result.status}`;
    await this.uow.run(async () => {
      await this.webhooks.finish(delivery.id, { status, nextAttemptAt: next, responseCode, error, durationMs, at: now });
      if (delivery.eventType === PING_EVENT) return;
      if (status === 'succeeded') await this.webhooks.recordSuccess(webhook.id);
      else if (status === 'failed') {
        const exhausted = outcome === 'retry';
        const reason = exhausted ? `Deliveries failed for ${RETRY_WINDOW_MS / 3_600_000} hours (last: ${error})` : null;
        await this.webhooks.recordFailure(webhook.id, now, reason, FAILURE_STREAK_LIMIT);
      }
    });
    if (status === 'failed') this.logger.warn(`delivery ${delivery.id} to webhook ${webhook.id} failed: ${error}`);
    return true;
  }

  private async post(url: string, body: string, secret: string, type: string, eventId: string, deliveryId: string): Promise<AttemptResult> {
    const allowed = (host: string) => this.settings.allowlist.includes(host.toLowerCase());
    const unix = Math.floor(this.clock.now().getTime() / 1000);
    try {
      const res = await safeGet(url, {
        method: 'POST',
        body: Buffer.from(body, 'utf8'),
        headers: {
          'content-type': 'application/json',
          'x-quire-signature': signatureHeader(secret, unix, body),
          'x-quire-event': type,
          'x-quire-event-id': eventId,
          'x-quire-delivery': deliveryId,
        },
        maxBytes: 64 * 1024,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxRedirects: 0,
        hostAllowed: () => true,
        privateAllowed: allowed,
        resolve: (host) => this.resolver.lookup(host),
      });
      return { kind: 'answered', status: res.status };
    } catch (e) {
      if (e instanceof SafeGetError) {
        // The answer's body is not ours to read: a large one still tells its status.
        if (e.reason === 'too-large') return { kind: 'unreachable', error: 'The receiver answered with more than 64 kB', permanent: false };
        return { kind: 'unreachable', error: `The URL ${e.message}`, permanent: PERMANENT.has(e.reason) };
      }
      return { kind: 'unreachable', error: e instanceof Error ? e.message : String(e), permanent: false };
    }
  }
}
