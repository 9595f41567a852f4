import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import { unzipSync } from 'fflate';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { RepositoryFiles } from '@app/content-model';

/** The most files a folder import reads (a documentation repository holds hundreds to a few thousand). */
const MAX_FILES = 50_000;
/** The most bytes a zip archive may unpack to (its entries' declared sizes, checked before any is inflated). */
const MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;

/**
 * A repository checked out in a folder, as the GitBook repository reader takes it: every regular file below
 * it (symbolic links and `.git/` left out: nothing outside the folder is read), text on demand.
 */
export function repositoryFolder(dir: string): RepositoryFiles & { bytes(path: string): Buffer | null } {
  const paths: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue;
      const full = join(d, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile()) {
        if (paths.length >= MAX_FILES) throw new Error(`${dir} holds more than ${MAX_FILES} files`);
        paths.push(relative(dir, full).split(sep).join('/'));
      }
    }
  };
  walk(dir);
  const known = new Set(paths);
  const bytes = (path: string) => (known.has(path) ? readFileSync(join(dir, path)) : null);
  return { paths: () => paths, read: (path) => bytes(path)?.toString('utf8') ?? null, bytes };
}

/**
 * Writes an exported repository into `dir`, which must be new or empty (nothing of a user's is overwritten);
 * every path stays inside it. Answers how many files were written.
 */
export function writeRepositoryFolder(dir: string, text: Map<string, string>, assets: Map<string, Buffer>): number {
  if (existsSync(dir) && readdirSync(dir).length) throw new Error(`${dir} is not empty: export into a new or empty folder`);
  const root = resolve(dir);
  let n = 0;
  for (const [path, content] of [...text, ...assets] as [string, string | Buffer][]) {
    const full = resolve(root, path);
    if (!full.startsWith(root + sep)) throw new Error(`${path} would leave ${dir}`);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    n += 1;
  }
  return n;
}

/** A repository given as a folder or as a zip archive of one (GitHub's "Download ZIP", `git archive`). */
export function repositorySource(path: string): RepositoryFiles & { bytes(path: string): Buffer | null } {
  return statSync(path).isFile() ? repositoryArchive(readFileSync(path)) : repositoryFolder(path);
}

/**
 * A zip archive of a repository, read in memory: at most MAX_FILES files and MAX_ARCHIVE_BYTES unpacked (an
 * archive that declares more is refused before anything is inflated); entries whose path would leave the
 * archive (`../`, absolute) and `.git/` are left out; one folder holding everything (`docs-main/`) is the top.
 */
export function repositoryArchive(zip: Buffer): RepositoryFiles & { bytes(path: string): Buffer | null } {
  let total = 0;
  let count = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(new Uint8Array(zip.buffer, zip.byteOffset, zip.length), {
      filter: (file) => {
        if (file.name.endsWith('/')) return false;
        count += 1;
        total += file.originalSize;
        if (count > MAX_FILES) throw new Error(`the archive holds more than ${MAX_FILES} files`);
        if (total > MAX_ARCHIVE_BYTES) throw new Error(`the archive unpacks to more than ${MAX_ARCHIVE_BYTES} bytes`);
        return true;
      },
    });
  } catch (e) {
    throw new Error(`not a readable zip archive: ${e instanceof Error ? e.message : String(e)}`);
  }
  const files = new Map<string, Buffer>();
  for (const [name, data] of Object.entries(entries)) {
    const path = posix.normalize(name.replace(/\\/g, '/'));
    if (path.startsWith('../') || path === '..' || path.startsWith('/') || path.split('/').includes('.git')) continue;
    files.set(path, Buffer.from(data));
  }
  const tops = new Set([...files.keys()].map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  if (tops.size === 1 && !tops.has('')) {
    const top = [...tops][0] + '/';
    for (const [p, b] of [...files]) {
      files.delete(p);
      files.set(p.slice(top.length), b);
    }
  }
  return { paths: () => [...files.keys()], read: (p) => files.get(p)?.toString('utf8') ?? null, bytes: (p) => files.get(p) ?? null };
}
