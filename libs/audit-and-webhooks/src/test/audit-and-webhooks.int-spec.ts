import { Db } from '@app/persistence';
import { decodeCursor, SecretBox } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import type { NewAuditEvent } from '../domain/audit-event';
import type { Webhook } from '../domain/webhook';
import { SqlAuditEventRepository } from '../infrastructure/audit-events.repository';
import { SqlWebhookRepository } from '../infrastructure/webhooks.repository';

/** Seals by reversing and tagging: enough to tell that the adapter seals on write and opens on read. */
class ReversingBox extends SecretBox {
  seal(plain: string): string {
    return `qenc:test:${[...plain].reverse().join('')}`;
  }
  open(stored: string): string {
    return stored.startsWith('qenc:test:') ? [...stored.slice('qenc:test:'.length)].reverse().join('') : stored;
  }
  isSealed(stored: string): boolean {
    return stored.startsWith('qenc:test:');
  }
  isCurrent(stored: string): boolean {
    return stored.startsWith('qenc:test:');
  }
}

/** The audit and webhook adapters against a real PostgreSQL (a clone of the migrated template). */
describe('audit and webhook adapters (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let audit: SqlAuditEventRepository;
  let webhooks: SqlWebhookRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    audit = new SqlAuditEventRepository(d);
    webhooks = new SqlWebhookRepository(d, new ReversingBox());
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const event = (over: Partial<NewAuditEvent> = {}): NewAuditEvent => ({
    organizationId: 'org-a',
    occurredAt: t0,
    action: 'createSpace',
    actor: { type: 'user', id: 'u1', label: 'Ada' },
    tokenId: 't1',
    source: 'api',
    target: { type: 'space', id: 's1', label: 'Docs' },
    clientAddress: '203.0.113.7',
    requestId: 'r1',
    payload: { method: 'POST', route: '/v1/orgs/:organizationId/spaces' },
    ...over,
  });

  it('audit events: appended as given, listed newest first with filters and a keyset cursor, per organization', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await audit.append(event({ occurredAt: at(i * 1000), target: { type: 'space', id: `s${i}` } })));
    await audit.append(event({ organizationId: 'org-b' }));
    expect(await audit.get('org-a', ids[0])).toEqual({ ...event({ occurredAt: t0, target: { type: 'space', id: 's0' } }), id: ids[0] });
    expect(await audit.get('org-b', ids[0])).toBeNull();
    expect(await audit.get('org-a', 'not-a-uuid')).toBeNull();
    const first = await audit.list('org-a', {}, { limit: 3 });
    expect(first.items.map((e) => e.target.id)).toEqual(['s3', 's2', 's1']);
    expect(first.count).toBe(4);
    const rest = await audit.list('org-a', {}, { limit: 3, after: decodeCursor(first.next!) });
    expect(rest.items.map((e) => e.target.id)).toEqual(['s0']);
    expect((await audit.list('org-a', { target: 's2' }, { limit: 10 })).items).toHaveLength(1);
    expect((await audit.list('org-a', { from: at(2000), to: at(3000) }, { limit: 10 })).items.map((e) => e.target.id)).toEqual([
      's3',
      's2',
    ]);
  });

  it('audit events are append-only: an update or a delete outside the retention purge is refused by the database', async () => {
    const id = await audit.append(event({ organizationId: 'org-ro' }));
    await expect(d.query(`UPDATE audit_events SET action = 'forged' WHERE id = $1`, [id])).rejects.toThrow();
    await expect(d.query('DELETE FROM audit_events WHERE id = $1', [id])).rejects.toThrow();
    await audit.append(event({ organizationId: 'org-ro', occurredAt: at(-86_400_000) }));
    expect(await audit.purgeBefore(t0)).toBeGreaterThanOrEqual(1);
    expect((await audit.list('org-ro', {}, { limit: 10 })).items.map((e) => e.id)).toEqual([id]);
  });

  const hook = (id: string, over: Partial<Webhook> = {}): Webhook => ({
    id,
    organizationId: 'org-w',
    url: 'https://example.com/hook',
    events: ['space.created'],
    active: true,
    description: null,
    secret: `whsec_${id}`,
    createdBy: 'u1',
    createdAt: t0,
    updatedAt: t0,
    deactivatedReason: null,
    deactivatedAt: null,
    failureStreak: 0,
    ...over,
  });

  it('webhooks: the secret is sealed in the row and opened on read; updates are guarded on the last change', async () => {
    await webhooks.insert(hook('w1'));
    const rows: { secret: string }[] = await d.query(`SELECT secret FROM webhooks WHERE id = 'w1'`);
    expect(rows[0].secret).toBe('qenc:test:1w_ceshw');
    const read = (await webhooks.find('org-w', 'w1'))!;
    expect(read).toEqual(hook('w1'));
    expect(await webhooks.find('org-other', 'w1')).toBeNull();
    const changed = { ...read, description: 'first', updatedAt: at(1000) };
    expect(await webhooks.update(read, changed)).toBe(true);
    // A second writer that read before the first change loses.
    expect(await webhooks.update(read, { ...read, description: 'second', updatedAt: at(2000) })).toBe(false);
    expect((await webhooks.find('org-w', 'w1'))!.description).toBe('first');
    // A plaintext row from before sealing is sealed by the reseal pass, once.
    await d.query(`UPDATE webhooks SET secret = 'whsec_plain' WHERE id = 'w1'`);
    expect(await webhooks.resealSecrets(true)).toBe(1);
    expect(await webhooks.resealSecrets(true)).toBe(0);
    expect((await webhooks.find('org-w', 'w1'))!.secret).toBe('whsec_plain');
  });

  it('deliveries: an event fans out to the active webhooks subscribed to it; each is claimed once, and again after its lease', async () => {
    await webhooks.insert(hook('w-all', { organizationId: 'org-d', events: ['*'] }));
    await webhooks.insert(hook('w-created', { organizationId: 'org-d', events: ['space.created'] }));
    await webhooks.insert(hook('w-other', { organizationId: 'org-d', events: ['space.deleted'] }));
    await webhooks.insert(hook('w-off', { organizationId: 'org-d', events: ['*'], active: false }));
    const ids = await webhooks.enqueue({ organizationId: 'org-d', type: 'space.created', occurredAt: t0, data: { spaceId: 's1' } });
    expect(ids).toHaveLength(2);
    const due = await webhooks.due(t0, 10);
    expect(due).toEqual(expect.arrayContaining(ids));
    const claimed = await webhooks.claim(ids[0], t0);
    expect(claimed!.delivery).toMatchObject({ status: 'delivering', attempts: 1, data: { spaceId: 's1' } });
    expect(claimed!.webhook.secret).toMatch(/^whsec_w-/);
    expect(await webhooks.claim(ids[0], at(1000))).toBeNull();
    // The lease runs out (a process died mid-delivery): the next claim takes it, counting the attempt.
    expect((await webhooks.claim(ids[0], at(61_000)))!.delivery.attempts).toBe(2);
    await webhooks.finish(ids[0], {
      status: 'succeeded',
      nextAttemptAt: null,
      responseCode: 200,
      error: null,
      durationMs: 12,
      at: at(62_000),
    });
    expect(await webhooks.findDelivery(claimed!.webhook.id, ids[0])).toMatchObject({
      status: 'succeeded',
      deliveredAt: at(62_000),
      responseCode: 200,
    });
    expect(await webhooks.claim(ids[0], at(120_000))).toBeNull();
    expect(await webhooks.claim('not-a-uuid', t0)).toBeNull();
  });

  it('a failure streak turns the webhook off once, with its reason; a success resets the streak', async () => {
    await webhooks.insert(hook('w-streak', { organizationId: 'org-s' }));
    await webhooks.recordFailure('w-streak', at(1), null, 3);
    await webhooks.recordSuccess('w-streak');
    expect((await webhooks.find('org-s', 'w-streak'))!.failureStreak).toBe(0);
    for (let i = 0; i < 3; i++) await webhooks.recordFailure('w-streak', at(10 + i), null, 3);
    expect(await webhooks.find('org-s', 'w-streak')).toMatchObject({
      active: false,
      failureStreak: 3,
      deactivatedReason: '3 deliveries in a row failed',
      deactivatedAt: at(12),
    });
    await webhooks.recordFailure('w-streak', at(20), 'gone for good', 3);
    expect(await webhooks.find('org-s', 'w-streak')).toMatchObject({
      deactivatedReason: '3 deliveries in a row failed',
      deactivatedAt: at(12),
    });
  });
});
