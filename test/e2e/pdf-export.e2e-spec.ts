import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { png } from '../support/png';

/** Text of a PDF, as poppler's pdftotext reads it (a real PDF parser, not ours). */
const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
/** Images a PDF embeds (poppler's pdfimages). */
function pdfImages(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'quire-pdf-'));
  try {
    writeFileSync(join(dir, 'x.pdf'), pdf);
    const listing = execFileSync('pdfimages', ['-list', join(dir, 'x.pdf')]).toString('utf8');
    return listing
      .split('\n')
      .slice(2)
      .filter((l) => l.trim()).length;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('PDF exports of a change request (getChangeRequestPDF) and of a space (getSpacePDF)', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let crId: string;
  const pages: Record<string, string> = {};
  const realReadme = readFileSync(join(process.cwd(), 'libs/content-model/src/test/fixtures/real-markdown/cli-table3__README.md'), 'utf8');

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    const orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (
      await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Rewrite the guide' }).expect(201)
    ).body;
    crId = cr.id;
    const res = await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          {
            operation: 'insert_files',
            files: [{ ref: 'shot', name: 'shot.png', contentType: 'image/png', base64: png(40, 30).toString('base64') }],
          },
          {
            operation: 'insert_page',
            ref: 'start',
            title: 'Getting started',
            document: {
              markdown:
                '## Install\n\nRun the **installer** and read [the docs](https://example.com/docs).\n\n- first step\n- second step\n\n1. one\n2. two\n\n```sh\nnpm install quire\n```\n\n| Option | Meaning |\n|---|---|\n| `--fast` | Skips checks |\n\n![Screenshot](./shot)\n\n> Quoted wisdom.\n\n<details>\n<summary>More details</summary>\n\nHidden body text.\n\n</details>\n',
            },
          },
          { operation: 'insert_page', ref: 'ref', title: 'Reference', document: { markdown: 'Reference body.' } },
          {
            operation: 'insert_page',
            ref: 'deep',
            into: 'ref',
            title: 'Deep page',
            document: { markdown: 'Ünïcödé, Ελληνικά, Кириллица.' },
          },
          { operation: 'insert_page', ref: 'real', title: 'Real README', document: { markdown: realReadme } },
        ],
      })
      .expect(200);
    for (const c of res.body.changes as { object: string; ref: string; page?: { id: string } }[]) if (c.page) pages[c.ref] = c.page.id;
  });
  afterAll(async () => t.close());

  /** The PDF an export answer's URL leads to (`path`: the operation), checked as a PDF, with that URL. */
  const exportAt = async (path: string, who: TestUser = reader) => {
    const res = await t.http.get(path).set(who.auth).expect(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    const url = new URL(res.body.url as string);
    const download = await t.http
      .get(url.pathname + url.search)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(download.headers['content-type']).toMatch(/application\/pdf/);
    const pdf = download.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    return { pdf, url };
  };
  const exportPdf = (query = '', who: TestUser = reader) => exportAt(`/v1/spaces/${spaceId}/change-requests/${crId}/pdf${query}`, who);

  it('renders every page of the change request: titles, text with marks and links, lists, code, tables, images, quotes, expandables', async () => {
    const { pdf } = await exportPdf();
    const text = pdfText(pdf);
    for (const expected of [
      '#1 Rewrite the guide',
      'Getting started',
      'Install',
      'Run the installer and read the docs.',
      '• first step',
      '2. two',
      'npm install quire',
      'Option',
      'Skips checks',
      'Quoted wisdom.',
      'More details',
      'Hidden body text.',
      'Reference',
      'Deep page',
      'Ünïcödé, Ελληνικά, Кириллица.',
    ])
      expect(text).toContain(expected);
    // The real README (its leading heading is its title) survives too: prose, lists, code.
    expect(text).toContain('This utility allows you to render unicode-aided tables on the command line');
    expect(text).toContain('• Column width customization');
    expect(text).toContain("var Table = require('cli-table3');");
    expect(pdfImages(pdf)).toBeGreaterThanOrEqual(1);
    // Pages in reading order.
    expect(text.indexOf('Getting started')).toBeLessThan(text.indexOf('Deep page'));
    expect(text.indexOf('Reference body.')).toBeLessThan(text.indexOf('Ünïcödé'));
  });

  it('exports one page with its subpages, or the page alone with only=true', async () => {
    const withSubpages = pdfText((await exportPdf(`?page=${pages.ref}`)).pdf);
    expect(withSubpages).toContain('Reference body.');
    expect(withSubpages).toContain('Deep page');
    expect(withSubpages).not.toContain('Getting started');
    const alone = pdfText((await exportPdf(`?page=${pages.ref}&only=true`)).pdf);
    expect(alone).toContain('Reference body.');
    expect(alone).not.toContain('Deep page');
    expect(alone).not.toContain('Getting started');
  });

  it('serves the PDF at a signed URL that expires after an hour; refuses bad input, non-members and unknown pages', async () => {
    const { url } = await exportPdf('', admin);
    expectError(await t.http.get(url.pathname + url.search.replace(/sig=[^&]+/, 'sig=AAAA')), 404);
    t.clock.advance(61 * 60_000);
    try {
      expectError(await t.http.get(url.pathname + url.search), 404, /expired/);
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    const path = `/v1/spaces/${spaceId}/change-requests/${crId}/pdf`;
    expectError(await t.http.get(`${path}?only=true`).set(reader.auth), 400, /page/);
    expectError(await t.http.get(`${path}?only=yes&page=${pages.ref}`).set(reader.auth), 400, /only/);
    expectError(await t.http.get(`${path}?page=nopage`).set(reader.auth), 404, /Page/);
    expectError(await t.http.get(path).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/change-requests/999/pdf`).set(reader.auth), 404, /Change request/);
  });

  it('exports the space’s current content as PDF (getSpacePDF): all of it, a page with its subpages, a page alone; the official client reads it', async () => {
    const space = (query = '', who: TestUser = reader) => t.http.get(`/v1/spaces/${spaceId}/pdf${query}`).set(who.auth);
    const text = async (query = '') => pdfText((await exportAt(`/v1/spaces/${spaceId}/pdf${query}`)).pdf);
    // Before the merge the space is empty: the PDF has its title alone.
    const empty = await text();
    expect(empty).toContain('Handbook');
    expect(empty).not.toContain('Getting started');
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${crId}/merge`).set(admin.auth).expect(200);
    const all = await text();
    for (const title of ['Handbook', 'Getting started', 'Reference', 'Deep page', 'This utility allows you to render'])
      expect(all).toContain(title);
    expect(all).not.toContain('Rewrite the guide');
    const branch = await text(`?page=${pages.ref}`);
    expect(branch).toContain('Deep page');
    expect(branch).not.toContain('Getting started');
    const alone = await text(`?page=${pages.ref}&only=true`);
    expect(alone).toContain('Reference body.');
    expect(alone).not.toContain('Deep page');
    expectError(await space('?only=true'), 400, /page/);
    expectError(await space('?page=nopage'), 404, /Page/);
    expectError(await space('', outsider), 404);
    expectError(await t.http.get(`/v1/spaces/nosuchspace/pdf`).set(reader.auth), 404);
    const { port } = t.app.getHttpServer().address() as { port: number };
    const api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: reader.token });
    const official = await api.spaces.getSpacePdf(spaceId, { page: pages.start, only: true });
    expect(official.status).toBe(200);
    expect(Object.keys(official.data)).toEqual(['url']);
    expect(official.data.url).toMatch(/^https?:\/\//);
  });
});
