import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Client } from 'pg';
import { migrate } from '../../apps/api/src/database/migrate';
import { MIGRATIONS } from '../../apps/api/src/database/migrations';

/** Several API containers starting together on one empty database: one migrates, the others wait. */
describe('migrations', () => {
  it('three concurrent migrators apply every migration exactly once', async () => {
    const server = process.env.QUIRE_TEST_SERVER_URL!;
    const name = `quire_m_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    try {
      const results = await Promise.all([migrate(url.toString()), migrate(url.toString()), migrate(url.toString())]);
      expect(results.flat()).toHaveLength(MIGRATIONS.length);
      expect(results.filter((r) => r.length === 0)).toHaveLength(2);
      expect(await migrate(url.toString())).toEqual([]);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});

/** A data migration (#49): stored customizations with the old page-actions default keep showing every action. */
describe('the page-feedback migration', () => {
  it("moves a stored ['markdown'] page-actions list (Quire showed every action anyway) to the new default, and nothing else", async () => {
    const server = process.env.QUIRE_TEST_SERVER_URL!;
    const name = `quire_m_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    const before = MIGRATIONS.slice(
      0,
      MIGRATIONS.findIndex((m) => m.name === 'PageFeedback1767139200000'),
    );
    const ds = new DataSource({ type: 'postgres', url: url.toString(), migrations: before, logging: ['error'] });
    const db = new Client({ connectionString: url.toString() });
    try {
      await ds.initialize();
      await ds.runMigrations({ transaction: 'all' });
      await ds.destroy();
      await db.connect();
      const site = (id: string, items: string[] | null) =>
        db.query(
          `INSERT INTO sites (id, organization_id, type, title, visibility, structure, customization, created_at)
           VALUES ($1, 'org', 'basic', 'Site', 'public', '{"siteSpaces":[],"items":[]}', $2, now())`,
          [id, items === null ? null : JSON.stringify({ title: 'Site', pageActions: { items } })],
        );
      await site('old-default', ['markdown']);
      await site('chosen', ['external-ai']);
      await site('none', []);
      await site('never-set', null);
      expect(await migrate(url.toString())).toContain('PageFeedback1767139200000');
      const rows = (await db.query(`SELECT id, customization -> 'pageActions' -> 'items' AS items FROM sites ORDER BY id`)).rows;
      expect(rows).toEqual([
        { id: 'chosen', items: ['external-ai'] },
        { id: 'never-set', items: null },
        { id: 'none', items: [] },
        { id: 'old-default', items: ['markdown', 'external-ai', 'git'] },
      ]);
    } finally {
      await db.end().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});
