import { Db } from '@app/persistence';
import { decodeCursor } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { Translation, ZERO_STATS } from '../domain/translation';
import { SqlTranslationRepository } from '../infrastructure/translations.repository';

/** The translations adapter against a real PostgreSQL (a clone of the migrated template): runs are claimed once, stale runs are taken over. */
describe('SqlTranslationRepository (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let repo: SqlTranslationRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  const translation = (id: string, over: Partial<Translation> = {}): Translation => ({
    id,
    organizationId: 'org1',
    sourceSpaceId: 'space1',
    sourceLanguage: 'en',
    language: 'es',
    instructions: { object: 'document', data: {}, nodes: [] },
    status: 'pending',
    targetSpaceId: null,
    resultRevision: null,
    stats: ZERO_STATS,
    latestRun: null,
    pages: {},
    glossary: '',
    requestedAt: t0,
    runStartedAt: null,
    createdAt: t0,
    updatedAt: t0,
    createdBy: 'u1',
    ...over,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    repo = new SqlTranslationRepository(new Db(ds));
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('stores and reads a translation as written; another organization does not find it', async () => {
    const t = translation('t-read', { pages: { p1: { title: 'Intro', document: 'hash-1' } } });
    await repo.insert(t);
    expect(await repo.find('org1', 't-read')).toEqual(t);
    expect(await repo.find('org2', 't-read')).toBeNull();
    expect(await repo.findById('t-read')).toEqual(t);
    expect(await repo.delete('org2', 't-read')).toBe(false);
    expect(await repo.delete('org1', 't-read')).toBe(true);
    expect(await repo.findById('t-read')).toBeNull();
  });

  it('a wanted run is claimed once; a run started meanwhile stays wanted; finishing keeps it pending then', async () => {
    await repo.insert(translation('t-claim'));
    const claimed = await repo.claim('t-claim', at(1000), at(-30 * 60_000));
    expect(claimed).toMatchObject({ status: 'running', requestedAt: null, runStartedAt: at(1000) });
    expect(await repo.claim('t-claim', at(2000), at(-30 * 60_000))).toBeNull();
    // Wanted again during the run: the run finishes, the translation stays pending for the next one.
    expect(await repo.request('t-claim', at(3000))).toBe(true);
    expect(await repo.finish({ ...claimed!, status: 'completed', updatedAt: at(4000) }, at(1000))).toBe(true);
    expect(await repo.findById('t-claim')).toMatchObject({ status: 'pending', requestedAt: at(3000), runStartedAt: null });
    // A finish from a run that was taken over (another start time) writes nothing.
    expect(await repo.finish({ ...claimed!, status: 'completed' }, at(999))).toBe(false);
  });

  it('a run older than the stale bound is taken over, and the sweep lists it and the waiting ones', async () => {
    await repo.insert(translation('t-stale', { requestedAt: null, status: 'running', runStartedAt: at(-60 * 60_000) }));
    await repo.insert(translation('t-waiting', { requestedAt: at(-120_000) }));
    await repo.insert(translation('t-fresh', { requestedAt: at(0) }));
    const waiting = await repo.waiting(at(-60_000), at(-30 * 60_000));
    expect(waiting).toEqual(expect.arrayContaining(['t-stale', 't-waiting']));
    expect(waiting).not.toContain('t-fresh');
    expect(await repo.claim('t-stale', at(0), at(-30 * 60_000))).toMatchObject({ runStartedAt: at(0) });
  });

  it('lists an organization’s translations by creation, paged with a keyset cursor', async () => {
    for (let i = 0; i < 5; i++) await repo.insert(translation(`t-list-${i}`, { organizationId: 'org-list', createdAt: at(i * 1000) }));
    const first = await repo.list('org-list', { limit: 3 });
    expect(first.items.map((t) => t.id)).toEqual(['t-list-0', 't-list-1', 't-list-2']);
    expect(first.count).toBe(5);
    const second = await repo.list('org-list', { limit: 3, after: decodeCursor(first.next!) });
    expect(second.items.map((t) => t.id)).toEqual(['t-list-3', 't-list-4']);
    expect(second.next).toBeUndefined();
  });

  it('instructions are replaced, with the time of the change', async () => {
    await repo.insert(translation('t-instr'));
    const doc = { object: 'document' as const, data: {}, nodes: [] };
    expect(await repo.setInstructions('t-instr', doc, at(5000))).toMatchObject({ instructions: doc, updatedAt: at(5000) });
    expect(await repo.setInstructions('missing', doc, at(5000))).toBeNull();
  });
});
