import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import {
  applyChanges,
  locate,
  markdownToDocument,
  readGitbookRepository,
  repositorySources,
  repositoryPageChanges,
  writeGitbookRepository,
  type JsonDocument,
  type PageTree,
  type RepositorySources,
  type RepositoryFiles,
  type RepositoryPage,
} from '..';

/** Files from a folder on disk, or from a map (what a Git checkout or a zip gives the reader). */
function folder(dir: string): RepositoryFiles {
  const all: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else all.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  const known = new Set(all);
  return { paths: () => all, read: (p) => ((known.has(p) && p.endsWith('.md')) || p.endsWith('.yaml') ? safeRead(join(dir, p)) : null) };
}
function safeRead(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
function files(map: Record<string, string>): RepositoryFiles {
  return { paths: () => Object.keys(map), read: (p) => (Object.hasOwn(map, p) ? map[p] : null) };
}
const flat = (pages: RepositoryPage[]): RepositoryPage[] => pages.flatMap((p) => [p, ...flat(p.pages)]);
const outline = (pages: RepositoryPage[]): unknown[] => pages.map((p) => (p.pages.length ? { [p.title]: outline(p.pages) } : p.title));

describe('GitBook repositories (Git Sync layout) read into a page tree', () => {
  it('the fluentd repository: every SUMMARY entry in order, nested; the redirects; the assets; missing files reported', () => {
    const corpus = join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook');
    const repo = readGitbookRepository(folder(corpus));
    const summary = readFileSync(join(corpus, 'SUMMARY.md'), 'utf8');
    const linked = [...summary.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => decodeURI(m[1]));
    const pages = flat(repo.pages);
    // Every linked entry, in SUMMARY order, and the three entries without a link (pages without a file).
    expect(pages.filter((p) => p.path !== null).map((p) => p.path)).toEqual(linked);
    expect(pages.filter((p) => p.path === null).map((p) => p.title)).toEqual([
      'Obsolete Installation',
      'Treasure Agent v4 Installation',
      'Treasure Agent v3 (EOL) Installation',
    ]);
    expect(pages[0]).toMatchObject({ title: 'Introduction', path: 'README.md' });
    expect(outline(repo.pages)[2]).toMatchObject({ Installation: expect.arrayContaining(['Before Installation']) });
    // Titles are the summary's (escaped parentheses read as text).
    expect(pages.map((p) => p.title)).toContain('Install by RPM Package (Red Hat Linux)');
    expect(pages.every((p) => p.path === null || p.markdown !== null || repo.missing.includes(p.path))).toBe(true);
    expect(repo.redirects.length).toBeGreaterThan(150);
    expect(repo.redirects[0]).toEqual({ source: '/v1.0/articles/quickstart', destination: 'README.md' });
    expect(repo.assets.length).toBe(readdirSync(join(corpus, '.gitbook/assets')).length);
    expect(repo.summary).toBe('SUMMARY.md');
    // Its three summary entries without a link are pages without a file, and said so.
    expect(repo.notes).toEqual(
      ['Obsolete Installation', 'Treasure Agent v4 Installation', 'Treasure Agent v3 (EOL) Installation'].map(
        (t) => `SUMMARY.md: "${t}" has no link: a page without a file`,
      ),
    );
    // The corpus's README says some files were left out: whatever a redirect or the summary names and is absent is listed.
    for (const path of repo.missing)
      expect(readdirSync(corpus).includes(path.split('/')[0]) ? safeRead(join(corpus, path)) : null).toBeNull();
  });

  it('groups from ## headings; a root and a summary elsewhere; a monorepo project directory', () => {
    const repo = readGitbookRepository(
      files({
        'docs/.gitbook.yaml':
          'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  old/page: guide/setup.md\n',
        'docs/content/toc.md':
          '# Contents\n\n* [Intro](intro.md)\n\n## Guides\n\n* [Setup](guide/setup.md)\n  * [Deep](guide/deep%20dive.md#part)\n\n## Reference\n\n* [API](https://example.com/api)\n',
        'docs/content/intro.md': '# Intro\n',
        'docs/content/guide/setup.md': '# Setup\n',
        'docs/content/guide/deep dive.md': '# Deep\n',
        'docs/.gitbook/assets/logo.png': '',
        'other/README.md': '# Other project\n',
      }),
      { projectDirectory: 'docs' },
    );
    expect(repo.root).toBe('docs/content');
    expect(repo.readme).toBe('docs/content/intro.md');
    expect(repo.summary).toBe('docs/content/toc.md');
    expect(outline(repo.pages)).toEqual(['Intro', { Guides: [{ Setup: ['Deep'] }] }, { Reference: ['API'] }]);
    expect(repo.pages[1].kind).toBe('group');
    expect(flat(repo.pages).map((p) => p.path)).toEqual([
      'docs/content/intro.md',
      null,
      'docs/content/guide/setup.md',
      'docs/content/guide/deep dive.md',
      null,
      null,
    ]);
    expect(repo.redirects).toEqual([{ source: '/old/page', destination: 'docs/content/guide/setup.md' }]);
    expect(repo.assets).toEqual(['docs/.gitbook/assets/logo.png']);
    expect(repo.missing).toEqual([]);
  });

  it("slugs from files: a folder's README its folder's name, the README of the project's folder its title", () => {
    const repo = readGitbookRepository(
      files({
        'docs/SUMMARY.md': '# Contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Set up](guide/setup.md)\n',
        'docs/README.md': '# Welcome\n',
        'docs/guide/README.md': '# Guide\n',
        'docs/guide/setup.md': '# Set up\n',
      }),
      { projectDirectory: 'docs' },
    );
    const slugs = repositoryPageChanges(repo).changes.flatMap((c) => (c.operation === 'insert_page' ? [c.slug] : []));
    expect(slugs).toEqual(['welcome', 'guide', 'setup']);
  });

  it('without a summary the tree follows the folders; hostile paths never leave the repository; bad YAML is noted', () => {
    const repo = readGitbookRepository(
      files({
        '.gitbook.yaml': 'root: [unclosed\n',
        'README.md': '# Home\n',
        'b.md': '# Bee\n',
        'a.md': 'No heading here.\n',
        'guide/README.md': '# Guide\n',
        'guide/one.md': '# One\n',
        'loose/two.md': '# Two\n',
        '.gitbook/includes/x.md': 'included\n',
      }),
    );
    expect(repo.notes).toEqual(['.gitbook.yaml is not valid YAML: the defaults apply']);
    expect(outline(repo.pages)).toEqual(['Home', 'a', 'Bee', { Guide: ['One'] }, 'Two']);
    const hostile = readGitbookRepository(
      files({
        '.gitbook.yaml': 'root: ../../etc\nredirects:\n  a: ../../../passwd\n  b: 42\n',
        'SUMMARY.md': '* [Up](../../etc/passwd)\n* [Abs](/README.md)\n* [Missing](nope.md)\n',
        'README.md': '# Home\n',
      }),
    );
    expect(hostile.root).toBe('');
    expect(flat(hostile.pages).map((p) => p.path)).toEqual([null, 'README.md', 'nope.md']);
    expect(hostile.redirects).toEqual([]);
    expect(hostile.missing).toEqual(['nope.md']);
  });
});

describe('pages imported with their repository paths: links between them resolve', () => {
  let n = 0;
  const ctx = () => ({ newId: () => `p${++n}`, now: '2026-01-01T00:00:00.000Z', trees: new Map() });
  const linksOf = (doc: JsonDocument): unknown[] => {
    const out: unknown[] = [];
    const walk = (nodes: unknown[]) =>
      nodes.forEach((x) => {
        const node = x as { object?: string; type?: string; data?: { ref?: unknown }; nodes?: unknown[] };
        if (node.data?.ref) out.push(node.data.ref);
        walk(node.nodes ?? []);
      });
    walk(doc.nodes);
    return out;
  };

  it('relative links to pages (with anchors), to folders, from the top, and to assets; others stay URLs', () => {
    const result = applyChanges(
      [],
      [
        {
          operation: 'insert_files',
          files: [{ ref: '.gitbook/assets/logo.png', name: 'logo.png', contentType: 'image/png', size: 1, hash: 'h' }],
        },
        {
          operation: 'insert_page',
          ref: 'home',
          path: 'README.md',
          title: 'Home',
          document: { markdown: 'See [setup](guide/setup.md#step-2) and [guide](guide/).' },
        },
        {
          operation: 'insert_page',
          ref: 'guide',
          path: 'guide/README.md',
          title: 'Guide',
          document: { markdown: 'Back [home](../README.md), [top](/README.md).' },
        },
        {
          operation: 'insert_page',
          ref: 'setup',
          into: 'guide',
          path: 'guide/setup.md',
          title: 'Setup',
          document: { markdown: '![logo](../.gitbook/assets/logo.png) [gone](missing.md) [web](https://example.com) [esc](../../x.md)' },
        },
      ],
      ctx(),
    );
    const byRef = (ref: string) =>
      result.documents.get(locate(result.tree, result.outcomes.find((o) => o.ref === ref)!.page)!.node.document!)!;
    const ids = Object.fromEntries(result.outcomes.map((o) => [o.ref, o.page]));
    const file = result.insertedFiles[0].id;
    expect(linksOf(byRef('home'))).toEqual([
      { kind: 'page', page: ids.setup, anchor: 'step-2' },
      { kind: 'page', page: ids.guide },
    ]);
    expect(linksOf(byRef('guide'))).toEqual([
      { kind: 'page', page: ids.home },
      { kind: 'page', page: ids.home },
    ]);
    expect(linksOf(byRef('setup'))).toEqual([
      { kind: 'file', file },
      { kind: 'url', url: 'missing.md' },
      { kind: 'url', url: 'https://example.com' },
      { kind: 'url', url: '../../x.md' },
    ]);
  });

  it('refuses a path outside the repository, one that is not markdown, and a path used twice', () => {
    const page = (path: string) => ({ operation: 'insert_page' as const, title: 'x', path, document: {} });
    expect(() => applyChanges([], [page('../etc/passwd.md')], ctx())).toThrow(/inside the repository/);
    expect(() => applyChanges([], [page('a.txt')], ctx())).toThrow(/markdown file/);
    expect(() => applyChanges([], [page('a.md'), page('./a.md')], ctx())).toThrow(/used twice/);
  });
});

describe('a space written back as a GitBook repository, and read again', () => {
  /** Imports a repository the way RepositoryImport does (assets as files whose ref is their path), purely. */
  const load = (files: RepositoryFiles) => {
    const repo = readGitbookRepository(files);
    let n = 0;
    const assets = repo.assets.map((path) => ({ ref: path, name: path.split('/').pop()!, contentType: 'image/png', size: 1, hash: path }));
    const { changes } = repositoryPageChanges(repo);
    const result = applyChanges([], [...(assets.length ? [{ operation: 'insert_files' as const, files: assets }] : []), ...changes], {
      newId: () => `id${++n}`,
      now: '2026-01-01T00:00:00.000Z',
      trees: new Map(),
    });
    return { repo, result };
  };
  const exported = (files: RepositoryFiles) => {
    const { result } = load(files);
    return writeGitbookRepository(result.tree, (h) => result.documents.get(h) ?? null, result.files);
  };
  const asFiles = (out: ReturnType<typeof writeGitbookRepository>): RepositoryFiles => ({
    paths: () => [...out.text.keys(), ...out.assets.keys()],
    read: (p) => out.text.get(p) ?? (out.assets.has(p) ? '' : null),
  });

  it('the fluentd repository: every page, link and asset written; writing what was read back is a fixed point', () => {
    const corpus = folder(join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook'));
    const first = exported(corpus);
    const pages = [...first.text.keys()].filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md');
    expect(pages).toHaveLength(194);
    expect(first.text.get('.gitbook.yaml')).toContain('summary: SUMMARY.md');
    expect(first.assets.size).toBe(readdirSync(join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook/.gitbook/assets')).length);
    // Every relative link written points to a file of the export (read back by the markdown reader itself),
    // but those the repository itself had broken (written as they were).
    const linksIn = (text: string) => {
      const urls: string[] = [];
      markdownToDocument(text, (url) => (urls.push(url), { kind: 'url', url }));
      return urls;
    };
    const original = new Set(
      corpus
        .paths()
        .filter((p) => p.endsWith('.md'))
        .flatMap((p) => linksIn(corpus.read(p) ?? '')),
    );
    for (const [path, text] of first.text) {
      if (!path.endsWith('.md') || path === 'SUMMARY.md') continue;
      for (const url of linksIn(text).filter((u) => !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(u) && !original.has(u))) {
        const target = posix.join(posix.dirname(path), decodeURI(url.split('#')[0]));
        expect([path, url, first.text.has(target) || first.assets.has(target)]).toEqual([path, url, true]);
      }
    }
    // Read again and written again: the same files, byte for byte.
    const second = exported(asFiles(first));
    expect([...second.text.keys()].sort()).toEqual([...first.text.keys()].sort());
    for (const [path, text] of first.text) expect([path, second.text.get(path)]).toEqual([path, text]);
  });

  it('front matter, groups and nesting survive; a hint is written as GitBook writes it', () => {
    const out = exported(
      files({
        'SUMMARY.md': '# Contents\n\n* [Home](README.md)\n\n## Guides\n\n* [Setup](guide/setup.md)\n  * [More](guide/more.md)\n',
        'README.md': '---\ndescription: Start here\nhidden: true\n---\n\n# Home\n\nSee [setup](guide/setup.md#step).\n',
        'guide/setup.md': '# Setup\n\n{% hint style="warning" %}\nCareful.\n{% endhint %}\n',
        'guide/more.md': '# More\n\nBack [home](../README.md).\n',
      }),
    );
    expect(out.text.get('README.md')).toBe(
      '---\ndescription: Start here\nhidden: true\n---\n\n# Home\n\nSee [setup](guides/setup/README.md#step).\n',
    );
    expect(out.text.get('guides/setup/README.md')).toBe('# Setup\n\n{% hint style="warning" %}\nCareful.\n{% endhint %}\n');
    expect(out.text.get('guides/setup/more.md')).toBe('# More\n\nBack [home](../../README.md).\n');
    expect(out.text.get('SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Home](README.md)\n\n## Guides\n\n* [Setup](guides/setup/README.md)\n  * [More](guides/setup/more.md)\n',
    );
  });

  it('no summary entry refuses the repository: anchors, repeats, external links, entries without a link or a file, HTML headings', () => {
    const map = {
      'SUMMARY.md': [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [Install](install.md)',
        '  * [On Linux](install.md#linux)',
        '  * [Configure](configure.md)',
        '* [Install again](install.md)',
        '* [Changelog](https://example.com/changelog)',
        '* Just a title',
        '* [Gone](gone.md)',
        '* [Gone twice](gone.md)',
        '',
        '## Get started <a href="#get-started" id="get-started"></a>',
        '',
        '* [Step 2](start/quickstart.md#step-2)',
        '* [Quickstart](start/quickstart.md)',
        '  * [Step 3](start/quickstart.md#step-3)',
        '    * [Deep](start/deep.md)',
        '',
      ].join('\n'),
      'README.md': '# Welcome\n\nRead [the install](install.md#linux).\n',
      'install.md': '# Install\n\n## Linux\n\nText.\n',
      'configure.md': '# Configure\n',
      'start/quickstart.md': '# Quickstart\n\n## Step 2\n\n## Step 3\n',
      'start/deep.md': '# Deep\n',
    };
    const { repo, result } = load(files(map));
    expect(repo.missing).toEqual(['gone.md']);
    for (const said of [
      '"On Linux" points at a heading of install.md: a link page to it',
      '"Install again" lists install.md a second time: a link page to its first entry',
      '"Changelog" links to https://example.com/changelog: a link page',
      '"Just a title" has no link: a page without a file',
      '"Gone twice" lists gone.md a second time: a link page to its first entry',
      'the entries under "Step 3" follow it (a link page holds no pages)',
      'the HTML in the heading "Get started" is left out of its title; its id "get-started" is its slug',
    ])
      expect(repo.notes).toContain(`SUMMARY.md: ${said}`);
    const byTitle = new Map<string, PageTree[number]>();
    const shape = (tree: PageTree): unknown[] =>
      tree.map((p) => {
        byTitle.set(p.title, p);
        const label = `${p.type}:${p.title}:${p.slug}`;
        return p.pages.length ? { [label]: shape(p.pages) } : label;
      });
    expect(shape(result.tree)).toEqual([
      'document:Welcome:welcome',
      { 'document:Install:install': ['link:On Linux:on-linux', 'document:Configure:configure'] },
      'link:Install again:install-again',
      'link:Changelog:changelog',
      'document:Just a title:just-a-title',
      'document:Gone:gone',
      'link:Gone twice:gone-twice',
      {
        'group:Get started:get-started': [
          'link:Step 2:step-2',
          { 'document:Quickstart:quickstart': ['link:Step 3:step-3', 'document:Deep:deep'] },
        ],
      },
    ]);
    const id = (title: string) => byTitle.get(title)!.id;
    expect(byTitle.get('On Linux')!.target).toEqual({ kind: 'page', page: id('Install'), anchor: 'linux' });
    expect(byTitle.get('Install again')!.target).toEqual({ kind: 'page', page: id('Install') });
    expect(byTitle.get('Changelog')!.target).toEqual({ kind: 'url', url: 'https://example.com/changelog' });
    expect(byTitle.get('Gone twice')!.target).toEqual({ kind: 'page', page: id('Gone') });
    expect(byTitle.get('Step 2')!.target).toEqual({ kind: 'page', page: id('Quickstart'), anchor: 'step-2' });
    expect(byTitle.get('Just a title')!.document).toBeNull();
    // Written back: the summary links each link page to its target; read again, the same tree.
    const out = writeGitbookRepository(result.tree, (h) => result.documents.get(h) ?? null, result.files);
    const summary = out.text.get('SUMMARY.md')!;
    for (const line of [
      '* [Install](install/README.md)',
      '  * [On Linux](install/README.md#linux)',
      '* [Install again](install/README.md)',
      '* [Changelog](https://example.com/changelog)',
      '* [Just a title](just-a-title.md)', // without kept sources, every page gets a file
      '## Get started',
      '* [Step 2](get-started/quickstart/README.md#step-2)',
      '  * [Step 3](get-started/quickstart/README.md#step-3)',
      '  * [Deep](get-started/quickstart/deep.md)',
    ])
      expect(summary.split('\n')).toContain(line);
    const again = load(asFiles(out));
    expect(shape(again.result.tree).map((x) => JSON.stringify(x).replace(/:[a-z0-9-]+"/g, '"'))).toEqual(
      shape(result.tree).map((x) => JSON.stringify(x).replace(/:[a-z0-9-]+"/g, '"')),
    );
    const written = writeGitbookRepository(again.result.tree, (h) => again.result.documents.get(h) ?? null, again.result.files);
    expect(written.text.get('SUMMARY.md')).toBe(summary);
  });

  describe('with the sources an import kept', () => {
    const repoFiles = files({
      'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\n',
      'docs/content/toc.md': '# Contents\n\n- [Intro](intro.md)\n- [Setup](guide/setup.md)\n  - [Deep](guide/deep.md)\n- Placeholder\n',
      'docs/content/intro.md':
        '---\nicon: rocket\nlayout: wide\n---\n\n# Intro\n\nSee   [setup](guide/setup.md)\nand ![logo](../.gitbook/assets/logo.png).\n\n+ plus list\n+ item with *emphasis*\n',
      'docs/content/guide/setup.md': '# Setup\n\nSteps   with   spaces\nand a soft break.\n',
      'docs/content/guide/deep.md': '# Deep\n\nBack to [intro](../intro.md).\n',
      'docs/.gitbook/assets/logo.png': '',
    });
    const imported = () => {
      const repo = readGitbookRepository(repoFiles, { projectDirectory: 'docs' });
      let n = 0;
      const assets = repo.assets.map((path) => ({
        ref: path,
        name: path.split('/').pop()!,
        contentType: 'image/png',
        size: 1,
        hash: path,
      }));
      const { changes } = repositoryPageChanges(repo);
      const ctx = () => ({ newId: () => `id${++n}`, now: '2026-01-01T00:00:00.000Z', trees: new Map() });
      const result = applyChanges([], [{ operation: 'insert_files' as const, files: assets }, ...changes], ctx());
      const pageIds = new Map(result.outcomes.map((o) => [o.ref!, o.page]));
      const fileIds = new Map(assets.map((a, i) => [a.ref, result.insertedFiles[i].id]));
      const sources = repositorySources(repo, changes, result.tree, pageIds, fileIds);
      const documents = new Map(result.documents);
      const write = (tree = result.tree) => writeGitbookRepository(tree, (h) => documents.get(h) ?? null, result.files, sources);
      const edit = (change: Parameters<typeof applyChanges>[1][number], tree = result.tree) => {
        const next = applyChanges(tree, [change], ctx());
        for (const [h, d] of next.documents) documents.set(h, d);
        return next.tree;
      };
      const id = (title: string) => [...pageIds.values()].find((i) => locate(result.tree, i)?.node.title === title)!;
      return { sources, write, edit, id };
    };

    it('nothing changed: every file as it was read, at its path (relative to the project), the summary and configuration too', () => {
      const { write } = imported();
      const out = write();
      for (const path of ['content/toc.md', 'content/intro.md', 'content/guide/setup.md', 'content/guide/deep.md'])
        expect([path, out.text.get(path)]).toEqual([path, repoFiles.read(`docs/${path}`)]);
      expect(out.text.get('.gitbook.yaml')).toBe(repoFiles.read('docs/.gitbook.yaml'));
      expect([...out.assets.keys()]).toEqual(['.gitbook/assets/logo.png']);
      // The summary's entry without a link stays one: no file is made for it.
      expect(out.text.size).toBe(5);
      expect(out.verbatim).toBe(3);
    });

    it('a changed page: written anew at its path, in the repository’s style, its unknown front matter kept; the rest stays', () => {
      const { write, edit, id } = imported();
      const tree = edit({
        operation: 'update_page',
        page: id('Intro'),
        document: { markdown: '# Intro\n\nNow:\n\n- [setup](/pages/' + id('Setup') + ')\n- _changed_\n' },
      });
      const out = write(tree);
      expect(out.text.get('content/intro.md')).toBe(
        '---\nicon: rocket\nlayout: wide\n---\n\n# Intro\n\nNow:\n\n+ [setup](guide/setup.md)\n+ *changed*\n',
      );
      expect(out.text.get('content/guide/deep.md')).toBe(repoFiles.read('docs/content/guide/deep.md'));
      expect(out.text.get('content/toc.md')).toBe(repoFiles.read('docs/content/toc.md'));
      expect(out.verbatim).toBe(2);
    });

    it('a changed tree: the summary written anew in the repository’s style; a new page beside its parent, under the root', () => {
      const { write, edit, id } = imported();
      let tree = edit({ operation: 'insert_page', into: id('Setup'), title: 'New page', document: { markdown: 'Fresh.' } });
      tree = edit({ operation: 'delete_page', page: id('Deep') }, tree);
      const out = write(tree);
      expect(out.text.get('content/toc.md')).toBe(
        '# Table of contents\n\n+ [Intro](intro.md)\n+ [Setup](guide/setup.md)\n  + [New page](guide/setup/new-page.md)\n+ Placeholder\n',
      );
      expect(out.text.get('content/guide/setup/new-page.md')).toBe('# New page\n\nFresh.\n');
      expect(out.text.has('content/guide/deep.md')).toBe(false);
      expect(out.text.get('content/intro.md')).toBe(repoFiles.read('docs/content/intro.md'));
      // Read back: the same tree.
      const again = readGitbookRepository(asFiles(out));
      expect(outline(again.pages)).toEqual(['Intro', { Setup: ['New page'] }, 'Placeholder']);
    });

    it('a page whose link target is gone is written anew (its link would point nowhere)', () => {
      const { write, edit, id } = imported();
      const out = write(edit({ operation: 'delete_page', page: id('Intro') }));
      expect(out.text.get('content/guide/deep.md')).toBe('# Deep\n\nBack to [intro]().\n');
      expect(out.text.get('content/guide/setup.md')).toBe(repoFiles.read('docs/content/guide/setup.md'));
    });
  });
});

describe('a repository imported again into the space it came from', () => {
  let n = 0;
  const ctx = (repository?: { pages: Map<string, string>; files: Map<string, string> }) => ({
    newId: () => `id${++n}`,
    now: '2026-01-01T00:00:00.000Z',
    trees: new Map(),
    ...(repository ? { repository } : {}),
  });
  /** Imports `map` into a space holding `tree` (kept sources `sources`), as RepositoryImport does. */
  const importInto = (map: Record<string, string>, tree: PageTree, sources: RepositorySources | null) => {
    const repo = readGitbookRepository(files(map));
    const { changes } = repositoryPageChanges(repo, { tree, sources });
    const kept = new Map([...(sources?.pages ?? [])].flatMap(([id, p]) => (p.path ? [[p.path, id] as [string, string]] : [])));
    const result = applyChanges(tree, changes, ctx({ pages: kept, files: new Map() }));
    const pageIds = new Map(result.outcomes.filter((o) => o.ref).map((o) => [o.ref!, o.page]));
    return { changes, result, sources: repositorySources(repo, changes, result.tree, pageIds, new Map(), sources) };
  };
  const paths = (tree: PageTree, sources: RepositorySources): unknown[] =>
    tree.map((p) => {
      const path = sources.pages.get(p.id)?.path ?? p.title;
      return p.pages.length ? { [path]: paths(p.pages, sources) } : path;
    });
  const summaryOf = (entries: unknown[], depth = 0): string =>
    entries
      .map((e) =>
        typeof e === 'string'
          ? `${'  '.repeat(depth)}* [${e}](${e})\n`
          : Object.entries(e as Record<string, unknown[]>)
              .map(([k, v]) => `${'  '.repeat(depth)}* [${k}](${k})\n${summaryOf(v, depth + 1)}`)
              .join(''),
      )
      .join('');

  it('pages keep their ids: a changed file updates its page, a moved entry moves it, a new file adds one, a gone one deletes', () => {
    const first = importInto(
      {
        'SUMMARY.md': summaryOf(['a.md', { 'b.md': ['c.md', 'd.md'] }, 'e.md']),
        'a.md': '# A\n\nSee [d](d.md).\n',
        'b.md': '# B\n',
        'c.md': '# C\n',
        'd.md': '# D\n',
        'e.md': '# E\n',
      },
      [],
      null,
    );
    const idOf = (path: string) => [...first.sources.pages].find(([, p]) => p.path === path)![0];
    const second = importInto(
      {
        'SUMMARY.md': summaryOf([{ 'b.md': ['d.md', 'f.md'] }, 'a.md', 'c.md']),
        'a.md': '# A\n\nSee [d](d.md) and [f](f.md).\n',
        'b.md': '# B\n',
        'c.md': '# C\n',
        'd.md': '# D\n',
        'f.md': '# F\n',
      },
      first.result.tree,
      first.sources,
    );
    expect(paths(second.result.tree, second.sources)).toEqual([{ 'b.md': ['d.md', 'f.md'] }, 'a.md', 'c.md']);
    // Only what changed is written: a's file, the moves, f inserted, e deleted; b's and d's bodies untouched.
    const touched = second.changes.map(
      (c) =>
        `${c.operation}:${'page' in c ? [...first.sources.pages].find(([id]) => id === c.page)?.[1].path : (c as { path?: string }).path}`,
    );
    expect(touched.sort()).toEqual(
      ['delete_page:e.md', 'insert_page:f.md', 'update_page:a.md', 'update_page:b.md', 'update_page:c.md', 'update_page:d.md'].sort(),
    );
    expect(second.changes.find((c) => c.operation === 'update_page' && c.page === idOf('b.md'))).not.toHaveProperty('document');
    for (const path of ['a.md', 'b.md', 'c.md', 'd.md']) expect(locate(second.result.tree, idOf(path))).not.toBeNull();
    // a's links reach d (untouched by the batch) and f (new in it).
    const a = second.result.documents.get(locate(second.result.tree, idOf('a.md'))!.node.document!)!;
    const f = [...second.sources.pages].find(([, p]) => p.path === 'f.md')![0];
    expect(JSON.stringify(a)).toContain(`"page":"${idOf('d.md')}"`);
    expect(JSON.stringify(a)).toContain(`"page":"${f}"`);
    // Imported again unchanged: nothing to do.
    const third = importInto(
      {
        'SUMMARY.md': summaryOf([{ 'b.md': ['d.md', 'f.md'] }, 'a.md', 'c.md']),
        'a.md': '# A\n\nSee [d](d.md) and [f](f.md).\n',
        'b.md': '# B\n',
        'c.md': '# C\n',
        'd.md': '# D\n',
        'f.md': '# F\n',
      },
      second.result.tree,
      second.sources,
    );
    expect(third.changes).toEqual([]);
  });

  it('link pages imported again: unchanged, nothing is written; a new target updates the same page', () => {
    const map = (anchor: string) => ({
      'SUMMARY.md': `* [Install](install.md)\n  * [Linux](install.md#${anchor})\n* [Site](https://example.com/)\n`,
      'install.md': '# Install\n',
    });
    const first = importInto(map('linux'), [], null);
    const link = first.result.tree[0].pages[0];
    expect(link).toMatchObject({ type: 'link', target: { kind: 'page', page: first.result.tree[0].id, anchor: 'linux' } });
    const same = importInto(map('linux'), first.result.tree, first.sources);
    expect(same.changes).toEqual([]);
    const moved = importInto(map('mac'), first.result.tree, first.sources);
    expect(moved.changes).toEqual([{ operation: 'update_page', page: link.id, link: '/install.md#mac' }]);
    expect(moved.result.tree[0].pages[0]).toMatchObject({
      id: link.id,
      target: { kind: 'page', page: first.result.tree[0].id, anchor: 'mac' },
    });
  });

  it('any reshuffle of a tree (200 random ones) ends as the repository’s tree, every kept path on its old page', () => {
    let seed = 7;
    const rand = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    type Entry = string | Record<string, Entry[]>;
    const randomTree = (names: string[], depth: number): Entry[] => {
      const out: Entry[] = [];
      while (names.length && rand(5) > 0) {
        const name = names.shift()!;
        const children = depth < 3 && rand(3) === 0 ? randomTree(names, depth + 1) : [];
        out.push(children.length ? { [name]: children } : name);
      }
      return out;
    };
    const flatNames = (entries: Entry[]): string[] =>
      entries.flatMap((e) => (typeof e === 'string' ? [e] : Object.entries(e).flatMap(([k, v]) => [k, ...flatNames(v)])));
    const repoOf = (entries: Entry[]) =>
      Object.fromEntries([['SUMMARY.md', summaryOf(entries)], ...flatNames(entries).map((p) => [p, `# ${p}\n`])]);
    for (let round = 0; round < 200; round++) {
      const pool = Array.from({ length: 12 }, (_, i) => `p${i}.md`);
      const before = randomTree(
        [...pool].sort(() => rand(3) - 1),
        0,
      );
      const after = randomTree(
        [...pool].sort(() => rand(3) - 1),
        0,
      );
      const first = importInto(repoOf(before), [], null);
      const second = importInto(repoOf(after), first.result.tree, first.sources);
      expect(paths(second.result.tree, second.sources)).toEqual(after);
      for (const [id, source] of first.sources.pages)
        if (flatNames(after).includes(source.path!))
          expect([source.path, second.sources.pages.get(id)?.path]).toEqual([source.path, source.path]);
    }
  });

  it('reusable contents: .gitbook/includes/ files and the {% include %} tags that name them, both ways', () => {
    const map: Record<string, string> = {
      'SUMMARY.md': '* [Home](README.md)\n* [Setup](guide/setup.md)\n',
      'README.md': '# Home\n\n{% include ".gitbook/includes/warning.md" %}\n',
      'guide/setup.md': '# Setup\n\nFirst:\n\n{% include "../.gitbook/includes/warning.md" %}\n\nThen [home](../README.md).\n',
      '.gitbook/includes/warning.md': '---\ntitle: Careful\n---\n\n{% hint style="warning" %}\nBack up   first.\n{% endhint %}\n',
    };
    const repo = readGitbookRepository(files(map));
    expect(repo.includes).toEqual([
      { path: '.gitbook/includes/warning.md', title: 'Careful', markdown: map['.gitbook/includes/warning.md'] },
    ]);
    const { changes } = repositoryPageChanges(repo, { tree: [], sources: null, reusable: [] });
    const result = applyChanges([], changes, ctx());
    expect(result.reusableContents).toEqual([
      { id: expect.any(String), title: 'Careful', document: expect.any(String), path: '.gitbook/includes/warning.md' },
    ]);
    const id = result.reusableContents[0].id;
    const included = (hash: string | null) => JSON.stringify(result.documents.get(hash!));
    for (const page of result.tree)
      expect(included(page.document)).toContain(`"ref":{"kind":"reusable-content","reusableContent":"${id}"}`);
    expect(JSON.stringify(result.documents.get(result.reusableContents[0].document!))).toContain('"type":"hint"');
    // Kept sources: written back byte for byte; the include tags relative to each page.
    const pageIds = new Map(result.outcomes.map((o) => [o.ref!, o.page]));
    const sources = repositorySources(repo, changes, result.tree, pageIds, new Map(), null, result.reusableContents);
    const documentOf = (h: string) => result.documents.get(h) ?? null;
    const kept = writeGitbookRepository(result.tree, documentOf, [], sources, result.reusableContents);
    for (const [path, text] of Object.entries(map)) expect([path, kept.text.get(path)]).toEqual([path, text]);
    // Without them (a space made in Quire): the include file with its title as front matter, tags relative.
    const fresh = writeGitbookRepository(result.tree, documentOf, [], undefined, result.reusableContents);
    expect(fresh.text.get('.gitbook/includes/careful.md')).toBe(
      '---\ntitle: Careful\n---\n\n{% hint style="warning" %}\nBack up   first.\n{% endhint %}\n',
    );
    expect(fresh.text.get('setup.md')).toContain('{% include ".gitbook/includes/careful.md" %}');
    // Read again: a fixed point.
    const again = readGitbookRepository({ paths: () => [...fresh.text.keys()], read: (p) => fresh.text.get(p) ?? null });
    const second = applyChanges([], repositoryPageChanges(again).changes, ctx());
    const written = writeGitbookRepository(second.tree, (h) => second.documents.get(h) ?? null, [], undefined, second.reusableContents);
    expect([...written.text].sort()).toEqual([...fresh.text].sort());
    // Imported again with the include edited: the same reusable content, updated; removed: deleted.
    map['.gitbook/includes/warning.md'] = '---\ntitle: Careful\n---\n\nBack up twice.\n';
    const edited = readGitbookRepository(files(map));
    const update = repositoryPageChanges(edited, { tree: result.tree, sources, reusable: result.reusableContents }).changes;
    expect(update).toEqual([expect.objectContaining({ operation: 'update_reusable_content', reusableContent: id, title: 'Careful' })]);
    delete map['.gitbook/includes/warning.md'];
    const gone = repositoryPageChanges(readGitbookRepository(files(map)), {
      tree: result.tree,
      sources,
      reusable: result.reusableContents,
    });
    expect(gone.changes.filter((c) => c.operation.endsWith('reusable_content'))).toEqual([
      { operation: 'delete_reusable_content', reusableContent: id },
    ]);
  });

  it('variables: .gitbook/vars.yaml and a page’s front matter vars; inline expressions read and written back', () => {
    const map: Record<string, string> = {
      'SUMMARY.md': '* [Home](README.md)\n',
      'README.md':
        '---\nvars:\n  product: Quire\n---\n\n# Home\n\nVersion <code class="expression">space.vars.version</code> of <code class="expression">page.vars.product</code>.\n',
      '.gitbook/vars.yaml': 'version: "2.1"\nlicense: MIT\n',
    };
    const repo = readGitbookRepository(files(map));
    expect(repo.variables).toEqual({
      path: '.gitbook/vars.yaml',
      text: map['.gitbook/vars.yaml'],
      values: { version: '2.1', license: 'MIT' },
    });
    const { changes } = repositoryPageChanges(repo, { tree: [], sources: null, reusable: [], variables: {} });
    const result = applyChanges([], changes, ctx());
    expect(result.variables).toEqual({ version: '2.1', license: 'MIT' });
    expect(result.tree[0].variables).toEqual({ product: 'Quire' });
    const body = JSON.stringify(result.documents.get(result.tree[0].document!));
    expect(body).toContain('{"object":"inline","type":"expression","key"');
    expect(body).toContain('"data":{"expression":"space.vars.version"}');
    const pageIds = new Map(result.outcomes.map((o) => [o.ref!, o.page]));
    const sources = repositorySources(repo, changes, result.tree, pageIds, new Map(), null, []);
    const documentOf = (h: string) => result.documents.get(h) ?? null;
    const kept = writeGitbookRepository(result.tree, documentOf, [], sources, [], result.variables);
    for (const [path, text] of Object.entries(map)) expect([path, kept.text.get(path)]).toEqual([path, text]);
    // Written anew: the variables as YAML, the front matter's vars, the expressions as GitBook writes them.
    const fresh = writeGitbookRepository(result.tree, documentOf, [], undefined, [], result.variables);
    expect(fresh.text.get('.gitbook/vars.yaml')).toBe('version: "2.1"\nlicense: MIT\n');
    expect(fresh.text.get('README.md')).toBe(
      '---\nvars:\n  product: Quire\n---\n\n# Home\n\nVersion <code class="expression">space.vars.version</code> of <code class="expression">page.vars.product</code>.\n',
    );
    // Imported again with a variable changed: set again; unchanged: nothing.
    expect(repositoryPageChanges(repo, { tree: result.tree, sources, reusable: [], variables: result.variables }).changes).toEqual([]);
    map['.gitbook/vars.yaml'] = 'version: "2.2"\nlicense: MIT\n';
    expect(
      repositoryPageChanges(readGitbookRepository(files(map)), { tree: result.tree, sources, reusable: [], variables: result.variables })
        .changes,
    ).toEqual([{ operation: 'set_variables', variables: { version: '2.2', license: 'MIT' } }]);
  });
});
