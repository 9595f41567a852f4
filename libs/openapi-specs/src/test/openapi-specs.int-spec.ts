import { Db } from '@app/persistence';
import { decodeCursor } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import type { OpenApiSpec, SpecVersion } from '../domain/openapi-spec';
import { SqlOpenApiSpecRepository } from '../infrastructure/openapi-specs.repository';

/** The OpenAPI specs adapter against a real PostgreSQL: slugs unique per organization, one claim per source revision, versions newest first. */
describe('SqlOpenApiSpecRepository (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let repo: SqlOpenApiSpecRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    repo = new SqlOpenApiSpecRepository(d);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const spec = (id: string, over: Partial<OpenApiSpec> = {}): OpenApiSpec => ({
    id,
    organizationId: 'org1',
    slug: id,
    visibility: 'private',
    source: { kind: 'url', url: 'https://example.com/openapi.json' },
    sourceRevision: 1,
    processingState: 'pending',
    lastProcessedAt: null,
    lastProcessErrorCode: null,
    lastProcessedErrors: [],
    lastProcessedErrorCount: 0,
    lastVersionId: null,
    createdAt: t0,
    updatedAt: t0,
    ...over,
  });

  it('a slug is unique within an organization only; reads are scoped to it', async () => {
    expect(await repo.insert(spec('petstore'))).toBe(true);
    expect(await repo.insert(spec('petstore-2', { slug: 'petstore' }))).toBe(false);
    expect(await repo.insert(spec('petstore-b', { slug: 'petstore', organizationId: 'org2' }))).toBe(true);
    expect(await repo.findBySlug('org1', 'petstore')).toEqual(spec('petstore'));
    expect((await repo.findBySlug('org2', 'petstore'))!.id).toBe('petstore-b');
    expect(await repo.delete('org2', 'petstore')).toBe(true);
    expect(await repo.findBySlug('org1', 'petstore')).not.toBeNull();
  });

  it('a source revision is claimed once; a newer revision makes the old claim miss; a stuck run goes back to pending', async () => {
    await repo.insert(spec('claims', { source: { kind: 'text', text: '{"openapi":"3.1.0"}' } }));
    expect(await repo.claim('claims', 1, at(1000))).toBe(true);
    expect(await repo.claim('claims', 1, at(2000))).toBe(false);
    // The source changed during the run: revision 2 is pending, the run of revision 1 must not claim it.
    const running = (await repo.findById('claims'))!;
    await repo.update(running, { ...running, sourceRevision: 2, processingState: 'pending', updatedAt: at(3000) });
    expect(await repo.claim('claims', 1, at(4000))).toBe(false);
    expect(await repo.claim('claims', 2, at(4000))).toBe(true);
    // Nobody finishes it: past the stuck bound it is pending again and listed for the sweep.
    const stale = await repo.stale(at(10_000), at(5000), 10);
    expect(stale).toEqual(expect.arrayContaining([{ id: 'claims', sourceRevision: 2 }]));
    expect((await repo.findById('claims'))!.processingState).toBe('pending');
  });

  it('an update writes the processing outcome; lockById holds the row for the unit of work', async () => {
    await repo.insert(spec('outcome'));
    const before = (await repo.findById('outcome'))!;
    const errors = [{ code: 'SCHEMA', message: 'paths is required', pointer: '/paths' }];
    await repo.update(before, {
      ...before,
      processingState: 'complete',
      lastProcessedAt: at(1000),
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: errors,
      lastProcessedErrorCount: 1,
      updatedAt: at(1000),
    });
    expect(await repo.findById('outcome')).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: errors,
    });
    await d.transaction(async () => {
      expect((await repo.lockById('outcome'))!.id).toBe('outcome');
      const locks: { n: number }[] = await d.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'transactionid' AND pid = pg_backend_pid()`,
      );
      expect(locks[0].n).toBeGreaterThanOrEqual(1);
    });
  });

  it('an update writes only the columns that changed; leaving progress clears the claim', async () => {
    await repo.insert(spec('partial'));
    expect(await repo.claim('partial', 1, at(1000))).toBe(true);
    const read = (await repo.findById('partial'))!;
    // Another writer changes the visibility after this one read the row.
    await d.query(`UPDATE openapi_specs SET visibility = 'public' WHERE id = 'partial'`);
    await repo.update(read, { ...read, processingState: 'complete', lastProcessedAt: at(2000), updatedAt: at(2000) });
    expect(await repo.findById('partial')).toMatchObject({ visibility: 'public', processingState: 'complete', lastProcessedAt: at(2000) });
    const claimed: { claimed_at: Date | null }[] = await d.query(`SELECT claimed_at FROM openapi_specs WHERE id = 'partial'`);
    expect(claimed[0].claimed_at).toBeNull();
  });

  it('versions: the latest is the last inserted; the list is newest first without the text, keyset-paged', async () => {
    await repo.insert(spec('versions'));
    const version = (n: number): SpecVersion => ({
      id: `v${n}`,
      specId: 'versions',
      organizationId: 'org1',
      createdAt: at(n * 1000),
      sourceUrl: null,
      format: 'json',
      contentHash: `hash-${n}`,
      text: `{"n":${n}}`,
    });
    for (const n of [1, 2, 3]) await repo.insertVersion(version(n));
    expect(await repo.latestVersion('versions')).toEqual(version(3));
    expect(await repo.version('versions', 'v1')).toEqual(version(1));
    expect(await repo.version('other-spec', 'v1')).toBeNull();
    const first = await repo.listVersions('versions', { limit: 2 });
    expect(first.items.map((v) => v.id)).toEqual(['v3', 'v2']);
    expect(first.items[0]).not.toHaveProperty('text');
    const rest = await repo.listVersions('versions', { limit: 2, after: decodeCursor(first.next!) });
    expect(rest.items.map((v) => v.id)).toEqual(['v1']);
  });
});
