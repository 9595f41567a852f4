import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The libraries' dependencies at run time, read from the code: an edge `a --> b` for every value import
 * (or re-export) of `@app/b` in `libs/a/src` outside its tests (`import type` is erased, so it is no
 * edge). They must form no cycle, the leaves must stay leaves, no context's module may be `@Global()` (persistence's and the app's four are listed)
 * (providers then reach a context only through the modules it imports, so the DI graph is this graph),
 * and docs/architecture.md must draw exactly this graph.
 */
const LIBS = join(process.cwd(), 'libs');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The value imports and re-exports of `@app/*` in one file (multi-line statements included). */
function valueImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'@app\/([a-z-]+)';/gm)) {
    if (m[2]) continue;
    const names = m[3]
      .replace(/[{}]/g, '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    out.push(m[4]);
  }
  return out;
}

function graph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const lib of readdirSync(LIBS).sort()) {
    const deps = new Set<string>();
    for (const file of files(join(LIBS, lib, 'src')))
      for (const dep of valueImports(readFileSync(file, 'utf8'))) if (dep !== lib) deps.add(dep);
    g.set(lib, deps);
  }
  return g;
}

/** One cycle if there is any (the libraries on it), else null. */
function cycle(g: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (n: string): string[] | null => {
    if (state.get(n) === 'done') return null;
    if (state.get(n) === 'open') return [...path.slice(path.indexOf(n)), n];
    state.set(n, 'open');
    path.push(n);
    for (const d of [...(g.get(n) ?? [])].sort()) {
      const found = visit(d);
      if (found) return found;
    }
    path.pop();
    state.set(n, 'done');
    return null;
  };
  for (const n of [...g.keys()].sort()) {
    const found = visit(n);
    if (found) return found;
  }
  return null;
}

/** The Mermaid drawing of the graph, as docs/architecture.md holds it. */
function mermaid(g: Map<string, Set<string>>): string {
  const lines = ['flowchart TD'];
  for (const [lib, deps] of g) for (const d of [...deps].sort()) lines.push(`  ${lib} --> ${d}`);
  return lines.join('\n');
}

describe('library dependencies at run time', () => {
  const g = graph();

  it('reads value imports, not type imports', () => {
    expect(valueImports("import { A } from '@app/x';\nimport type { B } from '@app/y';\nimport { type C } from '@app/z';\n")).toEqual([
      'x',
    ]);
    expect(valueImports("export {\n  A,\n  B,\n} from '@app/x';\n")).toEqual(['x']);
    expect(valueImports("import { A } from '@nestjs/common';\nimport type { B } from '@app/y';\n")).toEqual([]);
    expect(
      cycle(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['a'])],
        ]),
      ),
    ).toEqual(['a', 'b', 'a']);
  });

  it('form no cycle', () => {
    expect(cycle(g)).toBeNull();
  });

  it('keep the leaves leaves: the kernel, the content model, access and the site renderer use no context; the wire objects use only leaves', () => {
    expect([...g.get('shared-kernel')!]).toEqual([]);
    expect([...g.get('content-model')!]).toEqual(['shared-kernel']);
    expect([...g.get('access')!].sort()).toEqual(['persistence', 'shared-kernel']);
    expect([...g.get('wire')!].sort()).toEqual(['access', 'content-model', 'http-kit', 'shared-kernel']);
    expect([...g.get('site-renderer')!].sort()).toEqual(['content-model', 'shared-kernel']);
    // Every context that decides who may do what asks access.
    for (const context of ['organizations-and-teams', 'spaces-and-content', 'review-and-comments', 'sites-and-publishing'])
      expect(g.get(context)!.has('access')).toBe(true);
  });

  it('give no context module @Global() (persistence is infrastructure): a context gets providers only from the modules it imports', () => {
    const global = readdirSync(LIBS)
      .filter((lib) => lib !== 'persistence') // Db and the unit of work: infrastructure every adapter shares
      .flatMap((lib) =>
        files(join(LIBS, lib, 'src')).filter((f) => f.endsWith('.module.ts') && readFileSync(f, 'utf8').includes('@Global()')),
      );
    expect(global).toEqual([]);
  });

  it('are drawn in docs/architecture.md, exactly (QUIRE_DRAW=1 draws it: the drawing is generated from the code)', () => {
    const path = join(process.cwd(), 'docs/architecture.md');
    const doc = readFileSync(path, 'utf8');
    // `QUIRE_DRAW=1 npm run test:jest -- test/architecture/dependencies.spec.ts` writes the drawing the code makes.
    if (process.env.QUIRE_DRAW === '1')
      writeFileSync(
        path,
        doc.replace(/```mermaid\n[\s\S]*?\n```/, () => `\`\`\`mermaid\n${mermaid(g)}\n\`\`\``),
      );
    const drawn = /```mermaid\n([\s\S]*?)\n```/.exec(readFileSync(path, 'utf8'))?.[1];
    expect(drawn).toBe(mermaid(g));
  });

  it('have exactly the @Global() modules docs/architecture.md names, and the ports wired in the composition root drawn there', () => {
    const ROOT = process.cwd();
    const all = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === 'test' || name === 'node_modules' ? [] : all(path);
        return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
      });
    const globals = [...all(join(ROOT, 'libs')), ...all(join(ROOT, 'apps'))]
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/@Global\(\)\s*@Module\([\s\S]*?\)\s*export class (\w+)/g)].map((m) => m[1]))
      .sort();
    expect(globals).toEqual(['ContextWiringModule', 'CoreModule', 'JobsModule', 'PersistenceModule']);
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    for (const name of globals) expect(doc).toContain(`\`${name}\``);

    // The composition root: each port it answers with a factory is an edge from the context declaring the
    // port to the contexts whose services the factory injects.
    const wiring = readFileSync(join(ROOT, 'apps/api/src/context-wiring.module.ts'), 'utf8');
    const libOf = new Map<string, string>();
    for (const m of wiring.matchAll(/import \{([^}]*)\} from '@app\/([a-z-]+)';/g))
      for (const n of m[1].split(',').map((x) => x.trim().replace(/^type /, ''))) if (n) libOf.set(n, m[2]);
    const edges = [...wiring.matchAll(/provide: (\w+),\s*useFactory:[\s\S]*?inject: \[([^\]]*)\]/g)].flatMap((m) =>
      [...new Set(m[2].split(',').map((n) => libOf.get(n.trim())!))].map((to) => `  ${libOf.get(m[1])} -. ${m[1]} .-> ${to}`),
    );
    expect(edges.length).toBeGreaterThan(0);
    const drawings = [...doc.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    expect(drawings[1]).toBe(['flowchart TD', ...edges.sort()].join('\n'));
    // A wired port is a call at run time: with the imports, the ports must close no loop either.
    const withPorts = new Map([...g].map(([lib, deps]) => [lib, new Set(deps)]));
    for (const m of wiring.matchAll(/provide: (\w+),\s*useFactory:[\s\S]*?inject: \[([^\]]*)\]/g))
      for (const n of m[2].split(',')) withPorts.get(libOf.get(m[1])!)!.add(libOf.get(n.trim())!);
    expect(cycle(withPorts)).toBeNull();
    withPorts.get('spaces-and-content')!.add('sites-and-publishing');
    expect(cycle(withPorts)).not.toBeNull();
  });

  it('import @app/wire and @app/http-kit nowhere outside http/ (but a module, which registers its HTTP layer)', () => {
    const outside = readdirSync(LIBS).flatMap((lib) =>
      files(join(LIBS, lib, 'src'))
        // A library's module registers its HTTP layer (controllers, their providers): it may name them too.
        .filter(
          (f) =>
            !f.includes('/http/') &&
            !f.endsWith('/index.ts') &&
            !f.endsWith('.module.ts') &&
            !f.includes(`/libs/wire/`) &&
            !f.includes(`/libs/http-kit/`),
        )
        .filter((f) => /from '@app\/(wire|http-kit)'/.test(readFileSync(f, 'utf8')))
        .map((f) => f.slice(LIBS.length + 1)),
    );
    expect(outside).toEqual([]);
  });

  it('count type imports too for the leaves: the kernel, the content model, access, the site renderer and the wire objects name no context', () => {
    const LEAVES: Record<string, string[]> = {
      'shared-kernel': [],
      'content-model': ['shared-kernel'],
      access: ['persistence', 'shared-kernel'],
      'site-renderer': ['content-model', 'shared-kernel'],
      wire: ['access', 'content-model', 'http-kit', 'shared-kernel'],
    };
    for (const [leaf, allowed] of Object.entries(LEAVES)) {
      const named = new Set<string>();
      for (const file of files(join(LIBS, leaf, 'src')))
        for (const m of readFileSync(file, 'utf8').matchAll(/from '@app\/([a-z-]+)'/g)) if (m[1] !== leaf) named.add(m[1]);
      expect([leaf, [...named].sort()]).toEqual([leaf, [...named].filter((n) => allowed.includes(n)).sort()]);
    }
  });
});
