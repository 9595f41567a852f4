import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../apps/api/src/database/embedded-postgres';
import { migrate } from '../../apps/api/src/database/migrate';

export const TEMPLATE_DB = 'quire_test_template';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Starts PostgreSQL for the whole run (the embedded one, or the server of DATABASE_URL), and builds a
 * migrated template database. Each test file clones it (CREATE DATABASE ... TEMPLATE) in test/support/app.ts.
 */
export default async function globalSetup(): Promise<void> {
  let serverUrl: string;
  if (process.env.DATABASE_URL) {
    serverUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    const dataDir = join(process.cwd(), '.test-data', `pg-${process.pid}`);
    mkdirSync(dataDir, { recursive: true });
    const pg = await startEmbeddedPostgres({
      dataDir,
      persistent: false,
      extraFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    });
    (globalThis as { __QUIRE_PG__?: { stop(): Promise<void> } }).__QUIRE_PG__ = pg;
    serverUrl = withDatabase(pg.url, 'postgres');
  }
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  await migrate(withDatabase(serverUrl, TEMPLATE_DB));
  process.env.QUIRE_TEST_SERVER_URL = serverUrl;
  process.env.QUIRE_TEST_TEMPLATE_DB = TEMPLATE_DB;
}
