import { Db } from '@app/persistence';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import type { Collection } from '../domain/collection';
import { Space, ZERO_COUNTERS } from '../domain/space';
import { CONTENT_ENTITIES } from '../infrastructure/orm-entities';
import { TypeOrmCollectionRepository, TypeOrmSpaceRepository } from '../infrastructure/spaces-and-collections.repositories';

/** The TypeORM adapters of this context against a real PostgreSQL (a clone of the migrated template). */
describe('spaces-and-content adapters (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let spaces: TypeOrmSpaceRepository;
  let collections: TypeOrmCollectionRepository;
  const t0 = new Date('2026-01-01T00:00:00.000Z');

  const space = (id: string, over: Partial<Space> = {}): Space => ({
    id,
    organizationId: 'org1',
    title: id,
    emoji: '',
    visibility: 'private',
    editMode: 'live',
    mergeRules: { type: 'inherit' },
    language: null,
    parentId: null,
    defaultLevel: 'inherit',
    position: 'a0',
    revision: `rev-${id}`,
    counters: ZERO_COUNTERS,
    createdAt: t0,
    updatedAt: t0,
    deletedAt: null,
    ...over,
  });
  const collection = (id: string, over: Partial<Collection> = {}): Collection => ({
    id,
    organizationId: 'org1',
    title: id,
    description: null,
    parentId: null,
    defaultLevel: 'inherit',
    position: 'a0',
    createdAt: t0,
    updatedAt: t0,
    ...over,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: CONTENT_ENTITIES });
    await ds.initialize();
    spaces = new TypeOrmSpaceRepository(new Db(ds));
    collections = new TypeOrmCollectionRepository(new Db(ds));
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });
  beforeEach(async () => {
    await ds.query('TRUNCATE spaces, collections, content_permissions, repository_sources, git_sync, git_sync_operations');
  });

  it('round-trips a space through the prepared read with every field', async () => {
    const s = space('s1', {
      emoji: '📘',
      language: 'ja',
      parentId: 'c1',
      defaultLevel: null,
      mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: ['u'] }] },
      counters: { comments: 1, changeRequests: 2, changeRequestsOpen: 3, changeRequestsDraft: 4 },
    });
    await spaces.insert(s);
    expect(await spaces.findById('s1')).toEqual(s);
    expect(await spaces.findById('missing')).toBeNull();
  });

  it('orders siblings (spaces and collections together) by byte order of their keys, like the domain', async () => {
    await spaces.insert(space('lower', { position: 'a0' }));
    await collections.insert(collection('upper', { position: 'Zz' }));
    await spaces.insert(space('digit', { position: 'a0V' }));
    await spaces.insert(space('other-parent', { position: 'A0', parentId: 'c9' }));
    await spaces.insert(space('deleted', { position: 'A1', deletedAt: t0 }));
    const siblings = await spaces.siblings('org1', null);
    expect(siblings.map((s) => `${s.kind}:${s.id}`)).toEqual(['collection:upper', 'space:lower', 'space:digit']);
  });

  it('pages a collection’s spaces by (position, id) without gaps or repeats', async () => {
    const keys = ['a0', 'a1', 'a1', 'a2', 'a3'];
    for (const [i, k] of keys.entries()) await spaces.insert(space(`s${i}`, { parentId: 'c1', position: k }));
    const seen: string[] = [];
    let after: (string | number)[] | undefined;
    for (;;) {
      const page = await spaces.listByParent('org1', 'c1', { limit: 2, after });
      expect(page.count).toBe(5);
      seen.push(...page.items.map((s) => s.id));
      if (!page.next) break;
      after = JSON.parse(Buffer.from(page.next, 'base64url').toString()).k;
    }
    expect(seen).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('purges rows deleted at or before the cutoff, and only those', async () => {
    const cutoff = new Date('2026-01-08T00:00:00.000Z');
    await spaces.insert(space('at', { deletedAt: cutoff }));
    await spaces.insert(space('before', { deletedAt: new Date(cutoff.getTime() - 1) }));
    await spaces.insert(space('after', { deletedAt: new Date(cutoff.getTime() + 1) }));
    await spaces.insert(space('live'));
    expect((await spaces.purgeDeletedBefore(cutoff)).length).toBe(2);
    const left: { id: string }[] = await ds.query('SELECT id FROM spaces ORDER BY id');
    expect(left.map((r) => r.id)).toEqual(['after', 'live']);
  });

  it('deleteInCollections soft-deletes the live spaces directly in the collections; deleteTree removes the collections', async () => {
    await collections.insert(collection('c1'));
    await collections.insert(collection('c2', { parentId: 'c1' }));
    await spaces.insert(space('in', { parentId: 'c2' }));
    await spaces.insert(space('already', { parentId: 'c2', deletedAt: t0 }));
    await spaces.insert(space('out'));
    const at = new Date('2026-02-01T00:00:00.000Z');
    expect(await spaces.deleteInCollections('org1', ['c1', 'c2'], at)).toEqual(['in']);
    await collections.deleteTree('org1', ['c1', 'c2']);
    expect(await collections.findById('c2')).toBeNull();
    expect((await spaces.findById('in'))!.deletedAt).toEqual(at);
    expect((await spaces.findById('already'))!.deletedAt).toEqual(t0);
    expect((await spaces.findById('out'))!.deletedAt).toBeNull();
    // Another organization's collection of the same id is not touched.
    expect(await spaces.deleteInCollections('org2', ['c1', 'c2'], at)).toEqual([]);
  });

  it('transferTree moves the collections; transferInCollections their live spaces (deleted ones stay behind at the top level)', async () => {
    await collections.insert(collection('c1', { parentId: 'p' }));
    await spaces.insert(space('live', { parentId: 'c1' }));
    await spaces.insert(space('gone', { parentId: 'c1', deletedAt: t0 }));
    await collections.transferTree('org1', ['c1'], { id: 'c1', position: 'b0' }, 'org2', t0);
    expect(await spaces.transferInCollections('org1', ['c1'], 'org2', t0)).toEqual(['live']);
    expect(await collections.findById('c1')).toMatchObject({ organizationId: 'org2', parentId: null, position: 'b0' });
    expect(await spaces.findById('live')).toMatchObject({ organizationId: 'org2', parentId: 'c1' });
    expect(await spaces.findById('gone')).toMatchObject({ organizationId: 'org1', parentId: null });
  });

  it('a transaction that fails half-way writes nothing', async () => {
    await collections.insert(collection('c1'));
    await spaces.insert(space('in', { parentId: 'c1' }));
    await ds.query(`CREATE FUNCTION fail_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`);
    await ds.query('CREATE TRIGGER no_delete BEFORE DELETE ON collections FOR EACH ROW EXECUTE FUNCTION fail_delete()');
    try {
      await expect(
        new Db(ds).transaction(async () => {
          await spaces.deleteInCollections('org1', ['c1'], t0);
          await collections.deleteTree('org1', ['c1']);
        }),
      ).rejects.toThrow('boom');
      expect((await spaces.findById('in'))!.deletedAt).toBeNull();
    } finally {
      await ds.query('DROP TRIGGER no_delete ON collections; DROP FUNCTION fail_delete()');
    }
  });
});
