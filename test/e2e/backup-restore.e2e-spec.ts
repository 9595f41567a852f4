import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { fileStorageFor, FileStorage } from '@app/spaces-and-content';
import { backup, BackupError, restore } from '../../apps/api/src/database/backup';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from '../../apps/api/src/database/embedded-postgres';
import { keyFilePath } from '../../apps/api/src/secrets';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';
import { png } from '../support/png';

/**
 * `quire backup` / `quire restore` (#33): a backup taken while writes go on restores, into a fresh data dir
 * with its own embedded PostgreSQL, to exactly the snapshot's rows (checked by checksum) and bytes; nothing
 * half-written (every space's revision, every body and file a revision names is there); and the restored
 * instance answers with the same tokens what the source answers.
 */
describe('backup and restore', () => {
  const signing = { QUIRE_FILE_SIGNING_SECRET: 'a-signing-secret-of-at-least-32-characters!' };
  const work = resolve(`.test-data/backup-${process.pid}`);
  let source: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let orgId: string;
  let spaceId: string;
  let siteId: string;
  let firstCr: string;
  let server: EmbeddedPostgresHandle;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    source = await createTestApp(signing);
    admin = await source.user('admin');
    reader = await source.user('reader');
    orgId = await source.organization(admin);
    await source.member(orgId, reader, 'read');
    spaceId = (await source.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (await source.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Start' }).expect(201)).body
      .id;
    await source.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_files', files: [{ name: 'logo.png', contentType: 'image/png', base64: png(6, 3).toString('base64') }] },
          { operation: 'insert_page', title: 'Welcome', document: { markdown: '# Welcome\n\nRead **everything**.\n\n- one\n- two\n' } },
          { operation: 'insert_page', title: 'Guide', document: { markdown: 'The guide.' } },
        ],
      })
      .expect(200);
    await source.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/comments`)
      .set(admin.auth)
      .send({ body: { markdown: 'Looks good.' } })
      .expect(200);
    await source.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    firstCr = cr;
    siteId = (await source.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Docs', visibility: 'public' }).expect(201))
      .body.id;
    await source.http.post(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await source.http.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`).set(admin.auth).expect(200);
    server = await startEmbeddedPostgres({ dataDir: join(work, 'restored') });
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await server?.stop();
    await source?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A new empty database on the restored data dir's server. */
  const emptyDatabase = async (name: string) => {
    const c = new Client({ connectionString: server.url });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(server.url);
    u.pathname = `/${name}`;
    return u.toString();
  };
  const sourceKeys = () => [{ name: 'secret.keys', data: readFileSync(keyFilePath(source.config.dataDir)) }];
  const restoredApp = async (url: string, dataDir: string) => {
    const app = await createTestApp({ ...signing, QUIRE_DATA_DIR: dataDir }, { sharedDatabaseUrl: url });
    apps.push(app);
    return app;
  };

  it('taken while writes go on: restored to the snapshot exactly, nothing half-written, the same tokens work', async () => {
    // Writers keep changing the source while the backup runs.
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        const id = (
          await source.http
            .post(`/v1/spaces/${spaceId}/change-requests`)
            .set(admin.auth)
            .send({ subject: `w${writes}` })
        ).body.id;
        await source.http
          .post(`/v1/spaces/${spaceId}/change-requests/${id}/content`)
          .set(admin.auth)
          .send({ changes: [{ operation: 'insert_page', title: `Written ${writes}`, document: { markdown: `Page ${writes}.` } }] });
        await source.http.post(`/v1/spaces/${spaceId}/change-requests/${id}/merge`).set(admin.auth);
        writes += 1;
      }
    })();
    while (writes < 2) await new Promise((r) => setTimeout(r, 20));
    const file = join(work, 'during.tar.gz');
    const taken = await backup(source.databaseUrl, source.app.get(FileStorage), file, sourceKeys());
    const during = writes;
    while (writes < during + 2) await new Promise((r) => setTimeout(r, 20));
    writing = false;
    await writer;
    expect(taken.missing).toEqual([]);
    expect(taken.files).toBe(1);

    const dataDir = join(work, 'restored');
    const storage = fileStorageFor({ s3: null }, { path: join(dataDir, 'files') });
    const url = await emptyDatabase('during');
    const kept: string[] = [];
    const restored = await restore(file, url, storage, (name, data) => {
      kept.push(name);
      writeFileSync(keyFilePath(dataDir), data, { mode: 0o600 });
    });
    // Every table's rows were checked against the snapshot's count and checksum before the commit.
    expect(restored.rows).toBe(taken.tables.reduce((n, t) => n + t.rows, 0));
    expect(restored.files).toBe(1);
    expect(kept).toEqual(['secret.keys']);
    // The snapshot is one moment: the restored space has fewer pages than the source now, and all it names is there.
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const dangling = await db.query(
        `SELECT s.id FROM spaces s WHERE NOT EXISTS (SELECT 1 FROM revisions r WHERE r.id = s.revision_id)
         UNION ALL
         SELECT r.id FROM revisions r, jsonb_path_query(r.tree::jsonb, 'strict $.**.document') h
         WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.organization_id = r.organization_id AND d.hash = h #>> '{}')
         UNION ALL
         SELECT r.id FROM revisions r, jsonb_array_elements(r.files) f
         WHERE NOT EXISTS (SELECT 1 FROM file_blobs b WHERE b.organization_id = r.organization_id AND b.hash = f->>'hash')`,
      );
      expect(dangling.rows).toEqual([]);
      for (const b of (await db.query('SELECT organization_id, hash FROM file_blobs')).rows as {
        organization_id: string;
        hash: string;
      }[]) {
        const bytes = await storage.get(b.organization_id, b.hash);
        expect(bytes && createHash('sha256').update(bytes).digest('hex')).toBe(b.hash);
      }
    } finally {
      await db.end();
    }
    const app = await restoredApp(url, dataDir);
    const me = await app.http.get('/v1/user').set(admin.auth).expect(200);
    expect(me.body).toEqual((await source.http.get('/v1/user').set(admin.auth).expect(200)).body);
    const pages = (await app.http.get(`/v1/spaces/${spaceId}/content`).set(reader.auth).expect(200)).body.pages as { title: string }[];
    const now = (await source.http.get(`/v1/spaces/${spaceId}/content`).set(reader.auth).expect(200)).body.pages as { title: string }[];
    expect(pages.length).toBeGreaterThanOrEqual(2 + 2);
    expect(pages.length).toBeLessThan(now.length);
    expect(now.slice(0, pages.length).map((p) => p.title)).toEqual(pages.map((p) => p.title));
    // Sequences continue after the restored rows: the restored instance writes on.
    const cr = await app.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'After' }).expect(201);
    expect(cr.body.number).toBeGreaterThan(1);
  });

  it('taken at rest: the restored instance answers every read the same, with the same tokens, in the official shapes', async () => {
    const file = join(work, 'rest.tar.gz');
    await backup(source.databaseUrl, source.app.get(FileStorage), file, sourceKeys());
    const dataDir = join(work, 'rest');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFilePath(dataDir), readFileSync(keyFilePath(source.config.dataDir)), { mode: 0o600 });
    const url = await emptyDatabase('rest');
    await restore(file, url, fileStorageFor({ s3: null }, { path: join(dataDir, 'files') }));
    const app = await restoredApp(url, dataDir);
    const cr = firstCr;
    const reads = [
      '/v1/user',
      '/v1/orgs',
      `/v1/orgs/${orgId}`,
      `/v1/orgs/${orgId}/members`,
      `/v1/orgs/${orgId}/spaces`,
      `/v1/spaces/${spaceId}`,
      `/v1/spaces/${spaceId}/content`,
      `/v1/spaces/${spaceId}/content/path/welcome`,
      `/v1/spaces/${spaceId}/content/files`,
      `/v1/spaces/${spaceId}/change-requests`,
      `/v1/spaces/${spaceId}/change-requests/${cr}`,
      `/v1/spaces/${spaceId}/change-requests/${cr}/comments`,
      `/v1/orgs/${orgId}/sites`,
      `/v1/orgs/${orgId}/sites/${siteId}`,
      `/v1/spaces/${spaceId}/search?query=everything`,
    ];
    for (const path of reads) {
      for (const who of [admin, reader]) {
        const before = await source.http.get(path).set(who.auth);
        const after = await app.http.get(path).set(who.auth);
        expect([path, after.status, after.body]).toEqual([path, before.status, before.body]);
      }
    }
    // The published site and a file's bytes, as a visitor gets them.
    expect((await app.http.get(`/sites/${siteId}/welcome`).expect(200)).text).toBe(
      (await source.http.get(`/sites/${siteId}/welcome`).expect(200)).text,
    );
    const files = (await app.http.get(`/v1/spaces/${spaceId}/content/files`).set(admin.auth).expect(200)).body.items;
    const download = new URL(files[0].downloadURL as string);
    expect((await app.http.get(download.pathname + download.search).expect(200)).body).toEqual(png(6, 3));
    // The official shapes, as the contract tests check them.
    const schemas = officialValidator();
    expect(schemas.check('Space', (await app.http.get(`/v1/spaces/${spaceId}`).set(admin.auth)).body)).toBe('');
    expect(schemas.check('ChangeRequest', (await app.http.get(`/v1/spaces/${spaceId}/change-requests/${cr}`).set(admin.auth)).body)).toBe(
      '',
    );
    expect(schemas.check('Organization', (await app.http.get(`/v1/orgs/${orgId}`).set(admin.auth)).body)).toBe('');
    // A revoked token stays revoked; a token nobody issued gets nothing.
    await app.http.get('/v1/user').set({ Authorization: 'Bearer gb_api_nothing' }).expect(401);
  });

  it('refuses a database that is not empty, a file that is not a backup, and a cut-short one', async () => {
    const file = join(work, 'rest.tar.gz');
    const url = await emptyDatabase('refusals');
    const storage = fileStorageFor({ s3: null }, { path: join(work, 'refusals-files') });
    await expect(restore(file, source.databaseUrl, storage)).rejects.toThrow(/needs an empty database/);
    writeFileSync(join(work, 'not.tar.gz'), 'plain text');
    await expect(restore(join(work, 'not.tar.gz'), url, storage)).rejects.toThrow();
    const whole = readFileSync(file);
    writeFileSync(join(work, 'cut.tar.gz'), whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(restore(join(work, 'cut.tar.gz'), await emptyDatabase('cut'), storage)).rejects.toThrow();
    await expect(restore(file, url, storage)).resolves.toMatchObject({ files: 1 });
    expect(BackupError).toBeDefined();
  });
});
