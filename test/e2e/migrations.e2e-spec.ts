import { randomBytes } from 'node:crypto';
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
