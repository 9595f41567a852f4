import { Db } from '@app/persistence';
import { decodeCursor } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import type { Conversation } from '../domain/conversation';
import { SqlConversationRepository } from '../infrastructure/conversations.repository';

/** The conversations adapter against a real PostgreSQL: re-ingestion waits again, term frequencies add up, per-organization versions. */
describe('SqlConversationRepository (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let repo: SqlConversationRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    repo = new SqlConversationRepository(d);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const conversation = (id: string, over: Partial<Conversation> = {}): Conversation => ({
    id,
    organizationId: 'org1',
    subject: `Subject ${id}`,
    source: 'api',
    url: null,
    attributes: { plan: 'pro' },
    parts: [{ type: 'message', role: 'user', body: 'The export button does nothing.' }],
    createdAt: t0,
    ingestedAt: t0,
    processedAt: null,
    ...over,
  });

  it('conversations round-trip per organization; a list pages by ingestion, filtered by source', async () => {
    await repo.upsert([
      conversation('c1'),
      conversation('c2', { source: 'zendesk', ingestedAt: at(1000) }),
      conversation('c3', { ingestedAt: at(2000) }),
    ]);
    await repo.upsert([conversation('c1', { organizationId: 'org2' })]);
    expect(await repo.find('org1', 'c1')).toEqual(conversation('c1'));
    expect(await repo.find('org3', 'c1')).toBeNull();
    expect((await repo.findMany('org1', ['c1', 'c3', 'missing'])).map((c) => c.id).sort()).toEqual(['c1', 'c3']);
    const first = await repo.list('org1', undefined, { limit: 2 });
    expect(first.count).toBe(3);
    const rest = await repo.list('org1', undefined, { limit: 2, after: decodeCursor(first.next!) });
    expect([...first.items, ...rest.items].map((c) => c.id).sort()).toEqual(['c1', 'c2', 'c3']);
    expect((await repo.list('org1', 'zendesk', { limit: 10 })).items.map((c) => c.id)).toEqual(['c2']);
  });

  it('processing marks only the content it read: a conversation re-ingested meanwhile waits again', async () => {
    await repo.upsert([conversation('p1', { organizationId: 'org-p' }), conversation('p2', { organizationId: 'org-p' })]);
    const read = await repo.unprocessed('org-p', 10);
    expect(read.map((c) => c.id)).toEqual(['p1', 'p2']);
    expect(await repo.waitingOrganizations(at(1))).toContain('org-p');
    // p2 comes in again (new content) while the batch is being processed.
    await repo.upsert([conversation('p2', { organizationId: 'org-p', subject: 'Changed', ingestedAt: at(5000) })]);
    const counted = (terms: string[]) => ({ terms, embedding: [0.6, 0.8] });
    await repo.markProcessed(
      'org-p',
      read.map((c) => ({ ...c, counted: counted([c.id]) })),
      at(6000),
    );
    expect((await repo.unprocessed('org-p', 10)).map((c) => [c.id, c.subject])).toEqual([['p2', 'Changed']]);
    expect((await repo.find('org-p', 'p1'))!.processedAt).toEqual(at(6000));
    // What was counted is recorded for both: p2's read content is in the frequencies, and comes out when p2 is
    // counted anew.
    expect((await repo.find('org-p', 'p1'))!.counted).toEqual(counted(['p1']));
    expect(await repo.find('org-p', 'p2')).toMatchObject({ processedAt: null, counted: counted(['p2']) });
  });

  it('document frequencies add up per term and organization; the version counts up per organization', async () => {
    await repo.addDocumentFrequencies(
      'org-t',
      new Map([
        ['export', 2],
        ['button', 1],
      ]),
    );
    await repo.addDocumentFrequencies('org-t', new Map([['export', 1]]));
    await repo.addDocumentFrequencies('org-u', new Map([['export', 5]]));
    expect(await repo.documentFrequencies('org-t', ['export', 'button', 'absent'])).toEqual(
      new Map([
        ['export', 3],
        ['button', 1],
      ]),
    );
    expect(await repo.documentFrequencies('org-t', [])).toEqual(new Map());
    expect(await repo.version('org-t')).toBe(0);
    await repo.bumpVersion('org-t');
    await repo.bumpVersion('org-t');
    expect(await repo.version('org-t')).toBe(2);
    expect(await repo.version('org-u')).toBe(0);
  });

  it("issue points: an organization's latest N issues, oldest first; the processed count", async () => {
    const org = 'org-n';
    await repo.upsert(['n1', 'n2', 'n3'].map((id) => conversation(id, { organizationId: org })));
    await repo.saveClusters([
      {
        id: 'cl-n',
        organizationId: org,
        label: 'Export',
        summary: '',
        icon: 'circle-question',
        centroid: { export: 3 },
        embedding: [],
        bestSimilarity: 1,
        issuesCount: 3,
        lastIssueAt: t0,
        createdAt: t0,
        updatedAt: t0,
      },
    ]);
    const issue = (id: string, vector: Record<string, number>, embedding: number[]) => ({
      id: `i-${id}`,
      organizationId: org,
      conversationId: id,
      clusterId: 'cl-n',
      title: id,
      summary: id,
      source: 'api',
      vector,
      embedding,
      createdAt: t0,
      ingestedAt: t0,
    });
    await repo.insertIssues([issue('n1', { one: 1 }, [1, 0]), issue('n2', { two: 1 }, [])]);
    await repo.insertIssues([issue('n3', { three: 1 }, [0.6, 0.8])]);
    expect(await repo.issuePoints(org, 2)).toEqual([
      { vector: { two: 1 }, embedding: [] },
      { vector: { three: 1 }, embedding: [0.6, 0.8] },
    ]);
    expect(await repo.issuePoints(org, 10)).toHaveLength(3);
    expect(await repo.issuePoints('org-none', 10)).toEqual([]);
    expect(await repo.processedCount(org)).toBe(0);
    await repo.markProcessed(org, await repo.unprocessed(org, 2), at(1000));
    expect(await repo.processedCount(org)).toBe(2);
  });

  it('writers of one organization take turns on its advisory lock', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = d.transaction(async () => {
      await repo.lockOrganization('org-lock');
      order.push('first has it');
      await held;
      order.push('first done');
    });
    await new Promise((r) => setTimeout(r, 50));
    const second = d.transaction(async () => {
      await repo.lockOrganization('org-lock');
      order.push('second has it');
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual(['first has it']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first has it', 'first done', 'second has it']);
  });
});
