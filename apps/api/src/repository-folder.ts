import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
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
