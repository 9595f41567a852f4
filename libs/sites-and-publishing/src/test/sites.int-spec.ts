import { Db } from '@app/persistence';
import { decodeCursor } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { addSiteSpace, emptyStructure, Site } from '../domain/site';
import { SqlSiteRepository } from '../infrastructure/sites.repository';

/** The sites adapter against a real PostgreSQL: the structure round-trips, the version moves on every change, filters and share keys. */
describe('SqlSiteRepository (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let repo: SqlSiteRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    repo = new SqlSiteRepository(d);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const site = (id: string, spaceIds: string[] = [], over: Partial<Site> = {}): Site => {
    const structure = emptyStructure();
    for (const [i, spaceId] of spaceIds.entries()) addSiteSpace(structure, { id: `${id}-ss${i}`, spaceId, spaceTitle: `Space ${spaceId}` });
    return {
      id,
      organizationId: 'org1',
      type: 'basic',
      title: `Site ${id}`,
      hostname: null,
      basename: null,
      proxy: null,
      visibility: 'public',
      published: false,
      adaptiveContent: false,
      agentsContext: 'excluded',
      createdAt: t0,
      version: 1,
      structure,
      ...over,
    };
  };

  it('a site and its structure round-trip; every save moves the version; another organization finds nothing', async () => {
    const s = site('round', ['sp1', 'sp2']);
    await repo.insert(s);
    const read = (await repo.find('org1', 'round'))!;
    expect(read.structure).toEqual(s.structure);
    expect(read.title).toBe('Site round');
    expect(await repo.find('org2', 'round')).toBeNull();
    await repo.save(read, { ...read, title: 'Renamed' });
    const saved = (await repo.find('org1', 'round'))!;
    expect(saved).toMatchObject({ title: 'Renamed', version: read.version + 1 });
  });

  it('a save writes only what changed: a concurrent change to another column survives; the version still moves', async () => {
    await repo.insert(site('partial', ['sp1']));
    const read = (await repo.find('org1', 'partial'))!;
    await d.query(`UPDATE sites SET published = true WHERE id = 'partial'`);
    await repo.save(read, { ...read, title: 'Only the title' });
    expect(await repo.find('org1', 'partial')).toMatchObject({ title: 'Only the title', published: true, version: read.version + 1 });
    await repo.save(read, { ...read, title: 'Only the title' });
    expect((await repo.find('org1', 'partial'))!.version).toBe(read.version + 2);
  });

  it('sites showing a space are found (and locked) by it; a change of that space moves their version only', async () => {
    await repo.insert(site('shows-a', ['space-a']));
    await repo.insert(site('shows-b', ['space-b']));
    await repo.insert(site('shows-both', ['space-a', 'space-b']));
    expect((await repo.showingSpaces(['space-a'])).map((s) => s.id)).toEqual(['shows-a', 'shows-both']);
    const before = new Map((await repo.showingSpaces(['space-a', 'space-b'])).map((s) => [s.id, s.version]));
    await repo.touchShowing('space-b');
    const after = new Map((await repo.showingSpaces(['space-a', 'space-b'])).map((s) => [s.id, s.version]));
    expect(after.get('shows-a')).toBe(before.get('shows-a'));
    expect(after.get('shows-b')).toBe(before.get('shows-b')! + 1);
    expect(after.get('shows-both')).toBe(before.get('shows-both')! + 1);
  });

  it('lists with the official filters (space, title, published, type), keyset-paged', async () => {
    await repo.insert(site('list-1', ['space-x'], { organizationId: 'org-list', title: 'Product docs', published: true }));
    await repo.insert(site('list-2', [], { organizationId: 'org-list', title: 'API reference', type: 'premium' }));
    await repo.insert(site('list-3', ['space-x'], { organizationId: 'org-list', title: 'Internal docs' }));
    const ids = async (filter: Parameters<SqlSiteRepository['list']>[1]) =>
      (await repo.list('org-list', filter, { limit: 10 })).items.map((s) => s.id);
    expect(await ids({ spaceId: 'space-x' })).toEqual(['list-1', 'list-3']);
    expect(await ids({ title: 'DOCS' })).toEqual(['list-1', 'list-3']);
    expect(await ids({ published: true })).toEqual(['list-1']);
    expect(await ids({ types: ['premium'] })).toEqual(['list-2']);
    const first = await repo.list('org-list', {}, { limit: 2 });
    expect(first.count).toBe(3);
    expect((await repo.list('org-list', {}, { limit: 2, after: decodeCursor(first.next!) })).items.map((s) => s.id)).toEqual(['list-3']);
  });

  it('the published state tells whether a share key opens the site: only an active link of that site', async () => {
    await repo.insert(site('shared', [], { visibility: 'share-link', published: true }));
    await repo.insert(site('other', [], { visibility: 'share-link', published: true }));
    await repo.insertShareLink({
      id: 'l1',
      organizationId: 'org1',
      siteId: 'shared',
      name: 'Partners',
      key: 'key-1',
      active: true,
      createdAt: t0,
    });
    await repo.insertShareLink({
      id: 'l2',
      organizationId: 'org1',
      siteId: 'other',
      name: 'Other',
      key: 'key-2',
      active: true,
      createdAt: t0,
    });
    expect((await repo.publishedState('org1', 'shared', 'key-1'))!.keyValid).toBe(true);
    expect((await repo.publishedState('org1', 'shared', 'key-2'))!.keyValid).toBe(false);
    expect((await repo.publishedState('org1', 'shared', undefined))!.keyValid).toBe(false);
    expect(await repo.publishedState('org2', 'shared', 'key-1')).toBeNull();
    await repo.updateShareLink({ ...(await repo.findShareLink('shared', 'l1'))!, active: false });
    expect((await repo.publishedState('org1', 'shared', 'key-1'))!.keyValid).toBe(false);
    expect(await repo.deleteShareLink('shared', 'l1')).toBe(true);
    expect(await repo.deleteShareLink('shared', 'l1')).toBe(false);
  });
});
