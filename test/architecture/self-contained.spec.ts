import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A fresh clone's tests and benches pass with nothing outside the repository: no source, test, bench or
 * CI script reads a path above the project (`../shared/…` and the like); the real corpora they use live in
 * test/fixtures/corpora with their licence and a NOTICE naming their origin.
 */
const ROOT = process.cwd();
// This file names such paths as examples.
const THIS_SPEC = join(ROOT, 'test/architecture/self-contained.spec.ts');
const SKIP = new Set(['node_modules', 'dist', 'data', '.test-data', '.ci-node', '.git', 'fixtures']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : sources(path);
    return /\.(ts|mts|js|mjs|cjs|sh)$/.test(name) || name === 'run' || name === 'smoke' ? [path] : [];
  });
}

/** Paths that climb out of the project to its neighbours: `../shared/…`, `../corpora/…`, `../.library/…`. */
export function outsideReferences(source: string): string[] {
  const climbing = [...source.matchAll(/['"`(\s](\.\.\/(?:\.\.\/)*(?:shared|corpora|\.library)(?![\w-])[^'"`\s)]*)/g)].map((m) => m[1]);
  // The same written as path segments (`join(cwd, '..', 'shared')`), or an absolute path to the neighbours.
  const segments = [...source.matchAll(/['"`]\.\.['"`]\s*,\s*['"`](shared|corpora|\.library)['"`]/g)].map((m) => `../${m[1]}`);
  const absolute = [...source.matchAll(/['"`](\/work\/(?:shared|\.library)[^'"`]*)/g)].map((m) => m[1]);
  return [...climbing, ...segments, ...absolute];
}

describe('a fresh clone is self-contained', () => {
  it('recognizes a path out of the project', () => {
    expect(outsideReferences("join(process.cwd(), '../shared/corpora/x')")).toEqual(['../shared/corpora/x']);
    expect(outsideReferences("join(cwd, 'test/fixtures/corpora/x')")).toEqual([]);
    expect(outsideReferences("import { a } from '../../shared-kernel';")).toEqual([]);
    expect(outsideReferences("join(process.cwd(), '..', 'shared', 'corpora')")).toEqual(['../shared']);
    expect(outsideReferences("readFileSync('/work/shared/corpora/x')")).toEqual(['/work/shared/corpora/x']);
  });

  it('reads nothing outside the repository', () => {
    const offenders = ['apps', 'libs', 'test', 'bench', '.ci']
      .filter((d) => existsSync(join(ROOT, d)))
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => f !== THIS_SPEC)
      .flatMap((f) => outsideReferences(readFileSync(f, 'utf8')).map((ref) => `${relative(ROOT, f)}: ${ref}`));
    expect(offenders).toEqual([]);
  });

  it('keeps the real corpus with its licence and a NOTICE naming its origin', () => {
    const corpora = join(ROOT, 'test/fixtures/corpora');
    expect(readFileSync(join(corpora, 'NOTICE'), 'utf8')).toContain('github.com/fluent/fluentd-docs-gitbook');
    expect(readFileSync(join(corpora, 'fluentd-docs-gitbook/LICENSE'), 'utf8')).toContain('Apache License');
    expect(existsSync(join(corpora, 'fluentd-docs-gitbook/SUMMARY.md'))).toBe(true);
  });
});
