import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGitbookRepository, type RepositoryPage } from '@app/content-model';
import { RepositoryExport, RepositoryImport, repositoryFolder } from '@app/repository-sync';
import { createSite } from '../support/sites';
import { createTestApp, TestApp, TestUser } from '../support/app';

/**
 * A GitBook repository that uses GitBook's own constructs (#49: test/fixtures/gitbook-constructs, written the
 * way GitBook writes each block) imported whole, published, read as two visitors, and exported back unchanged.
 */
describe('a GitBook site moves to Quire and looks like itself', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let spaceId: string;
  let siteId: string;
  const repoDir = join(process.cwd(), 'test/fixtures/gitbook-constructs');
  const repoFiles = repositoryFolder(repoDir);
  let notes: string[];
  let missing: string[];
  let brokenLinks: { target: string; pages: string[] }[];
  let fluentd: string;
  let fluentdSite: string;
  const flatTitles = (pages: RepositoryPage[]): string[] => pages.flatMap((p) => [p.title, ...flatTitles(p.pages)]);

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_JOBS: 'on' }); // the organization's OpenAPI spec is processed by jobs
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Fluent' }).expect(201)).body.id;
    const imported = await t.app
      .get(RepositoryImport)
      .import({ userId: admin.id, tokenId: 'test' }, spaceId, readGitbookRepository(repoFiles), (p) => repoFiles.bytes(p));
    notes = imported.notes;
    missing = imported.missing;
    brokenLinks = imported.brokenLinks;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    // The organization's spec that the webhook and schemas blocks name (the same document as the repository's file).
    await t.http
      .put(`/v1/orgs/${orgId}/openapi/fluent`)
      .set(admin.auth)
      .send({ source: { text: readFileSync(join(repoDir, '.gitbook/assets/fluent-api.yaml'), 'utf8') } })
      .expect(201);
    for (const deadline = Date.now() + 20_000; ;) {
      const spec = (await t.http.get(`/v1/orgs/${orgId}/openapi/fluent`).set(admin.auth).expect(200)).body;
      if (spec.processingState === 'complete' && spec.lastProcessedAt) break;
      if (Date.now() > deadline) throw new Error(`fluent still ${spec.processingState}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    siteId = await createSite(t, admin, orgId, [spaceId], {
      fields: { title: 'Fluent', visibility: 'public' },
      adaptive: { unsigned: ['beta'] },
    });
  });
  afterAll(async () => t.close());

  const page = async (path: string) => (await t.http.get(`/sites/${siteId}/${path}`).expect(200)).text;

  /**
   * Every page of a published site, from its home, following each link and image of the site's origin (not
   * followed further: files, machine files): those answering 4xx, and links to raw markdown (`….md` outside a
   * page's own markdown link).
   */
  const crawl = async (site: string) => {
    const origin = 'http://quire.test';
    const root = `/sites/${site}/`;
    const seen = new Set<string>([root]);
    const queue = [root];
    const failures: string[] = [];
    const markdown: string[] = [];
    let pages = 0;
    while (queue.length) {
      const path = queue.shift()!;
      const res = await t.http.get(path);
      if (res.status >= 400) failures.push(`${res.status} ${path}`);
      if (!String(res.headers['content-type']).startsWith('text/html') || res.status !== 200) continue;
      pages += 1;
      // The page's own actions (its `.md`, assistants) are checked apart: its markdown must answer.
      const actions = /<nav class="page-actions"[\s\S]*?<\/nav>/.exec(res.text)?.[0] ?? '';
      const own = /href="([^"]+\.md)"/.exec(actions)?.[1];
      if (own && (await t.http.get(own.replace(origin, ''))).status !== 200) failures.push(`${path}: its markdown ${own}`);
      for (const m of res.text.replace(actions, '').matchAll(/\s(?:href|src)="([^"#]*)(?:#[^"]*)?"/g)) {
        const url = m[1].replace(/&amp;/g, '&');
        if (!url || url.startsWith('data:')) continue;
        const internal = url.startsWith(origin + root) || url.startsWith(root) || !/^[a-z][a-z0-9+.-]*:|^\//i.test(url);
        if (!internal) continue;
        // A link of the site to a raw markdown file (a relative `.md` link left as written) is what must not be.
        if (/\.md(\?|$)/.test(url)) markdown.push(`${path} → ${url}`);
        if (!url.startsWith(origin + root) && !url.startsWith(root)) {
          failures.push(`relative ${path} → ${url}`);
          continue;
        }
        const next = url.replace(origin, '');
        if (seen.has(next)) continue;
        seen.add(next);
        if (/\.md$/.test(next) || /\/~(files|site\.|search)|favicon/.test(next)) {
          const r = await t.http.get(next);
          if (r.status >= 400) failures.push(`${r.status} ${next}`);
          continue;
        }
        queue.push(next);
      }
    }
    return { failures, markdown, pages };
  };

  it('imports whole: SUMMARY anchors, repeats and external links are link pages; a missing file is reported, not fatal', async () => {
    expect(missing).toEqual(['guide/missing.md']);
    expect(notes).toEqual(
      expect.arrayContaining([
        'SUMMARY.md: "Install" points at a heading of getting-started.md: a link page to it',
        'SUMMARY.md: "Set up again" lists guide/setup.md a second time: a link page to its first entry',
        'SUMMARY.md: the HTML in the heading "Guides" is left out of its title; its id "guides" is its slug',
      ]),
    );
    const pages = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.pages as {
      title: string;
      type: string;
      kind: string;
      slug: string;
      target?: unknown;
      href?: string;
      pages: { title: string; type: string; target?: { kind: string; anchor?: string }; href?: string }[];
    }[];
    expect(pages.map((p) => `${p.type}:${p.title}`)).toEqual([
      'document:Welcome',
      'document:Getting started',
      'link:Changelog',
      'document:Archive',
      'group:Guides',
    ]);
    const started = pages[1];
    expect(started.pages.map((p) => [p.type, p.title, p.target?.anchor])).toEqual([
      ['link', 'Install', 'install'],
      ['link', 'Configure', 'configure'],
    ]);
    expect(started.pages[0].href).toMatch(/\/getting-started#install$/);
    expect(pages[2]).toMatchObject({
      kind: 'link',
      target: { kind: 'url', url: 'https://github.com/fluent/fluentd/blob/master/CHANGELOG.md' },
    });
    expect(pages[4]).toMatchObject({ kind: 'group', slug: 'guides' });
  });

  it('the sidebar: link pages go to their heading or URL, the group heading shows its text only', async () => {
    const html = await page('getting-started');
    expect(html).toContain(`href="http://quire.test/sites/${siteId}/getting-started#install">Install</a>`);
    expect(html).toContain('href="https://github.com/fluent/fluentd/blob/master/CHANGELOG.md">Changelog</a>');
    expect(html).not.toContain('&lt;a href=&quot;#guides');
    expect(html).not.toMatch(/<a [^>]*id="guides"/);
  });

  it('cards, buttons and icons render as such: no raw table of file names, no :name:', async () => {
    const files = (await t.http.get(`/v1/spaces/${spaceId}/content/files`).set(admin.auth).expect(200)).body.items as {
      id: string;
      name: string;
    }[];
    const file = (name: string) => files.find((f) => f.name === name)!.id;
    const html = await page('');
    expect(html).toContain('<ul class="cards cards-medium">');
    expect(html).toContain(
      `<a class="card-target" href="http://quire.test/sites/${siteId}/getting-started"><strong>Quickstart</strong></a>`,
    );
    expect(html).toContain(
      `<img class="card-cover img-light" src="http://quire.test/sites/${siteId}/~files/${spaceId}/${file('quickstart-cover.png')}"`,
    );
    expect(html).toContain(
      `<img class="card-cover img-dark" src="http://quire.test/sites/${siteId}/~files/${spaceId}/${file('quickstart-cover-dark.png')}"`,
    );
    expect(html).not.toContain('quickstart-cover.png<');
    expect(html).not.toContain('getting-started.md');
    expect(html).toMatch(
      /<a class="button button-primary button-large" href="http:\/\/quire\.test\/sites\/[^"]+\/getting-started"><svg class="icon" viewBox="0 0 512 512" aria-hidden="true" focusable="false"><path [^>]+\/><\/svg><span>Get started<\/span><\/a>/,
    );
    expect(html).toContain(
      '<a class="button button-secondary button-large" href="https://github.com/fluent/fluentd" rel="noopener noreferrer"><svg class="icon"',
    );
    expect(html).not.toContain(':bolt:');
    const whole = await page('guides/plugins');
    const plugins = whole.slice(whole.indexOf('<div class="document">'));
    // Two icons in the text, and the hint's own in its icon column (the page actions' icons are not the page's).
    const hintIcons = plugins.match(/<span class="hint-icon"><svg class="icon"[\s\S]*?<\/svg><\/span>/g) ?? [];
    expect(hintIcons).toHaveLength(1);
    expect(plugins.match(/<svg class="icon"/g)?.length).toBe(2 + hintIcons.length);
    expect(plugins).toContain(
      '<a class="button button-secondary button-large" href="https://rubygems.org/" rel="noopener noreferrer"><span>Browse RubyGems</span></a>',
    );
    // The typed table: a number and a checkbox column.
    const started = await page('getting-started');
    expect(started).toContain('<input type="checkbox" disabled checked aria-label="Required"');
  });

  it('a mermaid diagram is drawn (light and dark), an annotation, math and highlighted code lines show as such', async () => {
    const html = await page('guides/guide/setup');
    const images = [
      ...html.matchAll(/<img class="img-(light|dark)" src="data:image\/svg\+xml;base64,([^"]+)" alt="Diagram: graph LR"\/>/g),
    ];
    expect(images.map((m) => m[1])).toEqual(['light', 'dark']);
    const svg = Buffer.from(images[0][2], 'base64').toString('utf8');
    for (const label of ['in_tail', 'filter', 'out_file', 'null']) expect(svg).toContain(label);
    expect(svg).not.toContain('googleapis');
    expect(html).toContain('<dfn class="annotated" tabindex="0" aria-describedby="annotation-1">buffered</dfn>');
    expect(html).toMatch(
      /<span class="annotation-body" role="tooltip" id="annotation-1"><span class="annotation-block annotation-paragraph">In memory, or in files when <code>@type file<\/code> is set.<\/span><\/span>/,
    );
    expect(html).toContain('<span class="math-inline"><span class="katex"><math');
    // GitBook's expandable: `<details>`, a blank line, `<summary>` as its own block.
    expect(html).toContain('<details class="expandable"><summary>What is a tag?</summary><p>A tag is a dot-separated name');
    expect(html).toContain('<span class="line highlighted">  @type file\n</span>');
    expect(html).not.toContain('[^1]');
    expect(html).not.toContain('{% @mermaid');
  });

  it('API blocks: an operation of a spec file of the repository, a webhook and schemas of the organization’s spec', async () => {
    const html = await page('guides/api');
    expect(html).toContain('<h2 id="send-an-event">Send an event');
    expect(html).toContain('<code>https://fluent.example.com/api/events/{tag}</code>');
    expect(html).toContain('<h2 id="a-buffer-is-full">A buffer is full');
    expect(html).toContain('<h2 id="the-event-object">The Event object');
    expect(html).toContain('The log line.');
    expect(html).not.toContain('is not available');
    expect(html).not.toContain('{% openapi');
  });

  it('links that reach nothing are kept, reported by the import and by GET …/content/broken-links, and are text on the site', async () => {
    expect(brokenLinks).toEqual(
      expect.arrayContaining([
        { target: '../old/retired.md', pages: ['guides/guide'] },
        { target: '../.gitbook/assets/gone.png', pages: ['guides/guide'] },
      ]),
    );
    expect(brokenLinks).toHaveLength(2);
    const listed = (await t.http.get(`/v1/spaces/${spaceId}/content/broken-links`).set(admin.auth).expect(200)).body;
    expect(listed.items.every((i: { status: string }) => i.status === 'broken')).toBe(true);
    expect(listed.items.map((i: { targetReference: { url: string } }) => i.targetReference.url).sort()).toEqual([
      '../.gitbook/assets/gone.png',
      '../old/retired.md',
    ]);
    const stranger = await t.user('broken-links-stranger');
    await t.http.get(`/v1/spaces/${spaceId}/content/broken-links`).set(stranger.auth).expect(404);
    await t.http.get(`/v1/spaces/${spaceId}/content/broken-links?limit=0x10`).set(admin.auth).expect(400);
    const html = await page('guides/guide');
    expect(html).toContain('The <span>retired page</span> is gone');
    expect(html).not.toContain('retired.md');
    expect(html).not.toContain('gone.png');
    // A member's preview (urls.preview) marks it as broken, with what it named; visitors still see the text.
    const preview = (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}`).set(admin.auth).expect(200)).body.urls.preview as string;
    const cookie = String((await t.http.get(new URL(preview).pathname).expect(302)).headers['set-cookie']).split(';')[0];
    const previewed = (await t.http.get(`/sites/${siteId}/guides/guide`).set('Cookie', cookie).expect(200)).text;
    expect(previewed).toContain(
      'The <span class="broken-link" title="Broken link: ../old/retired.md">retired page<span class="visually-hidden"> (broken link)</span></span> is gone',
    );
    expect(await page('guides/guide')).toContain('The <span>retired page</span> is gone');
  });

  it('a crawler over the published site finds no link answering 4xx and none to raw markdown', async () => {
    const result = await crawl(siteId);
    expect(result).toEqual({ failures: [], markdown: [], pages: 9 }); // the 8 pages with a body, and the home
  });

  it('the fluentd repository published whole: no link answering 4xx, none to raw markdown', async () => {
    const corpus = repositoryFolder(join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook'));
    fluentd = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Fluentd' }).expect(201)).body.id;
    const imported = await t.app
      .get(RepositoryImport)
      .import({ userId: admin.id, tokenId: 'test' }, fluentd, readGitbookRepository(corpus), (p) => corpus.bytes(p));
    await t.http
      .post(`/v1/spaces/${fluentd}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`)
      .set(admin.auth)
      .expect(200);
    const site = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Fluentd', visibility: 'public' }).expect(201))
      .body.id;
    fluentdSite = site;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: fluentd }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    const result = await crawl(site);
    expect(result.pages).toBeGreaterThan(190);
    expect({ failures: result.failures, markdown: result.markdown }).toEqual({ failures: [], markdown: [] });
    // What the corpus links to and does not hold (its README: files over 400 kB left out) is reported instead.
    expect(imported.brokenLinks.length).toBeGreaterThan(0);
    expect(imported.brokenLinks.every((b) => !/^https?:/.test(b.target))).toBe(true);
  });

  it('search forgives typos: six fluentd titles with two letters swapped in each long word find their page in the top three', async () => {
    const corpus = repositoryFolder(join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook'));
    const titles = flatTitles(readGitbookRepository(corpus).pages).filter(
      (title) => /[A-Za-z]{7,}/.test(title) && title.split(' ').length >= 2,
    );
    // Two letters swapped in the middle of each word of seven letters or more ("Configuration" → "Confgiuration").
    const typo = (title: string) => title.replace(/[A-Za-z]{7,}/g, (w) => w.slice(0, 3) + w[4] + w[3] + w.slice(5));
    const top3 = async (query: string) => {
      const api = (await t.http.get(`/v1/spaces/${fluentd}/search`).query({ query }).set(admin.auth).expect(200)).body.items as {
        title: string;
      }[];
      const site = (await t.http.get(`/sites/${fluentdSite}/~search.json`).query({ q: query }).expect(200)).body.items as {
        title: string;
      }[];
      return { api: api.slice(0, 3).map((h) => h.title), site: site.slice(0, 3).map((h) => h.title) };
    };
    // The first six titles (in summary order) that the right spelling finds in the top three, on both searches.
    const chosen: string[] = [];
    for (const title of [...new Set(titles)]) {
      if (chosen.length === 6) break;
      const right = await top3(title);
      if (right.api.includes(title) && right.site.includes(title)) chosen.push(title);
    }
    expect(chosen).toHaveLength(6);
    for (const title of chosen) {
      expect(typo(title)).not.toBe(title);
      const wrong = await top3(typo(title));
      expect([typo(title), wrong.api.includes(title), wrong.site.includes(title)]).toEqual([typo(title), true, true]);
    }
    // A query in web-search syntax (here an exclusion) is taken as written: nothing is corrected in it.
    const excluding = await top3(`${typo(chosen[0])} -zzzzqq`);
    expect(excluding.api.includes(chosen[0])).toBe(false);
  });

  it('page actions: the page as markdown, open in ChatGPT or Claude (the prompt names the .md), copy; last updated', async () => {
    const html = await page('getting-started');
    const url = `http://quire.test/sites/${siteId}/getting-started`;
    // "Copy page" (the script shows it) and the menu of the others, as GitBook's.
    expect(html).toContain(
      `<nav class="page-actions" aria-label="Page actions"><div><button type="button" class="copy-page" hidden data-markdown="${url}.md">`,
    );
    const icon = '<svg class="icon"[^>]*>(?:(?!</svg>).)*</svg>';
    const link = (attrs: string, label: string) => new RegExp(`<a ${attrs.replace(/[?.]/g, '\\$&')}>${icon}${label}</a>`);
    expect(html).toMatch(link(`href="${url}.md" class="page-markdown"`, 'View as Markdown'));
    const prompt = encodeURIComponent(`Read ${url}.md so I can ask questions about it.`);
    expect(html).toMatch(link(`href="https://chatgpt.com/?hints=search&amp;q=${prompt}" rel="noopener noreferrer"`, 'Open in ChatGPT'));
    expect(html).toMatch(link(`href="https://claude.ai/new?q=${prompt}" rel="noopener noreferrer"`, 'Open in Claude'));
    // Imported from files, connected to no branch: nothing to edit on a Git host.
    expect(html).not.toContain('page-edit');
    expect(html).toMatch(
      /<p class="last-updated">Last updated <time datetime="\d{4}-\d\d-\d\dT[^"]+" title="(\d{1,2} \w+ \d{4})">\1<\/time><\/p>/,
    );
    const md = await t.http.get(`/sites/${siteId}/getting-started.md`).expect(200);
    expect(md.text).toContain('# Getting started');
  });

  it('conditional content: each visitor sees only their branch, in the page, its markdown, llms-full.txt and search', async () => {
    const visitor = (path: string, beta: boolean) =>
      t.http.get(`/sites/${siteId}/${path}${beta ? `${path.includes('?') ? '&' : '?'}visitor.beta=true` : ''}`).expect(200);
    const plain = (await visitor('getting-started', false)).text;
    const beta = (await visitor('getting-started', true)).text;
    expect(plain).toContain('Want the new buffer engine early?');
    expect(plain).not.toContain('buffer_engine v2');
    expect(plain).not.toContain('{% if');
    expect(beta).toContain('<strong>new buffer engine</strong>');
    expect(beta).toContain('Beta builds are not for production.');
    expect(beta).not.toContain('Want the new buffer engine early?');
    // Again, from the cache: still each their own.
    expect((await visitor('getting-started', false)).text).not.toContain('buffer_engine v2');
    expect((await visitor('getting-started.md', false)).text).not.toContain('buffer_engine v2');
    expect((await visitor('getting-started.md', true)).text).toContain('buffer_engine v2');
    expect((await visitor('llms-full.txt', false)).text).not.toContain('buffer_engine v2');
    expect((await visitor('llms-full.txt', true)).text).toContain('buffer_engine v2');
    expect((await visitor('llms-full.txt', false)).text).toContain('Want the new buffer engine early?');
    // Search holds no conditional content, for anyone.
    expect((await t.http.get(`/sites/${siteId}/~search.json?q=buffer_engine`).expect(200)).body.items).toEqual([]);
    expect((await t.http.get(`/sites/${siteId}/~search.json?q=engine%20early`).expect(200)).body.items).toEqual([]);
    expect((await t.http.get(`/sites/${siteId}/~search.json?q=tabs%20macOS%20brew`).expect(200)).body.items).toEqual([]);
  });

  it('exported right after the import: every file byte-identical, the summary too', async () => {
    const out = await t.app.get(RepositoryExport).export({ userId: admin.id, tokenId: 'test' }, spaceId);
    for (const path of repoFiles.paths().filter((p) => p.endsWith('.md') || p === '.gitbook.yaml')) {
      if (path === 'NOTICE') continue;
      expect([path, out.text.get(path)]).toEqual([path, repoFiles.read(path)]);
    }
    expect(out.verbatim).toBe(6);
  });
});
