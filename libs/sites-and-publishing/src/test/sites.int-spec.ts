import { Db } from '@app/persistence';
import { decodeCursor, FixedClock } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { addSiteSpace, emptyStructure, Site } from '../domain/site';
import { SqlSiteRepository } from '../infrastructure/sites.repository';
import { LocalSiteStateChanges } from '../domain/site-repository';
import { PgSiteStateChanges } from '../infrastructure/pg-site-state-changes';
import { SiteStates } from '../application/site-states';

/** The sites adapter against a real PostgreSQL: the structure round-trips, the version moves on every change, filters and share keys. */
describe('SqlSiteRepository (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let d: Db;
  let repo: SqlSiteRepository;
  let changes: LocalSiteStateChanges;
  const heard: (string | null)[] = [];
  const t0 = new Date('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    d = new Db(ds);
    changes = new LocalSiteStateChanges();
    changes.subscribe((id) => heard.push(id));
    repo = new SqlSiteRepository(d, changes);
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
    expect(await repo.shareKeyActive('shared', 'key-1')).toBe(true);
    expect(await repo.shareKeyActive('shared', 'key-2')).toBe(false);
    expect(await repo.shareKeyActive('shared', '')).toBe(false);
    expect(await repo.state('shared')).toEqual({
      organizationId: 'org1',
      version: expect.any(Number),
      published: true,
      visibility: 'share-link',
      visitorAuthKey: null,
    });
    expect(await repo.state('missing')).toBeNull();
    heard.length = 0;
    await repo.updateShareLink({ ...(await repo.findShareLink('shared', 'l1'))!, active: false });
    expect(heard).toEqual(['shared']); // this process forgets the site's state
    // A space's content moving moves every site showing it, and this process forgets each of them.
    await repo.insert(site('moves-a', ['moving-space']));
    await repo.insert(site('moves-b', ['moving-space', 'other-space']));
    heard.length = 0;
    await repo.touchShowing('moving-space');
    expect([...heard].sort()).toEqual(['moves-a', 'moves-b']);
    expect(await repo.shareKeyActive('shared', 'key-1')).toBe(false);
    expect(await repo.deleteShareLink('shared', 'l1')).toBe(true);
    expect(await repo.deleteShareLink('shared', 'l1')).toBe(false);
  });

  describe("SiteStates: a site's state kept in memory", () => {
    class Channel extends LocalSiteStateChanges {
      up = true;
      override get connected(): boolean {
        return this.up;
      }
    }
    const clock = new FixedClock(t0);
    let channel: Channel;
    let states: SiteStates;
    let reads: number;
    let writer: SqlSiteRepository;
    const behindTheBack = (id: string, published: boolean) => ds.query('UPDATE sites SET published = $2 WHERE id = $1', [id, published]);

    beforeEach(() => {
      channel = new Channel();
      const counting = new SqlSiteRepository(d, channel);
      const state = counting.state.bind(counting);
      writer = counting;
      reads = 0;
      counting.state = (id) => (reads++, state(id));
      states = new SiteStates(counting, channel, clock, { ttlMs: 1_000, connectedTtlMs: 60_000 });
    });

    it('is read once, then kept until a change about that site arrives', async () => {
      await repo.insert(site('kept', [], { published: true }));
      expect((await states.state('kept'))!.published).toBe(true);
      await behindTheBack('kept', false);
      expect((await states.state('kept'))!.published).toBe(true); // kept: nothing said it changed
      channel.changed('other');
      expect((await states.state('kept'))!.published).toBe(true);
      channel.changed('kept');
      expect((await states.state('kept'))!.published).toBe(false);
      expect(reads).toBe(2);
      channel.changed(null); // the channel came back: everything kept is dropped
      await states.state('kept');
      expect(reads).toBe(3);
      expect(await states.state('no-such-site')).toBeNull();
    });

    it('while the channel is down, a kept state lives QUIRE_SITE_STATE_TTL_MS; while it is up, at most a minute', async () => {
      await repo.insert(site('ttl', [], { published: true }));
      await states.state('ttl');
      await behindTheBack('ttl', false);
      clock.advance(59_999);
      expect((await states.state('ttl'))!.published).toBe(true);
      clock.advance(1);
      expect((await states.state('ttl'))!.published).toBe(false);
      channel.up = false;
      await behindTheBack('ttl', true);
      clock.advance(999);
      expect((await states.state('ttl'))!.published).toBe(false);
      clock.advance(1);
      expect((await states.state('ttl'))!.published).toBe(true);
    });

    it('share keys: each is checked once per state; a changed link drops them with the state', async () => {
      await repo.insert(site('keys', [], { visibility: 'share-link', published: true }));
      await repo.insertShareLink({
        id: 'k1',
        organizationId: 'org1',
        siteId: 'keys',
        name: 'K',
        key: 'the-key',
        active: true,
        createdAt: t0,
      });
      expect((await states.state('keys', 'the-key'))!.keyValid).toBe(true);
      expect((await states.state('keys', 'wrong'))!.keyValid).toBe(false);
      expect((await states.state('keys'))!.keyValid).toBe(false);
      await ds.query('UPDATE site_share_links SET active = false WHERE id = $1', ['k1']);
      expect((await states.state('keys', 'the-key'))!.keyValid).toBe(true); // kept
      await writer.updateShareLink({ ...(await writer.findShareLink('keys', 'k1'))!, active: false }); // tells this process
      expect((await states.state('keys', 'the-key'))!.keyValid).toBe(false);
      expect(reads).toBe(2);
    });

    it('the trigger on sites tells every listening process, whatever wrote the row', async () => {
      await repo.insert(site('notified', []));
      const pg = new PgSiteStateChanges(d);
      const got: (string | null)[] = [];
      pg.subscribe((id) => got.push(id));
      pg.onModuleInit();
      try {
        for (let i = 0; i < 100 && !pg.connected; i++) await new Promise((r) => setTimeout(r, 20));
        expect(pg.connected).toBe(true);
        got.length = 0;
        await behindTheBack('notified', true);
        await ds.query('DELETE FROM sites WHERE id = $1', ['notified']);
        for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
        expect(got).toEqual(['notified', 'notified']);
      } finally {
        await pg.onModuleDestroy();
      }
    });
  });
});
