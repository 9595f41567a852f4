import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';

const LIBS = join(process.cwd(), 'libs');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'test' ? [] : files(full);
    return full.endsWith('.ts') && !full.endsWith('.spec.ts') ? [full] : [];
  });
}

/** The modules of the same library a file imports (type imports included), by path. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].flatMap((m) => {
    const target = normalize(join(dirname(file), m[1]));
    return [`${target}.ts`, join(target, 'index.ts')].filter((t) => existsSync(t)).slice(0, 1);
  });
}

/** The pairs of modules below `dir` that import each other. */
function mutualPairs(dir: string): string[] {
  const graph = new Map(files(dir).map((f) => [f, new Set(localImports(f))]));
  const out: string[] = [];
  for (const [a, deps] of graph)
    for (const b of deps) if (a < b && graph.get(b)?.has(a)) out.push(`${a.slice(dir.length + 1)} <-> ${b.slice(dir.length + 1)}`);
  return out;
}

/**
 * One idea per file (issue #48): no two modules of a library import each other, not even for types — what both
 * need lives in a module of its own (e.g. content-model's `repository-sources.ts`, the baseline both the
 * GitBook export and the repository reader use).
 */
describe('modules of a library', () => {
  it('never import each other', () => {
    expect(readdirSync(LIBS).flatMap((lib) => mutualPairs(join(LIBS, lib, 'src')))).toEqual([]);
  });

  it('the check finds two modules that do, type imports included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-mutual-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = { b: B };\n");
      writeFileSync(join(dir, 'b.ts'), "import { type A } from './a';\nexport type B = { a?: A };\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a';\nexport type C = A;\n");
      expect(mutualPairs(dir)).toEqual(['a.ts <-> b.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
