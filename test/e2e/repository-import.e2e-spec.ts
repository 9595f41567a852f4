import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGitbookRepository } from '@app/content-model';
import { RepositoryImport } from '@app/review-and-comments';
import { RepositoryExport } from '@app/spaces-and-content';
import { repositoryFolder, writeRepositoryFolder } from '../../apps/api/src/repository-folder';
import { createTestApp, TestApp, TestUser } from '../support/app';

/**
 * Git Sync's repository format, imported (#32): the real fluentd GitBook repository into a space as one change
 * request — the summary's tree, the markdown with GitBook's tags, links between pages and to assets, assets as
 * files, missing files reported — then merged and read back.
 */
describe('importing a GitBook repository into a space', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  const corpus = repositoryFolder(join(process.cwd(), '../shared/corpora/fluentd-docs-gitbook'));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  it('the fluentd docs: every page in SUMMARY order, hints, resolved links and files; merged as written', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Fluentd' }).expect(201)).body.id;
    const repo = readGitbookRepository(corpus);
    const result = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, spaceId, repo, (p) => corpus.bytes(p));
    expect(result.pages).toBe(194); // 191 linked entries and 3 without a file
    expect(result.files).toBeGreaterThan(100);
    expect(result.missing.every((p) => corpus.read(p) === null || p.startsWith('.gitbook/assets/'))).toBe(true);
    const cr = result.changeRequest.changeRequest.id;
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
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${imported.changeRequest.changeRequest.id}/merge`).set(admin.auth).expect(200);
    const reader = await t.user('exporter');
    await t.member(orgId, reader, 'read');
    const out = await t.app.get(RepositoryExport).export({ userId: reader.id, tokenId: 'test' }, spaceId);
    expect([...out.text.keys()].filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md')).toHaveLength(194);
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
      expect(titles(again.pages)).toEqual(titles(tree));
      expect(again.missing).toEqual([]);
      expect(readFileSync(join(dir, 'repo', again.assets[0]))).toEqual(out.assets.get(again.assets[0]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const stranger = await t.user('stranger');
    await expect(t.app.get(RepositoryExport).export({ userId: stranger.id, tokenId: 'test' }, spaceId)).rejects.toThrow(/not found/);
  });

  it('nothing is written when the caller may not edit the space', async () => {
    const spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Closed' }).expect(201)).body.id;
    const reader = await t.user('reader');
    await t.member(orgId, reader, 'read');
    const repo = readGitbookRepository({ paths: () => ['README.md'], read: (p) => (p === 'README.md' ? '# Home\n' : null) });
    await expect(t.app.get(RepositoryImport).import({ userId: reader.id, tokenId: 'test' }, spaceId, repo, () => null)).rejects.toThrow(
      /edit/,
    );
    const list = (await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).expect(200)).body;
    expect(list.items).toEqual([]);
  });
});
