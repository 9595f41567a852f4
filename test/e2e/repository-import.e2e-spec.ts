import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGitbookRepository, type RepositoryPage } from '@app/content-model';
import { FileStorage } from '@app/spaces-and-content';
import { RepositoryExport, RepositoryImport, repositoryFolder, writeRepositoryFolder } from '@app/repository-sync';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { png } from '../support/png';

/**
 * Git Sync's repository format, imported (#32): the real fluentd GitBook repository into a space as one change
 * request — the summary's tree, the markdown with GitBook's tags, links between pages and to assets, assets as
 * files, missing files reported — then merged and read back.
 */
const flatPaths = (pages: RepositoryPage[]): string[] => pages.flatMap((p) => [...(p.path ? [p.path] : []), ...flatPaths(p.pages)]);

describe('importing a GitBook repository into a space', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  const corpus = repositoryFolder(join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook'));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  /** A public site showing the space, published; answers its id. */
  const publish = async (spaceId: string, title: string) => {
    const siteId = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title, visibility: 'public' }).expect(201)).body
      .id as string;
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`).set(admin.auth).expect(200);
    return siteId;
  };

  it('the fluentd docs: every page in SUMMARY order, hints, resolved links and files; merged as written', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Fluentd' }).expect(201)).body.id;
    const repo = readGitbookRepository(corpus);
    const result = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, spaceId, repo, (p) => corpus.bytes(p));
    expect(result.pages).toBe(194); // 191 linked entries and 3 without a file
    expect(result.files).toBeGreaterThan(100);
    expect(result.missing.every((p) => corpus.read(p) === null || p.startsWith('.gitbook/assets/'))).toBe(true);
    const cr = result.changeRequest!.changeRequest.id;
    const tree = (await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content`).set(admin.auth).expect(200)).body.pages as {
      title: string;
      path: string;
      pages?: unknown[];
    }[];
    expect(tree.map((p) => p.title).slice(0, 3)).toEqual(['Introduction', 'Overview', 'Installation']);
    expect(tree[1].path).toBe('quickstart');
    // A page whose markdown links to another page by a relative path holds a page reference to it.
    const page = (
      await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/path/configuration/config-file`).set(admin.auth).expect(200)
    ).body;
    const doc = JSON.stringify(page.document);
    expect(doc).toMatch(/"kind":"page","page":"[^"]+"/);
    expect(doc).not.toContain('life-of-a-fluentd-event.md');
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const md = (
      await t.http.get(`/v1/spaces/${spaceId}/content/path/configuration/config-file?format=markdown`).set(admin.auth).expect(200)
    ).body;
    expect(JSON.stringify(md)).toContain('Config File Syntax');
    // A page's hints are hint blocks; its images (../.gitbook/assets/…, percent-encoded) are the space's files.
    const parse = (await t.http.get(`/v1/spaces/${spaceId}/content/path/configuration/parse-section`).set(admin.auth).expect(200)).body;
    const hints = JSON.stringify(parse.document).match(/"data":\{"style":"(info|warning|danger|success)"\},"type":"hint"/g) ?? [];
    expect(hints.length).toBe((corpus.read('configuration/parse-section.md')!.match(/^\{% hint /gm) ?? []).length);
    const overview = JSON.stringify(
      (await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart`).set(admin.auth).expect(200)).body.document,
    );
    expect(overview).toMatch(/"ref":\{"file":"[^"]+","kind":"file"\}|"ref":\{"kind":"file","file":"[^"]+"\}/);
    expect(overview).not.toContain('.gitbook/assets');
  });

  it('exported again: the same pages and files in the same layout, into a new folder only; a non-member gets nothing', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Round trip' }).expect(201)).body.id;
    const imported = await t.app
      .get(RepositoryImport)
      .import({ userId: admin.id, tokenId: 'test' }, spaceId, readGitbookRepository(corpus), (p) => corpus.bytes(p));
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    const reader = await t.user('exporter');
    await t.member(orgId, reader, 'read');
    const out = await t.app.get(RepositoryExport).export({ userId: reader.id, tokenId: 'test' }, spaceId);
    expect([...out.text.keys()].filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md')).toHaveLength(191); // the three summary entries without a file stay without one
    expect(out.assets.size).toBe(imported.files);
    expect(out.missing).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'quire-export-'));
    try {
      expect(writeRepositoryFolder(join(dir, 'repo'), out.text, out.assets)).toBe(out.text.size + out.assets.size);
      expect(() => writeRepositoryFolder(join(dir, 'repo'), out.text, out.assets)).toThrow(/not empty/);
      const again = readGitbookRepository(repositoryFolder(join(dir, 'repo')));
      const titles = (pages: { title: string; pages: unknown[] }[]): unknown[] =>
        pages.map((p) => (p.pages.length ? [p.title, titles(p.pages as typeof pages)] : p.title));
      const tree = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.pages;
      // The same tree; its titles are the summary's, which the import kept as it was (the pages' own titles are
      // their leading headings, which may differ: "Using Linux Capabilities" is "Linux Capability" in the summary).
      const shape = (pages: { pages: unknown[] }[]): unknown[] => pages.map((p) => shape(p.pages as typeof pages));
      expect(shape(again.pages)).toEqual(shape(tree));
      expect(titles(again.pages)).toEqual(titles(readGitbookRepository(corpus).pages));
      // Missing are what was missing in the corpus already (redirects of .gitbook.yaml to files it left out), and
      // the files a redirect names that are not pages (no summary entry: not imported, so not exported).
      const original = readGitbookRepository(corpus);
      const pagePaths = new Set(flatPaths(original.pages));
      const newlyMissing = again.missing.filter((p) => !original.missing.includes(p));
      expect(newlyMissing.length).toBeLessThan(5);
      for (const p of newlyMissing) expect(corpus.read(p) !== null && !pagePaths.has(p)).toBe(true);
      expect(readFileSync(join(dir, 'repo', again.assets[0]))).toEqual(out.assets.get(again.assets[0]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const stranger = await t.user('stranger');
    await expect(t.app.get(RepositoryExport).export({ userId: stranger.id, tokenId: 'test' }, spaceId)).rejects.toThrow(/not found/);
  });

  it('exported right after the import: every page file byte-identical, the summary and .gitbook.yaml too', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Byte identical' }).expect(201)).body.id;
    const imported = await t.app
      .get(RepositoryImport)
      .import({ userId: admin.id, tokenId: 'test' }, spaceId, readGitbookRepository(corpus), (p) => corpus.bytes(p));
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    const out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    const sourcePages = corpus.paths().filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md' && out.text.has(p));
    const identical = sourcePages.filter((p) => out.text.get(p) === corpus.read(p));
    const pct = Math.round((1000 * identical.length) / sourcePages.length) / 10;
    process.stdout.write(
      `fluentd export after import: ${identical.length} of ${sourcePages.length} page files byte-identical (${pct} %)\n`,
    );
    expect(sourcePages.length).toBe(191);
    expect(pct).toBeGreaterThanOrEqual(95);
    expect(out.verbatim).toBe(identical.length);
    expect(out.text.get('SUMMARY.md')).toBe(corpus.read('SUMMARY.md'));
    expect(out.text.get('.gitbook.yaml')).toBe(corpus.read('.gitbook.yaml'));
    // The summary's entries without a file stay without one; every asset keeps its path and bytes.
    expect([...out.text.keys()].filter((p) => !corpus.read(p))).toEqual([]);
    for (const [path, bytes] of out.assets) expect(bytes.equals(corpus.bytes(path)!)).toBe(true);

    // One page edited in Quire: only it changes, at its path, in the repository's style (`*` bullets); the summary
    // stays (the tree did not change); the pages linking to it stay verbatim.
    const edited = 'quickstart/faq.md';
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Edit dummy' }).expect(201)).body
      .id;
    const page = (await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart/faq`).set(admin.auth).expect(200)).body;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'update_page', page: page.id, document: { markdown: `# ${page.title}\n\nEdited in Quire:\n\n- one\n- _two_\n` } },
        ],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const after = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    const changed = [...after.text].filter(([p, text]) => out.text.get(p) !== text).map(([p]) => p);
    expect(changed).toEqual([edited]);
    expect([...after.text.keys()].sort()).toEqual([...out.text.keys()].sort());
    const written = after.text.get(edited)!;
    expect(written).toContain('Edited in Quire:\n\n* one\n* _two_\n');
    expect(after.verbatim).toBe(out.verbatim - 1);
  });

  it('the redirects of .gitbook.yaml are the space’s redirects on its published site (301 to the page now there)', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Redirected' }).expect(201)).body.id;
    const repo = readGitbookRepository(corpus);
    const imported = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, spaceId, repo, (p) => corpus.bytes(p));
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    const siteId = await publish(spaceId, 'Fluentd');
    // Every redirect to a page of the summary answers 301 to that page; one to a file that is no page, 404.
    const pagePaths = new Set(flatPaths(repo.pages));
    const toPages = repo.redirects.filter((r) => pagePaths.has(r.destination));
    expect(toPages.length).toBeGreaterThan(20);
    for (const r of toPages.slice(0, 25)) {
      const res = await t.http.get(`/sites/${siteId}${r.source}`).redirects(0);
      expect([r.source, res.status]).toEqual([r.source, 301]);
      const target = await t.http.get(new URL(res.headers.location).pathname).expect(200);
      expect(target.text).toContain('<html');
    }
    const quickstart = await t.http.get(`/sites/${siteId}/v1.0/articles/quickstart`).redirects(0).expect(301);
    expect(new URL(quickstart.headers.location).pathname).toBe(`/sites/${siteId}/introduction`);
    await t.http.get(`/sites/${siteId}/v1.0/articles/no-such-thing`).expect(404);
  }, 60_000); // a real corpus imported, then the first renders of a new process (14 s alone; more in the whole suite)

  it('imported again after changes in the repository: only those pages change, ids kept; the export is the new repository', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Again' }).expect(201)).body.id;
    const importer = t.app.get(RepositoryImport);
    const first = await importer.import({ userId: admin.id, tokenId: 'test' }, spaceId, readGitbookRepository(corpus), (p) =>
      corpus.bytes(p),
    );
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${first.changeRequest!.changeRequest.id}/merge`).set(admin.auth).expect(200);
    const faq = (await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart/faq`).set(admin.auth).expect(200)).body;
    // The repository moves on: the FAQ is edited, the support page leaves the summary, a new page arrives.
    const summary = corpus.read('SUMMARY.md')!;
    const changed: Record<string, string> = {
      'quickstart/faq.md': corpus.read('quickstart/faq.md')!.replace(/\n$/, '\n\nOne more answer.\n'),
      'quickstart/new-page.md': '# A new page\n\nBack to the [FAQ](faq.md).\n',
      'SUMMARY.md': summary
        .replace(/^.*\(quickstart\/support\.md\)\n/m, '')
        .replace(/^(\s*\* \[.*\]\(quickstart\/faq\.md\)\n)/m, '$1  * [A new page](quickstart/new-page.md)\n'),
    };
    expect(changed['SUMMARY.md']).not.toBe(summary);
    const moved = {
      paths: () => [...corpus.paths(), 'quickstart/new-page.md'],
      read: (p: string) => changed[p] ?? corpus.read(p),
      bytes: (p: string) => (changed[p] !== undefined ? Buffer.from(changed[p]) : corpus.bytes(p)),
    };
    const second = await importer.import({ userId: admin.id, tokenId: 'test' }, spaceId, readGitbookRepository(moved), (p) =>
      moved.bytes(p),
    );
    expect(second.files).toBe(0); // every asset is the same file as before
    const crId = second.changeRequest!.changeRequest.id;
    const changes = (await t.http.get(`/v1/spaces/${spaceId}/change-requests/${crId}/changes`).set(admin.auth).expect(200)).body;
    const kinds = (changes.changes as { type: string; page: { title: string } }[]).map((c) => `${c.type} ${c.page.title}`).sort();
    expect(kinds).toEqual(['page_created A new page', 'page_deleted Support', `page_edited ${faq.title}`]);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${crId}/merge`).set(admin.auth).expect(200);
    const faqAfter = (await t.http.get(`/v1/spaces/${spaceId}/content/page/${faq.id}?format=markdown`).set(admin.auth).expect(200)).body;
    expect(faqAfter.markdown).toContain('One more answer.');
    await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart/support`).set(admin.auth).expect(404);
    const out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    expect(out.text.get('quickstart/faq.md')).toBe(changed['quickstart/faq.md']);
    expect(out.text.get('quickstart/new-page.md')).toBe(changed['quickstart/new-page.md']);
    expect(out.text.get('SUMMARY.md')).toBe(changed['SUMMARY.md']);
    expect(out.text.has('quickstart/support.md')).toBe(false);
    expect(out.verbatim).toBe(191);
    // The same repository once more: nothing to change, no change request.
    const third = await importer.import({ userId: admin.id, tokenId: 'test' }, spaceId, readGitbookRepository(moved), (p) =>
      moved.bytes(p),
    );
    expect(third.changeRequest).toBeNull();
  });

  it('reusable contents: .gitbook/includes/ become the revision’s reusable contents, shown in place on the published site', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Includes' }).expect(201)).body.id;
    const files: Record<string, string> = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Setup](guide/setup.md)\n',
      'README.md': '# Home\n\nWelcome.\n',
      'guide/setup.md': '# Setup\n\nBefore you start:\n\n{% include "../.gitbook/includes/backup.md" %}\n',
      '.gitbook/includes/backup.md':
        '---\ntitle: Back up first\n---\n\n{% hint style="warning" %}\nCopy the data folder before an upgrade.\n{% endhint %}\n',
    };
    const repo = readGitbookRepository({ paths: () => Object.keys(files), read: (p) => files[p] ?? null });
    const imported = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, spaceId, repo, () => null);
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    const current = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body;
    expect(current.reusableContents).toEqual([{ id: expect.any(String), title: 'Back up first', document: expect.any(String) }]);
    const rid = current.reusableContents[0].id as string;
    expect((await t.http.get(`/v1/spaces/${spaceId}/content/reusable-contents/${rid}`).set(admin.auth).expect(200)).body).toEqual(
      current.reusableContents[0],
    );
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/reusable-contents/nope`).set(admin.auth), 404, /Reusable content/);
    const inRevision = `/v1/spaces/${spaceId}/revisions/${current.id}/reusable-contents/${rid}`;
    expect((await t.http.get(inRevision).set(admin.auth).expect(200)).body.title).toBe('Back up first');
    expect(JSON.stringify((await t.http.get(`${inRevision}/document`).set(admin.auth).expect(200)).body)).toContain('Copy the data folder');
    const inCr = `/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/content/reusable-contents/${rid}`;
    expect((await t.http.get(inCr).set(admin.auth).expect(200)).body.title).toBe('Back up first');
    const stranger = await t.user('include-stranger');
    await t.http.get(`/v1/spaces/${spaceId}/content/reusable-contents/${rid}`).set(stranger.auth).expect(404);
    const setup = (await t.http.get(`/v1/spaces/${spaceId}/content/path/setup`).set(admin.auth).expect(200)).body;
    expect(JSON.stringify(setup.document)).toContain(`"reusableContent":"${rid}"`);
    // A later edit of a page keeps the reusable contents (the revision inherits them).
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Home' }).expect(201)).body.id;
    const home = (await t.http.get(`/v1/spaces/${spaceId}/content/path/home`).set(admin.auth).expect(200)).body;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'update_page', page: home.id, document: { markdown: '# Home\n\nWelcome back.\n' } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    expect((await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.reusableContents).toEqual(
      current.reusableContents,
    );
    // On the published site, the included content is in the page.
    const siteId = await publish(spaceId, 'Inc');
    const html = (await t.http.get(`/sites/${siteId}/setup`).expect(200)).text;
    expect(html).toContain('Copy the data folder before an upgrade.');
    expect(html).not.toContain('not available');
    // Exported: the include file as it was read, the tag as it was written.
    const out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    expect(out.text.get('.gitbook/includes/backup.md')).toBe(files['.gitbook/includes/backup.md']);
    expect(out.text.get('guide/setup.md')).toBe(files['guide/setup.md']);
  });

  it('variables: .gitbook/vars.yaml and front matter vars are the revision’s and page’s variables; expressions show their values', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Variables' }).expect(201)).body.id;
    const files: Record<string, string> = {
      'SUMMARY.md': '* [Home](README.md)\n',
      'README.md':
        '---\nicon: book-open\nvars:\n  product: Quire\n---\n\n# Home\n\nVersion <code class="expression">space.vars.version</code> of <code class="expression">page.vars.product</code>, <code class="expression">space.vars.missing</code>.\n',
      '.gitbook/vars.yaml': 'version: "2.1"\n',
    };
    const repo = readGitbookRepository({ paths: () => Object.keys(files), read: (p) => files[p] ?? null });
    const imported = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, spaceId, repo, () => null);
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    const current = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body;
    expect(current.variables).toEqual({ version: '2.1' });
    expect(current.pages[0].variables).toEqual({ product: 'Quire' });
    expect(current.pages[0].icon).toBe('book-open');
    // The official `icon` of insert_page/update_page is the same field; a value that is no string is a 400.
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const write = (change: object) =>
      t.http
        .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
        .set(admin.auth)
        .send({ changes: [change] });
    expectError(await write({ operation: 'update_page', page: current.pages[0].id, icon: 0x10 }), 400, /icon/);
    expectError(await write({ operation: 'update_page', page: current.pages[0].id, noIndex: 'yes' }), 400, /noIndex/);
    await write({ operation: 'update_page', page: current.pages[0].id, icon: 'rocket' }).expect(200);
    const changed = (await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content`).set(admin.auth).expect(200)).body;
    expect(changed.pages[0].icon).toBe('rocket');
    const siteId = await publish(spaceId, 'Vars');
    const html = (await t.http.get(`/sites/${siteId}/`).expect(200)).text;
    expect(html).toContain('Version 2.1 of Quire, <code class="expression">space.vars.missing</code>.');
    const out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    expect(out.text.get('.gitbook/vars.yaml')).toBe(files['.gitbook/vars.yaml']);
    expect(out.text.get('README.md')).toBe(files['README.md']);
  });

  it('front matter layout and cover, colour marks, prompts and spec-file OpenAPI blocks: imported, shown on the site, exported GitBook’s way', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Layout' }).expect(201)).body.id;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
    const files: Record<string, string> = {
      'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide.md)\n',
      'README.md': '# Home\n\nWelcome.\n',
      'guide.md':
        '---\nicon: rocket\ncover: .gitbook/assets/cover.png\ncoverY: 12\nlayout:\n  width: wide\n  cover:\n    visible: true\n    size: full\n  title:\n    visible: true\n  description:\n    visible: false\n  tableOfContents:\n    visible: false\n  outline:\n    visible: true\n  pagination:\n    visible: false\n  tags:\n    visible: true\n---\n\n' +
        '# Guide\n\nA <mark style="color:red;">**hot**</mark> word.\n\n' +
        '{% prompt description="Ask an assistant" openInAIProviders="true" %}\n```\nSummarize this guide.\n```\n{% endprompt %}\n\n' +
        '{% openapi src=".gitbook/assets/api.yaml" path="/pets" method="get" %}\n[api.yaml](.gitbook/assets/api.yaml)\n{% endopenapi %}\n',
      '.gitbook/assets/api.yaml': 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n',
    };
    const paths = [...Object.keys(files), '.gitbook/assets/cover.png'];
    const bytesOf = (p: string) => (p === '.gitbook/assets/cover.png' ? png : files[p] !== undefined ? Buffer.from(files[p]) : null);
    const importing = async (repoFiles: Record<string, string>) => {
      const repo = readGitbookRepository({
        paths: () => [...Object.keys(repoFiles), '.gitbook/assets/cover.png'],
        read: (p) => repoFiles[p] ?? null,
      });
      const imported = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, spaceId, repo, bytesOf);
      await t.http
        .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
        .set(admin.auth)
        .expect(200);
    };
    expect(paths).toContain('.gitbook/assets/api.yaml');
    await importing(files);
    const guide = (await t.http.get(`/v1/spaces/${spaceId}/content/path/guide`).set(admin.auth).expect(200)).body;
    const filesList = (await t.http.get(`/v1/spaces/${spaceId}/content/files`).set(admin.auth).expect(200)).body.items as {
      id: string;
      name: string;
    }[];
    const coverFile = filesList.find((f) => f.name === 'cover.png')!.id;
    const specFile = filesList.find((f) => f.name === 'api.yaml')!.id;
    expect(guide.layout).toMatchObject({
      width: 'wide',
      cover: true,
      coverSize: 'full',
      title: true,
      description: false,
      tableOfContents: false,
      outline: true,
      pagination: false,
      metadata: true,
    });
    expect(guide.cover).toEqual({ ref: { kind: 'file', file: coverFile }, yPos: 12 });
    expect(guide.icon).toBe('rocket');
    const [paragraph, prompt, swagger] = guide.document.nodes;
    expect(paragraph.nodes[0].leaves[1]).toEqual({
      object: 'leaf',
      text: 'hot',
      marks: [
        { object: 'mark', type: 'bold' },
        { object: 'mark', type: 'color', data: { text: 'red', background: 'default' } },
      ],
    });
    expect(prompt).toMatchObject({
      type: 'prompt',
      data: { description: 'Ask an assistant', openInAIProviders: true },
      nodes: [{ type: 'code' }],
    });
    expect(swagger).toMatchObject({
      type: 'swagger',
      isVoid: true,
      data: { ref: { kind: 'file', file: specFile }, path: '/pets', method: 'get' },
    });
    // The published page: the cover across the page, no sidebar, no pager, the blocks as a reader sees them.
    const siteId = await publish(spaceId, 'Layout');
    const html = (await t.http.get(`/sites/${siteId}/guide`).expect(200)).text;
    expect(html).toContain(`<img class="cover cover-full" src="http://quire.test/sites/${siteId}/~files/${spaceId}/${coverFile}" alt/>`);
    // Its cover is its preview image for link unfurls.
    expect(html).toContain(`<meta property="og:image" content="http://quire.test/sites/${siteId}/~files/${spaceId}/${coverFile}"/>`);
    expect(html).toContain('<div class="layout no-sidebar">');
    expect(html).toContain('<main id="content" class="wide">');
    expect(html).not.toContain('class="pager"');
    expect(html).toContain('<mark class="color tc-red"><strong>hot</strong></mark>');
    expect(html).toContain('<details class="prompt"><summary>Ask an assistant</summary>');
    expect(html).toContain(
      `<a href="http://quire.test/sites/${siteId}/~files/${spaceId}/${specFile}" rel="noopener noreferrer">GET /pets</a>`,
    );
    const home = (await t.http.get(`/sites/${siteId}/`).expect(200)).text;
    expect(home).toContain('<nav class="sidebar"');
    expect(home).not.toContain('class="cover');
    // Exported unchanged: byte-identical. Changed in Quire: written anew with the layout and cover GitBook's way.
    let out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    expect(out.text.get('guide.md')).toBe(files['guide.md']);
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'update_page', page: guide.id, icon: 'book' }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    const written = out.text.get('guide.md')!;
    expect(written).toContain(
      '---\nicon: book\ncover: .gitbook/assets/cover.png\ncoverY: 12\nlayout:\n  width: wide\n  cover:\n    visible: true\n    size: full\n  title:\n    visible: true\n  description:\n    visible: false\n  tableOfContents:\n    visible: false\n  outline:\n    visible: true\n  pagination:\n    visible: false\n  tags:\n    visible: true\n---\n',
    );
    expect(written).toContain('A <mark style="color:red;">**hot**</mark> word.');
    expect(written).toContain('{% prompt description="Ask an assistant" openInAIProviders="true" %}');
    expect(written).toContain(
      '{% openapi src=".gitbook/assets/api.yaml" path="/pets" method="get" %}\n[api.yaml](.gitbook/assets/api.yaml)\n{% endopenapi %}',
    );
    // Imported again without the icon, cover and layout lines: the repository says all, they go.
    await importing({ ...files, 'guide.md': '# Guide\n\nPlain now.\n' });
    const plain = (await t.http.get(`/v1/spaces/${spaceId}/content/path/guide`).set(admin.auth).expect(200)).body;
    expect(plain.icon).toBeUndefined();
    expect(plain.cover).toBeUndefined();
    expect(plain.layout).toMatchObject({ width: 'default', description: true, tableOfContents: true });
  });

  it('nothing is written when the caller may not edit the space', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Closed' }).expect(201)).body.id;
    const reader = await t.user('reader');
    await t.member(orgId, reader, 'read');
    const image = png(23, 5);
    const asset = '.gitbook/assets/diagram.png';
    const repo = readGitbookRepository({
      paths: () => ['README.md', asset],
      read: (p) => (p === 'README.md' ? '# Home\n\n![](.gitbook/assets/diagram.png)\n' : null),
    });
    expect(repo.assets).toEqual([asset]);
    await expect(
      t.app.get(RepositoryImport).import({ userId: reader.id, tokenId: 'test' }, spaceId, repo, (p) => (p === asset ? image : null)),
    ).rejects.toThrow(/edit/);
    const list = (await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).expect(200)).body;
    expect(list.items).toEqual([]);
    // The assets are stored one at a time before the batch, but only once the caller is known to be an editor.
    expect(await t.app.get(FileStorage).exists(orgId, createHash('sha256').update(image).digest('hex'))).toBe(false);
  });
});
