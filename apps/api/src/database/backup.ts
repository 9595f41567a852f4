import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Client, type QueryResultRow } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import tar from 'tar-stream';
import { DataSource } from 'typeorm';
import type { FileStorage } from '@app/spaces-and-content';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

/**
 * `quire backup` and `quire restore` (docs/deployment.md, "Backup and restore"): one consistent snapshot of
 * the database and of the file bytes it references, taken while the API runs, without `pg_dump` (the embedded
 * PostgreSQL from npm ships none, and Debian's client is older than the server).
 *
 * The snapshot is one REPEATABLE READ transaction: every table is copied with `COPY … TO STDOUT` (PostgreSQL's
 * own text format: exact for every type) from the same moment, with a checksum of its rows computed in that
 * moment. The schema is not copied: it is the migrations the backup names, which restore replays into an empty
 * database before it copies the rows back (and then applies the migrations the backup is older than). File
 * bytes are content-addressed and never change, so reading them after the snapshot gives the snapshot's
 * bytes; the collector removes none that a revision references, nor any within a day of that.
 *
 * The archive is a gzipped tar: `header.json` (format, migrations, tables in load order with their columns),
 * `tables/<table>/<n>.copy` (8 MB chunks), `files/<organization>/<hash>`, `keys/secret.keys` when the data
 * dir holds the key that seals stored secrets, and `footer.json` (rows, checksums, files).
 */

export const BACKUP_FORMAT = 'quire-backup/1';
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Tables whose rows are worth nothing elsewhere: the rate limit's windows. */
const SKIPPED = new Set(['rate_limits']);

interface Header {
  format: string;
  createdAt: string;
  serverVersion: string;
  migrations: string[];
  tables: { name: string; columns: string[] }[];
}

interface Footer {
  tables: { name: string; rows: number; checksum: string }[];
  files: number;
  bytes: number;
  /** Files a row names whose bytes the store did not have (the source was missing them already). */
  missing: string[];
}

export type BackupSummary = Footer;

export class BackupError extends Error {}

/** The rows of a query, typed by the caller. */
async function rows<T extends QueryResultRow>(client: Client, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await client.query<T>(sql, params)).rows;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** An order-independent checksum of a table's rows (their text form), computed by PostgreSQL. */
function checksumSql(table: string, columns: string[]): string {
  const cols = columns.map(ident).join(', ');
  return `SELECT count(*)::int AS rows, coalesce(md5(string_agg(h, '' ORDER BY h)), '') AS checksum
          FROM (SELECT md5(t::text) AS h FROM (SELECT ${cols} FROM ${ident(table)}) t) x`;
}

/** The tables of the public schema in an order where every foreign key points to a table before it. */
async function tablesInLoadOrder(client: Client): Promise<{ name: string; columns: string[] }[]> {
  const tables = await rows<{ tablename: string }>(
    client,
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  const edges = await rows<{ child: string; parent: string }>(
    client,
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c
       JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
  const names = tables.map((t) => t.tablename).filter((t) => !SKIPPED.has(t));
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) {
    const child = e.child.replace(/^"|"$/g, '');
    const parent = e.parent.replace(/^"|"$/g, '');
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const next = names.find((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)));
    // A cycle of foreign keys: the rest in name order (restore then needs to skip the checks while loading).
    const pick = next ?? names.find((n) => !placed.has(n))!;
    ordered.push(pick);
    placed.add(pick);
  }
  const out: { name: string; columns: string[] }[] = [];
  for (const name of ordered) {
    const columns = await rows<{ column_name: string }>(
      client,
      `SELECT column_name FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      [name],
    );
    out.push({ name, columns: columns.map((c) => c.column_name) });
  }
  return out;
}

/** Adds an entry holding `data` to the archive. */
function entry(pack: tar.Pack, name: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => pack.entry({ name, size: data.length, mode: 0o600 }, data, (e) => (e ? reject(e) : resolve())));
}

/**
 * Writes a backup of the database at `url` and the file bytes its rows name (read from `storage`) to `file`
 * (written to a temporary name, then renamed: a failed backup leaves nothing that looks like one).
 */
export async function backup(
  url: string,
  storage: FileStorage,
  file: string,
  keys: { name: string; data: Buffer }[] = [],
): Promise<BackupSummary> {
  const client = new Client({ connectionString: url, application_name: 'quire-backup' });
  await client.connect();
  const partial = `${file}.partial-${process.pid}`;
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => undefined);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const migrations = (await rows<{ name: string }>(client, 'SELECT name FROM migrations ORDER BY id')).map((r) => r.name);
    const tables = await tablesInLoadOrder(client);
    const header: Header = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      serverVersion: (await rows<{ server_version: string }>(client, 'SHOW server_version'))[0].server_version,
      migrations,
      tables,
    };
    await entry(pack, 'header.json', Buffer.from(JSON.stringify(header, null, 2)));
    const footer: Footer = { tables: [], files: 0, bytes: 0, missing: [] };
    for (const t of tables) {
      const [sum] = await rows<{ rows: number; checksum: string }>(client, checksumSql(t.name, t.columns));
      footer.tables.push({ name: t.name, ...sum });
      const stream = client.query(copyTo(`COPY (SELECT ${t.columns.map(ident).join(', ')} FROM ${ident(t.name)}) TO STDOUT`));
      let part: Buffer[] = [];
      let size = 0;
      let n = 0;
      const flush = async () => {
        if (!size) return;
        await entry(pack, `tables/${t.name}/${String(++n).padStart(6, '0')}.copy`, Buffer.concat(part, size));
        part = [];
        size = 0;
      };
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        part.push(chunk);
        size += chunk.length;
        if (size >= CHUNK_BYTES) await flush();
      }
      await flush();
    }
    if (tables.some((t) => t.name === 'file_blobs')) {
      const blobs = await rows<{ organization_id: string; hash: string }>(
        client,
        'SELECT organization_id, hash FROM file_blobs ORDER BY organization_id, hash',
      );
      for (const b of blobs) {
        const bytes = await storage.get(b.organization_id, b.hash);
        if (!bytes || createHash('sha256').update(bytes).digest('hex') !== b.hash) {
          footer.missing.push(`${b.organization_id}/${b.hash}`);
          continue;
        }
        await entry(pack, `files/${b.organization_id}/${b.hash}`, bytes);
        footer.files += 1;
        footer.bytes += bytes.length;
      }
    }
    for (const k of keys) await entry(pack, `keys/${k.name}`, k.data);
    await entry(pack, 'footer.json', Buffer.from(JSON.stringify(footer, null, 2)));
    await client.query('COMMIT');
    pack.finalize();
    await written;
    renameSync(partial, file);
    return footer;
  } catch (e) {
    pack.destroy();
    rmSync(partial, { force: true });
    throw e;
  } finally {
    await client.end();
  }
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
  /** Migrations applied after the rows were in (the backup was older than this Quire). */
  migrated: string[];
  keys: string[];
}

/**
 * Restores a backup into the empty database at `url` and the file store `storage`: replays the backup's
 * migrations, copies the rows back in one transaction (checked against the footer's counts and checksums
 * before it commits), puts the file bytes (each checked against its hash), hands key files to `keep`, then
 * applies the migrations this Quire has beyond the backup's.
 */
export async function restore(
  file: string,
  url: string,
  storage: FileStorage,
  keep: (name: string, data: Buffer) => void = () => undefined,
): Promise<RestoreSummary> {
  const client = new Client({ connectionString: url, application_name: 'quire-restore' });
  await client.connect();
  const summary: RestoreSummary = { tables: 0, rows: 0, files: 0, migrated: [], keys: [] };
  let header: Header | null = null;
  let footer: Footer | null = null;
  let began = false;
  try {
    const existing = await rows<{ n: number }>(client, `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
    if (existing[0].n > 0)
      throw new BackupError('restore needs an empty database (this one has tables): create a new one, or a new data dir');
    const extract = tar.extract();
    const done = (async () => {
      for await (const e of extract) {
        const name = e.header.name;
        if (name === 'header.json') {
          header = JSON.parse((await readAll(e)).toString('utf8')) as Header;
          await prepare(header, url, client);
          began = true;
          continue;
        }
        if (!header) throw new BackupError(`not a Quire backup: ${name} before header.json`);
        const table = /^tables\/([^/]+)\/\d+\.copy$/.exec(name);
        const blob = /^files\/([A-Za-z0-9_-]+)\/([0-9a-f]{64})$/.exec(name);
        const key = /^keys\/([\w.-]+)$/.exec(name);
        if (table) {
          const t = header.tables.find((x) => x.name === table[1]);
          if (!t) throw new BackupError(`rows of a table the header does not name: ${table[1]}`);
          await pipeline(
            e as AsyncIterable<Buffer>,
            client.query(copyFrom(`COPY ${ident(t.name)} (${t.columns.map(ident).join(', ')}) FROM STDIN`)),
          );
        } else if (blob) {
          const bytes = await readAll(e);
          if (createHash('sha256').update(bytes).digest('hex') !== blob[2]) throw new BackupError(`file ${blob[1]}/${blob[2]} is damaged`);
          await storage.put(blob[1], blob[2], bytes);
          summary.files += 1;
        } else if (key) {
          keep(key[1], await readAll(e));
          summary.keys.push(key[1]);
        } else if (name === 'footer.json') {
          footer = JSON.parse((await readAll(e)).toString('utf8')) as Footer;
        } else {
          e.resume();
        }
      }
    })();
    // A failure while reading entries stops the reading of the file too.
    await Promise.all([
      pipeline(createReadStream(file), createGunzip(), extract),
      done.catch((e: unknown) => {
        extract.destroy(e as Error);
        throw e;
      }),
    ]);
    if (!header || !footer) throw new BackupError('the backup is incomplete (no header or no footer): it was cut short');
    const { tables } = header as Header;
    for (const expected of (footer as Footer).tables) {
      const t = tables.find((x) => x.name === expected.name)!;
      const [got] = await rows<{ rows: number; checksum: string }>(client, checksumSql(t.name, t.columns));
      if (got.rows !== expected.rows || got.checksum !== expected.checksum)
        throw new BackupError(`table ${t.name} restored with ${got.rows} rows, the backup holds ${expected.rows}: not restored`);
      summary.rows += got.rows;
    }
    summary.tables = tables.length;
    await resetSequences(client);
    await client.query('COMMIT');
    began = false;
  } catch (e) {
    if (began) await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
  summary.migrated = await migrate(url);
  return summary;
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** The schema of the backup's moment (its migrations, none newer), then one transaction for the rows. */
async function prepare(header: Header, url: string, client: Client): Promise<void> {
  if (header.format !== BACKUP_FORMAT) throw new BackupError(`not a backup this Quire reads (${header.format}; it reads ${BACKUP_FORMAT})`);
  const known = MIGRATIONS.map((m) => (m as unknown as { name: string }).name);
  const unknown = header.migrations.filter((m) => !known.includes(m));
  if (unknown.length)
    throw new BackupError(`the backup comes from a newer Quire (migrations ${unknown.join(', ')}): restore it with that version`);
  const ds = new DataSource({
    type: 'postgres',
    url,
    migrations: MIGRATIONS.filter((m) => header.migrations.includes((m as unknown as { name: string }).name)),
    logging: ['error'],
  });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'all' });
  } finally {
    await ds.destroy();
  }
  await client.query('BEGIN');
  // Foreign keys in a cycle cannot be loaded in order: where allowed (a superuser, as the embedded server's
  // is), checks are skipped while loading; the checksums prove the rows are the snapshot's.
  await client.query('SAVEPOINT replica');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query('RELEASE SAVEPOINT replica');
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT replica');
  }
  // What the migrations wrote (their own bookkeeping, seeded rows) makes way for the backup's rows. Only
  // tables with rows: an append-only table (audit events) refuses even an empty TRUNCATE.
  for (const t of header.tables) {
    const filled = await rows<{ any: boolean }>(client, `SELECT EXISTS (SELECT 1 FROM ${ident(t.name)}) AS any`);
    if (filled[0].any) await client.query(`TRUNCATE ${ident(t.name)} CASCADE`);
  }
}

/** Every sequence behind a serial or identity column continues after the largest restored value. */
async function resetSequences(client: Client): Promise<void> {
  const seqs = await rows<{ table_name: string; column_name: string; seq: string }>(
    client,
    `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
       FROM information_schema.columns WHERE table_schema = 'public'
         AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`,
  );
  for (const s of seqs) {
    await client.query(
      `SELECT setval($1, coalesce((SELECT max(${ident(s.column_name)}) FROM ${ident(s.table_name)}), 1),
                     (SELECT max(${ident(s.column_name)}) FROM ${ident(s.table_name)}) IS NOT NULL)`,
      [s.seq],
    );
  }
}
