import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { RepositoryFiles } from '@app/content-model';

/** The most files a folder import reads (a documentation repository holds hundreds to a few thousand). */
const MAX_FILES = 50_000;

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
