import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A fresh database for one test file, cloned from the migrated template (fast: no migrations run). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.QUIRE_TEST_SERVER_URL;
  const template = process.env.QUIRE_TEST_TEMPLATE_DB;
  if (!serverUrl || !template) throw new Error('Run the tests through jest: the global setup provides PostgreSQL');
  const name = `quire_t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
