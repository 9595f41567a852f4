import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Client } from 'pg';
import { migrate } from '../../apps/api/src/database/migrate';
import { MIGRATIONS } from '../../apps/api/src/database/migrations';

/** A fresh, empty database for `work` (its URL), dropped afterwards. */
async function withEmptyDatabase(work: (url: string) => Promise<void>): Promise<void> {
  const server = process.env.QUIRE_TEST_SERVER_URL!;
  const name = `quire_m_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Several API containers starting together on one empty database: one migrates, the others wait. */
describe('migrations', () => {
  it('three concurrent migrators apply every migration exactly once', async () => {
    await withEmptyDatabase(async (url) => {
      const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
      expect(results.flat()).toHaveLength(MIGRATIONS.length);
      expect(results.filter((r) => r.length === 0)).toHaveLength(2);
      expect(await migrate(url)).toEqual([]);
    });
  }, 60_000);
});

/** A data migration (#49): stored customizations with the old page-actions default keep showing every action. */
describe('the page-feedback migration', () => {
  it("moves a stored ['markdown'] page-actions list (Quire showed every action anyway) to the new default, and nothing else", async () => {
    await withEmptyDatabase(async (url) => {
      const before = MIGRATIONS.slice(
        0,
        MIGRATIONS.findIndex((m) => m.name === 'PageFeedback1767139200000'),
      );
      const ds = new DataSource({ type: 'postgres', url, migrations: before, logging: ['error'] });
      const db = new Client({ connectionString: url });
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
        expect(await migrate(url)).toContain('PageFeedback1767139200000');
        const rows = (await db.query(`SELECT id, customization -> 'pageActions' -> 'items' AS items FROM sites ORDER BY id`)).rows;
        expect(rows).toEqual([
          { id: 'chosen', items: ['external-ai'] },
          { id: 'never-set', items: null },
          { id: 'none', items: [] },
          { id: 'old-default', items: ['markdown', 'external-ai', 'git'] },
        ]);
      } finally {
        await db.end().catch(() => undefined);
      }
    });
  }, 60_000);
});
