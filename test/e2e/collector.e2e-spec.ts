import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '@app/shared-kernel';
import { Collector, FilesService, FileStorage, SpacesService, UnreferencedContent } from '@app/spaces-and-content';
import { ChangeRequestsService } from '@app/review-and-comments';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { png } from '../support/png';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The collector (#33): page bodies and file bytes nothing references any more go, a grace period (24 h) after
 * they were first found so, at most QUIRE_GC_BATCH a run; what another space still uses stays; a write racing
 * the collector keeps its bytes, whichever comes first.
 */
describe('reclaiming what nothing references', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let db: DataSource;
  let storage: FileStorage;
  const shared = png(5, 4);
  const sharedHash = createHash('sha256').update(shared).digest('hex');

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_GC_BATCH: '2' });
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    db = t.app.get(DataSource);
    storage = t.app.get(FileStorage);
  });
  afterAll(async () => t.close());

  /** A space with the shared image and pages: one the same in every space, and `own` of its own. */
  const space = async (title: string, own: string[]) => {
    const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    const cr = (await t.http.post(`/v1/spaces/${id}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    await t.http
      .post(`/v1/spaces/${id}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_files', files: [{ name: 'shared.png', contentType: 'image/png', base64: shared.toString('base64') }] },
          { operation: 'insert_page', title: 'Common', document: { markdown: 'The same words in every space.' } },
          ...own.map((text, i) => ({ operation: 'insert_page', title: `Own ${i}`, document: { markdown: text } })),
        ],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${id}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    return id;
  };
  const purge = async (id: string) => {
    await t.http.delete(`/v1/spaces/${id}`).set(admin.auth).expect(205);
    t.clock.advance(7 * DAY);
    await t.app.get(SpacesService).purgeExpired();
  };
  const documents = async () => Number((await db.query('SELECT count(*) AS n FROM documents WHERE organization_id = $1', [orgId]))[0].n);
  const collector = () => t.app.get(Collector);

  it('bytes and bodies another space shares survive the purge of one; the rest goes a grace period later, at most a batch a run', async () => {
    const a = await space('A', ['Only in A, first.', 'Only in A, second.', 'Only in A, third.']);
    const b = await space('B', []);
    const before = await documents();
    await purge(a);
    // First run: A's three own bodies are found unreferenced (two this run: the batch), nothing removed yet.
    let run = await collector().collect();
    expect(run.removed).toEqual({ documents: 0, files: 0 });
    expect(run.marked).toEqual({ documents: 2, files: 0 });
    run = await collector().collect();
    expect(run.marked.documents).toBe(1);
    // Within the grace period nothing goes; after it, two a run.
    t.clock.advance(23 * HOUR);
    expect((await collector().collect()).removed.documents).toBe(0);
    t.clock.advance(2 * HOUR);
    expect((await collector().collect()).removed.documents).toBe(2);
    expect((await collector().collect()).removed.documents).toBe(1);
    expect(await documents()).toBe(before - 3);
    // B still reads its page and its image.
    const common = (await t.http.get(`/v1/spaces/${b}/content/path/common`).set(admin.auth).expect(200)).body;
    expect(JSON.stringify(common.document)).toContain('The same words in every space.');
    expect(await storage.exists(orgId, sharedHash)).toBe(true);
    const files = (await t.http.get(`/v1/spaces/${b}/content/files`).set(admin.auth).expect(200)).body.items;
    const download = new URL(files[0].downloadURL as string);
    expect((await t.http.get(download.pathname + download.search).expect(200)).body).toEqual(shared);
    // B purged too: its bytes and bodies go, a grace period later.
    await purge(b);
    await collector().collect();
    t.clock.advance(DAY + HOUR);
    const last = await collector().collect();
    expect(last.removed).toEqual({ documents: 1, files: 1 });
    expect(await storage.exists(orgId, sharedHash)).toBe(false);
    expect(await db.query('SELECT * FROM file_blobs WHERE organization_id = $1 AND hash = $2', [orgId, sharedHash])).toEqual([]);
    expect(
      await db.query(
        'SELECT * FROM document_links dl WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.organization_id = dl.organization_id AND d.hash = dl.hash)',
      ),
    ).toEqual([]);
  });

  it('a body found unreferenced and used again by a new page stays; a space transferred takes its bytes along', async () => {
    const a = await space('Gone', ['Words that come back.']);
    await purge(a);
    await collector().collect(); // marked
    const c = await space('Again', ['Words that come back.']);
    t.clock.advance(2 * DAY);
    await collector().collect();
    await collector().collect();
    const page = (await t.http.get(`/v1/spaces/${c}/content/path/own-0`).set(admin.auth).expect(200)).body;
    expect(JSON.stringify(page.document)).toContain('Words that come back.');
    // Transferred to another organization: its file is served there, and stays when the first organization's copy is collected.
    const other = await t.organization(admin);
    await t.http.post(`/v1/spaces/${c}/transfer`).set(admin.auth).send({ organization: other }).expect(200);
    expect(await storage.exists(other, sharedHash)).toBe(true);
    await collector().collect();
    t.clock.advance(2 * DAY);
    await collector().collect();
    expect(await storage.exists(orgId, sharedHash)).toBe(false);
    const files = (await t.http.get(`/v1/spaces/${c}/content/files`).set(admin.auth).expect(200)).body.items;
    const download = new URL(files[0].downloadURL as string);
    expect((await t.http.get(download.pathname + download.search).expect(200)).body).toEqual(shared);
  });

  /** Bytes nothing references, marked long ago: what the collector removes on its next run. */
  const stale = async (bytes: Buffer) => {
    const hash = createHash('sha256').update(bytes).digest('hex');
    await storage.put(orgId, hash, bytes);
    await db.query(
      `INSERT INTO file_blobs (organization_id, hash, unreferenced_since) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, hash) DO UPDATE SET unreferenced_since = EXCLUDED.unreferenced_since`,
      [orgId, hash, new Date(t.clock.now().getTime() - 2 * DAY)],
    );
    return hash;
  };
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    return { open, opened };
  };
  const settled = async (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 300))]);

  it('a write that claims the bytes first keeps them: the collector waits for it, then leaves them', async () => {
    const bytes = png(7, 7);
    const hash = await stale(bytes);
    const claimed = gate();
    const release = gate();
    const write = t.app.get(UnitOfWork).run(async () => {
      await t.app.get(FilesService).store(orgId, [{ hash, bytes }]);
      claimed.open();
      await release.opened;
    });
    await claimed.opened;
    const collecting = collector().collect();
    expect(await settled(collecting)).toBe(false); // held by the write's claim
    release.open();
    await write;
    expect((await collecting).removed.files).toBe(0);
    expect(await storage.exists(orgId, hash)).toBe(true);
    // Still referenced by nothing (this write stored no revision): marked again, its grace period starting now.
    expect(
      (await db.query('SELECT unreferenced_since FROM file_blobs WHERE organization_id = $1 AND hash = $2', [orgId, hash]))[0],
    ).toEqual({
      unreferenced_since: t.clock.now(),
    });
  });

  it('a write that comes while the collector removes the bytes waits, then stores them again', async () => {
    const bytes = png(9, 9);
    const hash = await stale(bytes);
    const removing = gate();
    const release = gate();
    const sweeping = t.app.get(UnreferencedContent).sweepFiles(new Date(t.clock.now().getTime() - DAY), 10, async (org, h) => {
      removing.open();
      await release.opened;
      await storage.delete(org, h);
    });
    await removing.opened;
    const write = t.app.get(UnitOfWork).run(() => t.app.get(FilesService).store(orgId, [{ hash, bytes }]));
    expect(await settled(write)).toBe(false); // waits for the collector's transaction
    release.open();
    expect(await sweeping).toBe(1);
    await write;
    expect(await storage.get(orgId, hash)).toEqual(bytes);
    expect(await db.query('SELECT unreferenced_since FROM file_blobs WHERE organization_id = $1 AND hash = $2', [orgId, hash])).toEqual([
      { unreferenced_since: null },
    ]);
  });

  it('bytes a failed write stored are left to the collector, not deleted at once (another write may use them)', async () => {
    const bytes = png(11, 3);
    const hash = createHash('sha256').update(bytes).digest('hex');
    await expect(
      t.app.get(UnitOfWork).run(async () => {
        await t.app.get(FilesService).store(orgId, [{ hash, bytes }]);
        throw new Error('the batch failed later');
      }),
    ).rejects.toThrow('the batch failed later');
    expect(await storage.exists(orgId, hash)).toBe(true);
    const rows = await db.query('SELECT unreferenced_since FROM file_blobs WHERE organization_id = $1 AND hash = $2', [orgId, hash]);
    expect(rows).toEqual([{ unreferenced_since: t.clock.now() }]);
    t.clock.advance(DAY + HOUR);
    for (let i = 0; i < 5 && (await storage.exists(orgId, hash)); i++) await collector().collect();
    expect(await storage.exists(orgId, hash)).toBe(false);
  });

  it('a staged file (an import stores its assets one at a time) no batch used is collected; one a batch uses stays; a batch whose staged bytes are gone writes nothing', async () => {
    const files = t.app.get(FilesService);
    const orphan = png(13, 2);
    const orphanHash = createHash('sha256').update(orphan).digest('hex');
    const staged = await files.stage(orgId, { name: 'orphan.png', contentType: 'image/png' }, orphan, 'orphan.png');
    expect(staged).toMatchObject({
      name: 'orphan.png',
      contentType: 'image/png',
      size: orphan.length,
      hash: orphanHash,
      dimensions: { width: 13, height: 2 },
    });
    // Stored at once, claimed: the collector leaves it alone until it finds nothing references it.
    expect(await storage.exists(orgId, orphanHash)).toBe(true);
    await expect(files.stage(orgId, { name: 'a/b.png', contentType: 'image/png' }, orphan, 'x')).rejects.toThrow(/without slashes/);
    await expect(
      files.stage(orgId, { name: 'big.bin', contentType: 'application/octet-stream' }, Buffer.alloc(1024 * 1024 + 1), 'big.bin'),
    ).rejects.toThrow(/larger than/);

    // Used by a batch: written with the revision, kept.
    const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Staged' }).expect(201)).body.id as string;
    const cr = (await t.http.post(`/v1/spaces/${id}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    const kept = png(17, 2);
    const keptFile = await files.stage(orgId, { name: 'kept.png', contentType: 'image/png' }, kept, 'kept.png');
    const actor = { userId: admin.id, tokenId: 'test' };
    const reviews = t.app.get(ChangeRequestsService);
    await reviews.writeContent(actor, id, cr, [{ operation: 'insert_files', files: [{ staged: keptFile }] }]);
    const listed = (await t.http.get(`/v1/spaces/${id}/change-requests/${cr}/content/files`).set(admin.auth).expect(200)).body.items;
    expect(listed).toMatchObject([{ name: 'kept.png', contentType: 'image/png', size: kept.length }]);
    // A client cannot send a staged file: the request's shape refuses it.
    await t.http
      .post(`/v1/spaces/${id}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_files', files: [{ staged: keptFile }] }] })
      .expect(400);

    // A staged file whose bytes are gone (removed since): the batch fails, the change request does not move.
    const gone = png(19, 2);
    const goneFile = await files.stage(orgId, { name: 'gone.png', contentType: 'image/png' }, gone, 'gone.png');
    await storage.delete(orgId, goneFile.hash);
    const before = (await t.http.get(`/v1/spaces/${id}/change-requests/${cr}`).set(admin.auth).expect(200)).body.revision;
    await expect(reviews.writeContent(actor, id, cr, [{ operation: 'insert_files', files: [{ staged: goneFile }] }])).rejects.toThrow(
      /are gone/,
    );
    expect((await t.http.get(`/v1/spaces/${id}/change-requests/${cr}`).set(admin.auth).expect(200)).body.revision).toBe(before);

    // A grace period after the collector finds the orphan unreferenced, it goes; the one the batch uses stays.
    await collector().collect();
    t.clock.advance(DAY + HOUR);
    for (let i = 0; i < 5 && (await storage.exists(orgId, orphanHash)); i++) await collector().collect();
    expect(await storage.exists(orgId, orphanHash)).toBe(false);
    expect(await storage.exists(orgId, keptFile.hash)).toBe(true);
  });
});
