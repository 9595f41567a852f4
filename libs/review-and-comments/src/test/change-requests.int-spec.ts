import { Db } from '@app/persistence';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import type { ChangeRequest } from '../domain/change-request';
import { SqlChangeRequestRepository } from '../infrastructure/change-requests.repository';

/** The change requests adapter against a real PostgreSQL: numbers per space, guarded heads and merges, changed fields only. */
describe('SqlChangeRequestRepository (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let repo: SqlChangeRequestRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    repo = new SqlChangeRequestRepository(d);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const cr = (id: string, spaceId = 'space1'): Omit<ChangeRequest, 'number' | 'comments'> => ({
    id,
    organizationId: 'org1',
    spaceId,
    status: 'open',
    subject: `Subject ${id}`,
    description: null,
    createdBy: 'u1',
    createdAt: t0,
    updatedAt: t0,
    mergedBy: null,
    mergedAt: null,
    revision: 'r0',
    revisionInitial: 'r0',
    revisionMergedAncestor: null,
    revisionMerged: null,
    contributors: [],
    conversationsIssuesCluster: null,
  });

  it('numbers count up within a space, also when created together; found by id or number', async () => {
    const created = await Promise.all(['a', 'b', 'c', 'd'].map((x) => d.transaction(() => repo.insert(cr(`n-${x}`)))));
    expect(created.map((c) => c.number).sort()).toEqual([1, 2, 3, 4]);
    expect((await repo.insert(cr('n-other', 'space2'))).number).toBe(1);
    const two = created.find((c) => c.number === 2)!;
    expect((await repo.find('space1', '2'))!.id).toBe(two.id);
    expect((await repo.find('space1', two.id))!.number).toBe(2);
    expect(await repo.find('space2', two.id)).toBeNull();
    expect(await repo.counts('space1')).toEqual({ total: 4, open: 4, draft: 0 });
  });

  it('the head moves only from the revision it was read at; contributors are added once', async () => {
    await repo.insert(cr('head', 'space-h'));
    expect(await repo.compareAndSetRevision('head', 'r0', 'r1', { contributor: 'u2', at: at(1000) })).toBe(true);
    expect(await repo.compareAndSetRevision('head', 'r0', 'r1b', { contributor: 'u3', at: at(2000) })).toBe(false);
    expect(await repo.compareAndSetRevision('head', 'r1', 'r2', { contributor: 'u2', at: at(3000) })).toBe(true);
    expect(await repo.find('space-h', 'head')).toMatchObject({ revision: 'r2', contributors: ['u2'], updatedAt: at(3000) });
  });

  it('a change request is merged once; a merged one takes no new head and no field update', async () => {
    await repo.insert(cr('merge', 'space-m'));
    expect(await repo.markMerged('merge', 'rm', 'u1', at(1000))).toBe(true);
    expect(await repo.markMerged('merge', 'rm2', 'u2', at(2000))).toBe(false);
    expect(await repo.find('space-m', 'merge')).toMatchObject({
      status: 'merged',
      revisionMerged: 'rm',
      mergedBy: 'u1',
      mergedAt: at(1000),
    });
    expect(await repo.compareAndSetRevision('merge', 'r0', 'r9', { at: at(3000) })).toBe(false);
    const merged = (await repo.find('space-m', 'merge'))!;
    // A PATCH read before the merge (status open) does not reopen it.
    expect(await repo.updateFields({ ...merged, status: 'open' }, { ...merged, status: 'archived', updatedAt: at(4000) })).toBe(false);
    expect((await repo.find('space-m', 'merge'))!.status).toBe('merged');
  });

  it('an update writes only the fields that changed', async () => {
    await repo.insert(cr('fields', 'space-f'));
    const before = (await repo.find('space-f', 'fields'))!;
    // Another writer changed the subject meanwhile; this update changes only the description.
    await d.query(`UPDATE change_requests SET subject = 'Theirs' WHERE id = 'fields'`);
    expect(await repo.updateFields(before, { ...before, description: { object: 'document' }, updatedAt: at(1000) })).toBe(true);
    expect(await repo.find('space-f', 'fields')).toMatchObject({ subject: 'Theirs', description: { object: 'document' } });
  });
});
