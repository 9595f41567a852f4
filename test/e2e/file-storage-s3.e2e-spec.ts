import { createTestApp, TestApp, TestUser } from '../support/app';
import { createTestDatabase } from '../support/database';
import { expectError } from '../support/expect';
import { startS3 } from '../support/s3';
import { loadConfig } from '../../apps/api/src/config';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { fileStorageFor, FileStorage } from '@app/spaces-and-content';
import { backup, restore } from '../../apps/api/src/database/backup';

/** An empty database (no schema) on the test server: where a restore goes. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.QUIRE_TEST_SERVER_URL!;
  const name = `quire_restore_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** QUIRE_FILE_STORAGE=s3 against an S3-speaking server on loopback: uploads, downloads, two API processes. */
describe('file storage on S3', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let orgId: string;
  const secret = 'x'.repeat(40);

  beforeAll(async () => {
    s3 = await startS3();
    db = await createTestDatabase();
    a = await createTestApp({ ...s3.env, QUIRE_FILE_SIGNING_SECRET: secret }, { sharedDatabaseUrl: db.url });
    b = await createTestApp(
      { ...s3.env, QUIRE_FILE_SIGNING_SECRET: secret, QUIRE_FILE_DOWNLOADS: 'presigned' },
      { sharedDatabaseUrl: db.url },
    );
    admin = await a.user('admin');
    orgId = await a.organization(admin);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await db.drop();
    await s3.close();
  });

  it('a file uploaded through one process downloads through the other (proxied, or redirected to a presigned URL)', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));
    const space = (await a.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Files' }).expect(201)).body.id;
    const cr = (await a.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const written = await a.http
      .post(`/v1/spaces/${space}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          {
            operation: 'insert_files',
            files: [{ ref: 'data', name: 'data.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }],
          },
        ],
      })
      .expect(200);
    const fileId = written.body.insertedFiles[0].id as string;
    await a.http.post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);

    // Through b: its links redirect to the store's presigned URL.
    const viaB = (await b.http.get(`/v1/spaces/${space}/content/files/${fileId}`).set(admin.auth).expect(200)).body.downloadURL as string;
    const redirected = await b.http.get(new URL(viaB).pathname + new URL(viaB).search).expect(302);
    expect(redirected.headers.location).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/${orgId}/[0-9a-f]{64}\\?`));
    const fromStore = await fetch(redirected.headers.location);
    expect(Buffer.from(await fromStore.arrayBuffer()).equals(bytes)).toBe(true);
    // Through a (proxied): a's link, served by b too (shared signing secret, shared store).
    const viaA = (await a.http.get(`/v1/spaces/${space}/content/files/${fileId}`).set(admin.auth).expect(200)).body.downloadURL as string;
    const proxied = await a.http
      .get(new URL(viaA).pathname + new URL(viaA).search)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(proxied.status).toBe(200);
    expect((proxied.body as Buffer).equals(bytes)).toBe(true);
    expect((await b.http.get(new URL(viaA).pathname + new URL(viaA).search)).status).toBe(302);
    // A forged link gets nothing from either.
    const forged = new URL(viaA);
    forged.searchParams.set('sig', 'A'.repeat(43));
    expectError(await a.http.get(forged.pathname + forged.search), 404);
    expectError(await b.http.get(forged.pathname + forged.search), 404);
  });

  it('a backup reads the bytes from the bucket; restored into an empty database with local storage, they download again', async () => {
    const bytes = Buffer.from('bytes kept in the bucket, restored to disk');
    const space = (await a.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Backed up' }).expect(201)).body.id;
    const cr = (await a.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await a.http
      .post(`/v1/spaces/${space}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [{ operation: 'insert_files', files: [{ name: 'b.txt', contentType: 'text/plain', base64: bytes.toString('base64') }] }],
      })
      .expect(200);
    await a.http.post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const dir = join(process.cwd(), '.test-data', `s3-backup-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const file = join(dir, 'b.tar.gz');
      const taken = await backup(db.url, a.app.get(FileStorage), file);
      expect(taken.missing).toEqual([]);
      const target = await emptyDatabase();
      try {
        const restored = await restore(file, target.url, fileStorageFor({ s3: null }, { path: join(dir, 'files') }));
        expect(restored.files).toBe(taken.files);
        const local = await createTestApp({ QUIRE_FILE_SIGNING_SECRET: secret, QUIRE_DATA_DIR: dir }, { sharedDatabaseUrl: target.url });
        try {
          const files = (await local.http.get(`/v1/spaces/${space}/content/files`).set(admin.auth).expect(200)).body.items;
          const url = new URL(files[0].downloadURL as string);
          expect((await local.http.get(url.pathname + url.search).expect(200)).text).toBe(bytes.toString());
        } finally {
          await local.close();
        }
      } finally {
        await target.drop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an S3 configuration that cannot work, at start', () => {
    expect(() => loadConfig({ QUIRE_FILE_STORAGE: 's3' })).toThrow(/QUIRE_S3_BUCKET/);
    expect(() => loadConfig({ QUIRE_FILE_STORAGE: 'ftp' })).toThrow(/QUIRE_FILE_STORAGE/);
    expect(() => loadConfig({ QUIRE_FILE_DOWNLOADS: 'presigned' })).toThrow(/needs QUIRE_FILE_STORAGE=s3/);
    expect(() => loadConfig({ QUIRE_FILE_STORAGE: 's3', QUIRE_S3_BUCKET: 'b', QUIRE_S3_ENDPOINT: 'file:///x' })).toThrow(
      /QUIRE_S3_ENDPOINT/,
    );
    expect(() => loadConfig({ QUIRE_FILE_STORAGE: 's3', QUIRE_S3_BUCKET: 'b', QUIRE_S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/PATH_STYLE/);
    expect(loadConfig({ QUIRE_FILE_STORAGE: 's3', QUIRE_S3_BUCKET: 'b', AWS_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'b',
      region: 'eu-west-3',
      endpoint: undefined,
      prefix: undefined,
    });
  });
});
