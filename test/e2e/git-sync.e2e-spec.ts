import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Db } from '@app/persistence';
import { GitSyncPoller, GitSyncRunner, GitSyncService } from '@app/repository-sync';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { GIT_PASSWORD, startGitServer, type GitServer } from '../support/git-server';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Git Sync against a real Git server on loopback (`git http-backend` behind Basic authentication, push
 * enabled): the official import/export/info operations as background jobs, the fluentd corpus from a real
 * repository, pushes after merges with the merger as author, pushes from the remote back in, both sides moving
 * at once, wrong credentials, a restart in the middle of an operation, and refused input.
 */
describe('Git Sync with a remote repository', () => {
  let t: TestApp;
  let git: GitServer;
  let admin: TestUser;
  let editor: TestUser;
  let orgId: string;
  let seeded: string;
  const corpus = join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook');
  const MAIN = 'refs/heads/main';
  /** One key for every process of the deployment (each test app has its own data dir, and so its own key file). */
  const SECRET_KEY = 'ab'.repeat(32);

  beforeAll(async () => {
    git = await startGitServer();
    seeded = git.seed('fluentd', corpus, 'Fluentd docs as of today');
    t = await createTestApp({
      QUIRE_JOBS: 'on',
      QUIRE_GIT_URL_ALLOWLIST: '127.0.0.1',
      QUIRE_SECRET_KEY: SECRET_KEY,
      // The loopback Git server stands for a Gitea: its pages are where published pages are edited.
      QUIRE_GIT_HOSTS: '127.0.0.1=gitea',
    });
    admin = await t.user('admin');
    editor = await t.user('edith');
    orgId = await t.organization(admin);
    await t.member(orgId, editor, 'edit');
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await git.close();
  });

  const space = async (title: string) =>
    (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
  /** Waits until the space's latest operation is over; answers git/info. */
  const settled = async (spaceId: string, count?: () => Promise<boolean>) => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const info = await t.http.get(`/v1/spaces/${spaceId}/git/info`).set(admin.auth);
      if (info.status === 200 && info.body.operation?.state !== 'running' && (!count || (await count()))) return info.body;
      if (Date.now() > deadline) throw new Error(`Git Sync of ${spaceId} did not settle: ${JSON.stringify(info.body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const head = () => git.bare('fluentd', 'rev-parse', 'refs/heads/main');
  const head2 = (name: string) => git.bare(name, 'rev-parse', 'refs/heads/main');

  it('imports the repository in the background: every page, the commit on the revision; then stays connected', async () => {
    const spaceId = await space('Fluentd');
    await t.http.get(`/v1/spaces/${spaceId}/git/info`).set(admin.auth).expect(404);
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('fluentd'), ref: MAIN })
      .expect(204);
    const info = await settled(spaceId);
    expect(info).toMatchObject({
      installationId: `git-${spaceId}`,
      installationProvider: 'github',
      installationStatus: 'active',
      repoName: 'fluentd',
      url: git.url('fluentd'),
      ref: MAIN,
      operation: { state: 'success', direction: 'import' },
    });
    expect(info.repoProjectDirectory).toBeUndefined();
    expect(JSON.stringify(info)).not.toContain(GIT_PASSWORD);
    // Every field git/info returns is described by the document Quire serves (every object closed).
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', `/v1/spaces/${spaceId}/git/info`, 200, info)).toEqual([]);
    const s = (await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body;
    const revision = (await t.http.get(`/v1/spaces/${spaceId}/revisions/${s.revision}`).set(admin.auth).expect(200)).body;
    expect(revision.git).toEqual({ oid: seeded, message: 'Fluentd docs as of today', createdByGitBook: false, ref: MAIN });
    expect(revision.pages.map((p: { title: string }) => p.title).slice(0, 3)).toEqual(['Introduction', 'Overview', 'Installation']);
    // The credentials are sealed at rest: the password is in no row.
    const rows = JSON.stringify(await t.app.get(Db).query('SELECT * FROM git_sync'));
    expect(rows).not.toContain(GIT_PASSWORD);
    const ops = JSON.stringify(await t.app.get(Db).query('SELECT url, credentials FROM git_sync_operations'));
    expect(ops).not.toContain(GIT_PASSWORD);

    // Importing the same commit again changes nothing.
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('fluentd'), ref: MAIN })
      .expect(204);
    await settled(spaceId);
    expect((await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body.revision).toBe(s.revision);

    // An edit merged in Quire is committed and pushed: the merger is the author, the subject the message, the
    // edited page's file the only one changed.
    const before = head();
    const cr = (
      await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(editor.auth).send({ subject: 'Clarify the FAQ' }).expect(201)
    ).body.id;
    const faq = (await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart/faq`).set(admin.auth).expect(200)).body;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(editor.auth)
      .send({ changes: [{ operation: 'update_page', page: faq.id, document: { markdown: `# ${faq.title}\n\nAnswered in Quire.\n` } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(editor.auth).expect(200);
    await settled(spaceId, async () => head() !== before);
    expect(git.bare('fluentd', 'log', '-1', '--format=%an|%ae|%s')).toBe(`edith|${editor.email}|Clarify the FAQ`);
    expect(git.bare('fluentd', 'show', '--name-only', '--format=', 'HEAD').split('\n')).toEqual(['quickstart/faq.md']);
    expect(git.bare('fluentd', 'show', 'HEAD:quickstart/faq.md')).toContain('Answered in Quire.');

    // A push to the remote comes back in as a revision carrying its commit.
    const pushed = git.commit(
      'fluentd',
      (dir) =>
        writeFileSync(join(dir, 'quickstart/support.md'), readFileSync(join(dir, 'quickstart/support.md'), 'utf8') + '\nWritten in Git.\n'),
      'Support: one more line',
    );
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.url('fluentd'), ref: MAIN })
      .expect(204);
    expect((await settled(spaceId)).operation).toMatchObject({ state: 'success', direction: 'import' });
    const after = (await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body;
    const latest = (await t.http.get(`/v1/spaces/${spaceId}/revisions/${after.revision}`).set(admin.auth).expect(200)).body;
    expect(latest.git).toMatchObject({ oid: pushed, message: 'Support: one more line' });
    const support = (await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart/support?format=markdown`).set(admin.auth).expect(200))
      .body;
    expect(support.markdown).toContain('Written in Git.');
    // The import's merge is not pushed back.
    expect(head()).toBe(pushed);

    // Both sides move: the remote gets a commit, and a Quire merge tries to push. The push is refused (nothing of
    // the remote is overwritten), the remote's side comes in as an open change request; nothing is lost.
    const remoteSide = git.commit(
      'fluentd',
      (dir) => writeFileSync(join(dir, 'quickstart/logo.md'), readFileSync(join(dir, 'quickstart/logo.md'), 'utf8') + '\nA remote edit.\n'),
      'Logo: a remote edit',
    );
    const cr2 = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(editor.auth).send({ subject: 'A Quire edit' }).expect(201))
      .body.id;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr2}/content`)
      .set(editor.auth)
      .send({ changes: [{ operation: 'update_page', page: faq.id, document: { markdown: `# ${faq.title}\n\nEdited in Quire again.\n` } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr2}/merge`).set(editor.auth).expect(200);
    const open = async () =>
      (await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).expect(200)).body.items.filter((c: { subject: string }) =>
        c.subject.startsWith('Git: Logo'),
      );
    const state = await settled(spaceId, async () => (await open()).length === 1);
    expect(state.operation).toMatchObject({ state: 'failure', direction: 'import' });
    expect(state.operation.error).toMatch(/Both the space and the repository changed since the last sync: change request #\d+/);
    expect(head()).toBe(remoteSide);
    const [gitSide] = await open();
    const logo = (await t.http.get(`/v1/spaces/${spaceId}/content/path/quickstart/logo`).set(admin.auth).expect(200)).body;
    const inCr = (
      await t.http
        .get(`/v1/spaces/${spaceId}/change-requests/${gitSide.id}/content/page/${logo.id}?format=markdown`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(inCr.markdown).toContain('A remote edit.');
    const mainFaq = (await t.http.get(`/v1/spaces/${spaceId}/content/page/${faq.id}?format=markdown`).set(admin.auth).expect(200)).body;
    expect(mainFaq.markdown).toContain('Edited in Quire again.');
    // Asked again (a webhook, a poll) while it is under review: no second change request for that commit.
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.url('fluentd'), ref: MAIN })
      .expect(204);
    expect((await settled(spaceId)).operation.error).toMatch(/already holds the repository's side of commit/);
    expect(await open()).toHaveLength(1);
    // Merged (a three-way merge: the remote's page, Quire's page), the space is pushed with both.
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${gitSide.id}/merge`).set(admin.auth).expect(200);
    expect((await settled(spaceId, async () => head() !== remoteSide)).operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(git.bare('fluentd', 'rev-parse', 'HEAD^')).toBe(remoteSide);
    expect(git.bare('fluentd', 'show', 'HEAD:quickstart/logo.md')).toContain('A remote edit.');
    expect(git.bare('fluentd', 'show', 'HEAD:quickstart/faq.md')).toContain('Edited in Quire again.');
    expect(git.bare('fluentd', 'show', '--name-only', '--format=', 'HEAD').split('\n')).toEqual(['quickstart/faq.md']);
  }, 180_000);

  it('a wrong password: a clear failure in git/info, nothing written', async () => {
    const spaceId = await space('Locked out');
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('fluentd', 'wrong-password'), ref: MAIN })
      .expect(204);
    const info = await settled(spaceId);
    expect(info.installationStatus).toBe('unauthenticated');
    expect(info.operation).toMatchObject({ state: 'failure', direction: 'import' });
    expect(info.operation.error).toMatch(/refused the credentials/);
    expect((await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.pages).toEqual([]);
    expect((await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).expect(200)).body.items).toEqual([]);
  }, 60_000);

  it('a remote that redirects to another origin once it has the credentials: the other origin never receives them', async () => {
    // A: asks for Basic credentials, and answers the request that carries them with a redirect to B (another port).
    // B: records what it is sent and asks for credentials in turn.
    const seen: { authorization?: string; cookie?: string }[] = [];
    const b = createServer((req, res) => {
      seen.push({ authorization: req.headers.authorization, cookie: req.headers.cookie });
      res.writeHead(401, { 'www-authenticate': 'Basic realm="elsewhere"' });
      res.end();
    });
    await new Promise<void>((r) => b.listen(0, '127.0.0.1', r));
    const bPort = (b.address() as AddressInfo).port;
    let credentialed = 0;
    const a = createServer((req, res) => {
      if (!req.headers.authorization) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
        res.end();
        return;
      }
      credentialed += 1;
      res.writeHead(307, { location: `http://127.0.0.1:${bPort}${req.url}` });
      res.end();
    });
    await new Promise<void>((r) => a.listen(0, '127.0.0.1', r));
    const aPort = (a.address() as AddressInfo).port;
    try {
      const spaceId = await space('Redirected');
      await t.http
        .post(`/v1/spaces/${spaceId}/git/import`)
        .set(admin.auth)
        .send({ url: `http://quire-bot:${GIT_PASSWORD}@127.0.0.1:${aPort}/docs.git`, ref: MAIN })
        .expect(204);
      const info = await settled(spaceId);
      expect(credentialed).toBeGreaterThan(0);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).toEqual(seen.map(() => ({ authorization: undefined, cookie: undefined })));
      expect(info.operation).toMatchObject({ state: 'failure', direction: 'import' });
      expect(info.operation.error).toMatch(/credentials/);
      expect(JSON.stringify(info)).not.toContain(GIT_PASSWORD);
      expect((await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.pages).toEqual([]);
    } finally {
      await new Promise((r) => a.close(r));
      await new Promise((r) => b.close(r));
    }
  }, 60_000);

  it('a restart in the middle of an import: taken over by the sweep, finished once', async () => {
    const spaceId = await space('Restarted');
    const gitSync = t.app.get(GitSyncService);
    const runner = t.app.get(GitSyncRunner);
    // The request is recorded and its job sent; the worker "dies" before finishing: the row says running since long ago.
    const db = t.app.get(Db);
    await db.transaction(async () => {
      await gitSync.request({ userId: admin.id, tokenId: 'test' }, spaceId, 'import', { url: git.authUrl('fluentd'), ref: MAIN });
      await db.query(`UPDATE git_sync_operations SET state = 'running', started_at = '2000-01-01', attempts = 1 WHERE space_id = $1`, [
        spaceId,
      ]);
    });
    await runner.sweep();
    const info = await settled(spaceId);
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    const ops = await db.query(`SELECT state, attempts FROM git_sync_operations WHERE space_id = $1`, [spaceId]);
    expect(ops).toEqual([{ state: 'success', attempts: 2 }]);
    expect(await runner.sweep()).toBe(0);
    const merges = await db.query(`SELECT count(*)::int AS n FROM revisions WHERE space_id = $1 AND git IS NOT NULL`, [spaceId]);
    expect(merges).toEqual([{ n: 1 }]);
    // secrets:rotate seals Git credentials and webhook secrets again (a plaintext one left from before too).
    await db.query(`UPDATE git_sync SET credentials = 'quire-bot:plain' WHERE space_id = $1`, [spaceId]);
    expect(await gitSync.resealSecrets()).toBe(1);
    const [row] = await db.query(`SELECT credentials, webhook_secret FROM git_sync WHERE space_id = $1`, [spaceId]);
    expect(row.credentials).toMatch(/^qenc:v1:/);
    expect(row.webhook_secret).toMatch(/^qenc:v1:/);
    expect(await gitSync.resealSecrets()).toBe(0);
  }, 60_000);

  it('refuses bad input (400), a reader (403) and a stranger (404)', async () => {
    const spaceId = await space('Guarded');
    const send = (body: object, who = admin) => t.http.post(`/v1/spaces/${spaceId}/git/import`).set(who.auth).send(body);
    expectError(await send({ url: git.url('fluentd'), ref: 'main' }), 400, /refs\/heads\/main/);
    expectError(await send({ url: 'ftp://127.0.0.1/x.git', ref: MAIN }), 400, /http/);
    expectError(await send({ url: 'http://10.1.2.3/x.git', ref: MAIN }), 400, /QUIRE_GIT_URL_ALLOWLIST/);
    expectError(await send({ url: 'https://10.1.2.3/x.git', ref: MAIN }), 400, /private/);
    expectError(await send({ url: null, ref: MAIN }), 400, /url/);
    expectError(await send({ url: git.url('fluentd'), ref: MAIN, repoProjectDirectory: '../up' }), 400, /repoProjectDirectory/);
    expectError(await send({ url: git.url('fluentd'), ref: MAIN, timestamp: 'yesterday' }), 400, /timestamp/);
    expectError(
      await t.http
        .post(`/v1/spaces/${spaceId}/git/export`)
        .set(admin.auth)
        .send({ url: git.url('fluentd'), ref: MAIN }),
      400,
      /commitMessage/,
    );
    const reader = await t.user('reader');
    await t.member(orgId, reader, 'read');
    expectError(await send({ url: git.url('fluentd'), ref: MAIN }, reader), 403, /edit/);
    await t.http.get(`/v1/spaces/${spaceId}/git/info`).set(reader.auth).expect(404);
    const stranger = await t.user('stranger');
    expectError(await send({ url: git.url('fluentd'), ref: MAIN }, stranger), 404, /not found/i);
  });

  it('exports a space into an empty repository, then imports nothing new from it', async () => {
    git.seed('empty', null);
    const spaceId = await space('Fresh');
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Pages' }).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [
          {
            operation: 'insert_page',
            ref: 'home',
            title: 'Home',
            document: { markdown: '# Home\n\nWelcome. See [the guide](/pages/guide).\n' },
          },
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\n- one\n- two\n' } },
        ],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    await t.http
      .post(`/v1/spaces/${spaceId}/git/export`)
      .set(admin.auth)
      .send({ url: git.authUrl('empty'), ref: MAIN, commitMessage: 'First export' })
      .expect(204);
    expect((await settled(spaceId)).operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(git.bare('empty', 'log', '--format=%s', 'refs/heads/main')).toBe('First export');
    expect(git.bare('empty', 'ls-tree', '-r', '--name-only', 'refs/heads/main').split('\n').sort()).toEqual([
      '.gitbook.yaml',
      'README.md',
      'SUMMARY.md',
      'guide.md',
    ]);
    expect(git.bare('empty', 'show', 'refs/heads/main:README.md')).toBe('# Home\n\nWelcome. See [the guide](guide.md).');
    const revision = (await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body.revision;
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.url('empty'), ref: MAIN })
      .expect(204);
    expect((await settled(spaceId)).operation).toMatchObject({ state: 'success', direction: 'import' });
    expect((await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body.revision).toBe(revision);
  }, 60_000);

  it("a published page of a Git-synced space links to its file on the Git host, as the site's page actions allow", async () => {
    git.seed('edited', null);
    git.commit(
      'edited',
      (dir) => {
        mkdirSync(join(dir, 'docs/guide'), { recursive: true });
        writeFileSync(join(dir, 'docs/README.md'), '# Welcome\n\nHello.\n');
        writeFileSync(join(dir, 'docs/guide/setup.md'), '# Set up\n\nSteps.\n');
        writeFileSync(join(dir, 'docs/SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Set up](guide/setup.md)\n');
      },
      'Docs in a folder',
    );
    const spaceId = await space('Edited');
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('edited'), ref: MAIN, repoProjectDirectory: 'docs' })
      .expect(204);
    expect((await settled(spaceId)).operation).toMatchObject({ state: 'success' });
    const base = `/v1/orgs/${orgId}/sites`;
    const siteId = (await t.http.post(base).set(admin.auth).send({ title: 'Edited', visibility: 'public' }).expect(201)).body.id;
    await t.http.post(`${base}/${siteId}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await t.http.post(`${base}/${siteId}/publish`).set(admin.auth).expect(200);
    const editOf = async (path: string) => {
      const html = (await t.http.get(`/sites/${siteId}/${path}`).expect(200)).text;
      return /<a href="([^"]+)" class="page-edit"[^>]*>(?:<svg[^>]*>[\s\S]*?<\/svg>)?([^<]+)<\/a>/.exec(html)?.slice(1) ?? null;
    };
    // The file's path in the repository: the project directory, then the page's file; no credentials.
    const repo = git.url('edited').replace(/\.git$/, '');
    expect(await editOf('setup')).toEqual([`${repo}/_edit/main/docs/guide/setup.md`, 'Edit on the Git host']);
    // The README of the project's folder is the first page, its slug from its title (not from the folder).
    expect(await editOf('welcome')).toEqual([`${repo}/_edit/main/docs/README.md`, 'Edit on the Git host']);
    // Its markdown has no page actions.
    expect((await t.http.get(`/sites/${siteId}/setup.md`).expect(200)).text).not.toContain('_edit');

    // The site's customization turns the action off (official pageActions.items), the others stay.
    const customization = (await t.http.get(`${base}/${siteId}/customization`).set(admin.auth).expect(200)).body;
    expect(customization.pageActions.items).toEqual(['markdown', 'external-ai', 'git']);
    await t.http
      .put(`${base}/${siteId}/customization`)
      .set(admin.auth)
      .send({ ...customization, pageActions: { items: ['markdown'] } })
      .expect(200);
    const html = (await t.http.get(`/sites/${siteId}/setup`).expect(200)).text;
    expect(html).not.toContain('_edit');
    expect(html).not.toContain('chatgpt.com');
    expect(html).toContain('View as Markdown');
    await t.http
      .put(`${base}/${siteId}/customization`)
      .set(admin.auth)
      .send({ ...customization, pageActions: { items: [] } })
      .expect(200);
    expect((await t.http.get(`/sites/${siteId}/setup`).expect(200)).text).not.toContain('class="page-actions"');
  }, 60_000);

  it('a whole site from one repository: its gitbook-docs.yaml makes the sections and spaces, each space imported from its folder', async () => {
    const yaml = (frTitle: string | null) =>
      [
        'site:',
        '  title: Fluent handbook',
        '  structure:',
        '    - type: section',
        '      key: section-product',
        '      title: Product',
        '      path: product',
        '      default: true',
        '      children:',
        '        - type: space',
        '          key: space-guides',
        '          title: Guides',
        '          path: guides',
        '          default: true',
        '          content:',
        '            directory: ./guides',
        '            language: en',
        ...(frTitle
          ? [
              '        - type: space',
              '          key: space-guides-fr',
              `          title: ${frTitle}`,
              '          path: fr',
              '          content:',
              '            directory: ./guides-fr',
              '            language: fr',
            ]
          : []),
        '    - type: section-group',
        '      key: group-reference',
        '      title: Reference',
        '      children:',
        '        - type: section',
        '          key: section-api',
        '          title: API',
        '          path: api',
        '          children:',
        '            - type: space',
        '              key: space-api',
        '              title: API reference',
        '              path: reference',
        '              default: true',
        '              content:',
        '                directory: /shared/api',
        '        - type: external-link',
        '          key: link-status',
        '          title: Status',
        '          url: https://status.example.com',
        '',
      ].join('\n');
    git.seed('monorepo', null);
    const book = (dir: string, folder: string, title: string, body: string) => {
      mkdirSync(join(dir, folder), { recursive: true });
      writeFileSync(join(dir, folder, 'README.md'), `# ${title}\n\n${body}\n`);
    };
    git.commit(
      'monorepo',
      (dir) => {
        book(dir, 'docs/guides', 'Guides', 'Start here.');
        writeFileSync(join(dir, 'docs/guides/setup.md'), '# Set up\n\nInstall it.\n');
        writeFileSync(join(dir, 'docs/guides/SUMMARY.md'), '# Contents\n\n* [Guides](README.md)\n* [Set up](setup.md)\n');
        book(dir, 'docs/guides-fr', 'Guides', 'Commencez ici.');
        book(dir, 'shared/api', 'API', 'Every endpoint.');
        writeFileSync(join(dir, 'docs/gitbook-docs.yaml'), yaml('Guides (français)'));
      },
      'A site in one repository',
    );
    const base = `/v1/orgs/${orgId}/sites`;
    const siteId = (await t.http.post(base).set(admin.auth).send({ title: 'Handbook', visibility: 'public' }).expect(201)).body.id;
    const importSite = (body: Record<string, unknown>, who = admin) => t.http.post(`${base}/${siteId}/git/import`).set(who.auth).send(body);
    const first = (await importSite({ url: git.authUrl('monorepo'), ref: MAIN, repoProjectDirectory: 'docs' }).expect(200)).body;
    expect(first).toMatchObject({ object: 'site-git-import', configPath: 'docs/gitbook-docs.yaml', commit: head2('monorepo') });
    expect(first.spaces.map((s: { key: string; created: boolean; directory: string }) => [s.key, s.created, s.directory])).toEqual([
      ['space-guides', true, 'docs/guides'],
      ['space-guides-fr', true, 'docs/guides-fr'],
      ['space-api', true, 'shared/api'],
    ]);
    expect(first.notes).toEqual([]);
    const spaceOf = (key: string) => first.spaces.find((s: { key: string }) => s.key === key).space as string;
    for (const s of first.spaces) expect((await settled(s.space)).operation).toMatchObject({ state: 'success', direction: 'import' });
    // Each space: its title and language from the file, its pages from its folder, connected to it.
    const fr = (
      await t.http
        .get(`/v1/spaces/${spaceOf('space-guides-fr')}`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect([fr.title, fr.language]).toEqual(['Guides (français)', 'fr']);
    expect(
      (
        await t.http
          .get(`/v1/spaces/${spaceOf('space-guides')}/content/path/setup`)
          .set(admin.auth)
          .expect(200)
      ).body.title,
    ).toBe('Set up');
    // The site: its title, its sections (in their group), each with its site spaces.
    const site = (await t.http.get(`${base}/${siteId}`).set(admin.auth).expect(200)).body;
    expect(site.title).toBe('Fluent handbook');
    await t.http.post(`${base}/${siteId}/publish`).set(admin.auth).expect(200);
    // The default section and its default space at the root; the others at their paths.
    expect((await t.http.get(`/sites/${siteId}/setup`).expect(200)).text).toContain('Install it.');
    expect((await t.http.get(`/sites/${siteId}/fr/`).expect(200)).text).toContain('Commencez ici.');
    const api = (await t.http.get(`/sites/${siteId}/api/`).expect(200)).text;
    expect(api).toContain('Every endpoint.');
    // The section tabs (the file's external link among them, out of the site), and the variants of the product section.
    expect(api).toContain('>Product</a>');
    expect(api).toContain('<a href="https://status.example.com" rel="noopener noreferrer" class="external">Status');
    expect((await t.http.get(`/sites/${siteId}/setup`).expect(200)).text).toContain('>Guides (français)</a>');
    // No credentials where the site's import is kept.
    expect(JSON.stringify(await t.app.get(Db).query('SELECT * FROM site_git_sync'))).not.toContain(GIT_PASSWORD);

    // The file changes: the French space leaves the site (the space stays), the others keep their spaces.
    git.commit(
      'monorepo',
      (dir) => writeFileSync(join(dir, 'docs/gitbook-docs.yaml'), yaml(null).replace('title: Guides\n', 'title: User guides\n')),
      'No French',
    );
    const second = (await importSite({ url: git.authUrl('monorepo'), ref: MAIN, repoProjectDirectory: 'docs' }).expect(200)).body;
    expect(second.spaces.map((s: { key: string; space: string; created: boolean }) => [s.key, s.space, s.created])).toEqual([
      ['space-guides', spaceOf('space-guides'), false],
      ['space-api', spaceOf('space-api'), false],
    ]);
    for (const s of second.spaces) await settled(s.space);
    expect(
      (
        await t.http
          .get(`/v1/spaces/${spaceOf('space-guides')}`)
          .set(admin.auth)
          .expect(200)
      ).body.title,
    ).toBe('User guides');
    await t.http
      .get(`/v1/spaces/${spaceOf('space-guides-fr')}`)
      .set(admin.auth)
      .expect(200);
    expect((await t.http.get(`/sites/${siteId}/fr/`)).status).toBe(404);

    // The site changes in Quire and is written back: the file keeps its external link (now the site's), says the
    // new title, and reads back as the site; a second export commits nothing.
    const sections = (await t.http.get(`${base}/${siteId}/sections`).set(admin.auth).expect(200)).body.items;
    const product = sections.find((x: { title: string }) => x.title === 'Product');
    await t.http.patch(`${base}/${siteId}/sections/${product.id}`).set(admin.auth).send({ title: 'Products' }).expect(200);
    const exportSite = () =>
      t.http
        .post(`${base}/${siteId}/git/export`)
        .set(admin.auth)
        .send({ url: git.authUrl('monorepo'), ref: MAIN, repoProjectDirectory: 'docs' });
    const exported = (await exportSite().expect(200)).body;
    expect(exported).toMatchObject({
      object: 'site-git-export',
      configPath: 'docs/gitbook-docs.yaml',
      changed: true,
      commit: head2('monorepo'),
    });
    const written = git.bare('monorepo', 'show', 'refs/heads/main:docs/gitbook-docs.yaml');
    expect(written).toContain('title: Products');
    expect(written).toContain('key: link-status');
    expect(written).toContain('directory: /shared/api');
    expect(written).not.toContain('space-guides-fr');
    expect(git.bare('monorepo', 'log', '-1', '--format=%an|%s')).toBe('admin|Update docs/gitbook-docs.yaml from Quire');
    expect((await exportSite().expect(200)).body).toMatchObject({ changed: false, commit: exported.commit });
    // Importing what was written changes nothing: the same sections, the same spaces.
    const third = (await importSite({ url: git.authUrl('monorepo'), ref: MAIN, repoProjectDirectory: 'docs' }).expect(200)).body;
    expect(third.spaces.every((s: { created: boolean }) => !s.created)).toBe(true);
    const after = (await t.http.get(`${base}/${siteId}/sections`).set(admin.auth).expect(200)).body.items;
    expect(after.map((x: { id: string; title: string }) => [x.id, x.title])).toEqual(
      sections.map((x: { id: string; title: string }) => [x.id, x.title === 'Product' ? 'Products' : x.title]),
    );
    expectError(
      await t.http
        .post(`${base}/${siteId}/git/export`)
        .set(editor.auth)
        .send({ url: git.url('monorepo'), ref: MAIN }),
      403,
    );

    // Refused: no configuration there, a broken one (named), a path out of the repository, a non-admin, a stranger.
    expectError(
      await importSite({ url: git.authUrl('monorepo'), ref: MAIN }),
      400,
      /No gitbook-docs.yaml or docs.yaml in the top of the repository/,
    );
    git.commit(
      'monorepo',
      (dir) => writeFileSync(join(dir, 'docs/gitbook-docs.yaml'), yaml(null).replace('      default: true\n', '')),
      'Broken',
    );
    expectError(
      await importSite({ url: git.authUrl('monorepo'), ref: MAIN, repoProjectDirectory: 'docs' }),
      400,
      /docs\/gitbook-docs.yaml: the site marks 0 of its 2 spaces or sections "default: true"/,
    );
    expectError(await importSite({ url: git.authUrl('monorepo'), ref: MAIN, repoProjectDirectory: '../x' }), 400, /repoProjectDirectory/);
    expectError(await importSite({ url: git.authUrl('monorepo'), ref: 'main' }), 400, /ref/);
    expectError(
      await importSite({ url: git.authUrl('monorepo', 'wrong'), ref: MAIN, repoProjectDirectory: 'docs' }),
      400,
      /could not be read/,
    );
    expectError(await importSite({ url: null, ref: MAIN }), 400);
    expectError(await importSite({ url: git.url('monorepo'), ref: MAIN }, editor), 403);
    expectError(await importSite({ url: git.url('monorepo'), ref: MAIN }, await t.user('outsider')), 404);
  }, 120_000);

  it("a push to a site's branch re-reads its gitbook-docs.yaml: sections renamed, a new space made and imported; a broken file changes nothing", async () => {
    const yaml = (section: string, withFaq: boolean) =>
      [
        'site:',
        '  title: Pushed handbook',
        '  structure:',
        '    - type: section',
        '      key: product',
        `      title: ${section}`,
        '      path: product',
        '      default: true',
        '      children:',
        '        - type: space',
        '          key: guides',
        '          title: Guides',
        '          path: guides',
        '          default: true',
        '          content:',
        '            directory: ./guides',
        ...(withFaq
          ? [
              '        - type: space',
              '          key: faq',
              '          title: FAQ',
              '          path: faq',
              '          content:',
              '            directory: ./faq',
            ]
          : []),
        '',
      ].join('\n');
    git.seed('site-pushed', null);
    git.commit(
      'site-pushed',
      (dir) => {
        mkdirSync(join(dir, 'guides'), { recursive: true });
        writeFileSync(join(dir, 'guides/README.md'), '# Guides\n\nStart here.\n');
        writeFileSync(join(dir, 'gitbook-docs.yaml'), yaml('Product', false));
      },
      'A site',
    );
    const base = `/v1/orgs/${orgId}/sites`;
    const siteId = (await t.http.post(base).set(admin.auth).send({ title: 'Pushed', visibility: 'public' }).expect(201)).body.id;
    const first = (
      await t.http
        .post(`${base}/${siteId}/git/import`)
        .set(admin.auth)
        .send({ url: git.authUrl('site-pushed'), ref: MAIN })
        .expect(200)
    ).body;
    const guides = first.spaces[0].space as string;
    await settled(guides);
    await t.http.post(`${base}/${siteId}/publish`).set(admin.auth).expect(200);
    const sectionTitles = async () =>
      ((await t.http.get(`${base}/${siteId}/sections`).set(admin.auth).expect(200)).body.items as { title: string }[]).map((x) => x.title);
    expect(await sectionTitles()).toEqual(['Product']);

    // The push: the section renamed, a new space with its folder. Its space's import (a webhook, a poll, or as
    // here the official import) brings the commit in, and the site follows it.
    const pushed = git.commit(
      'site-pushed',
      (dir) => {
        mkdirSync(join(dir, 'faq'), { recursive: true });
        writeFileSync(join(dir, 'faq/README.md'), '# FAQ\n\nAsked often.\n');
        writeFileSync(join(dir, 'gitbook-docs.yaml'), yaml('Products', true));
      },
      'A FAQ',
    );
    await t.http
      .post(`/v1/spaces/${guides}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('site-pushed'), ref: MAIN, repoProjectDirectory: 'guides' })
      .expect(204);
    await settled(guides);
    const deadline = Date.now() + 60_000;
    while ((await sectionTitles())[0] !== 'Products') {
      if (Date.now() > deadline) throw new Error('the site did not follow the push');
      await new Promise((r) => setTimeout(r, 200));
    }
    const sync = (await t.app.get(Db).query('SELECT commit, keys FROM site_git_sync WHERE site_id = $1', [siteId]))[0];
    expect(sync.commit).toBe(pushed);
    const faq = sync.keys.faq.spaceId as string;
    expect(sync.keys.guides.spaceId).toBe(guides);
    // The new space: connected to its folder with the pushed space's credentials, imported; the site shows it.
    const connection = async (spaceId: string) =>
      (await t.app.get(Db).query('SELECT url, ref, project_directory, last_commit FROM git_sync WHERE space_id = $1', [spaceId]))[0];
    const faqInfo = await settled(faq, async () => (await connection(faq))?.last_commit === pushed);
    expect(faqInfo).toMatchObject({ url: git.url('site-pushed'), operation: { state: 'success' } });
    expect(await connection(faq)).toMatchObject({ ref: MAIN, project_directory: 'faq' });
    let page = await t.http.get(`/sites/${siteId}/faq/`);
    for (let i = 0; page.status !== 200 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      page = await t.http.get(`/sites/${siteId}/faq/`);
    }
    expect(page.text).toContain('Asked often.');
    // The guides space was not imported again for it: one operation for the site's import, one for the push.
    expect((await t.app.get(Db).query('SELECT count(*)::int AS n FROM git_sync_operations WHERE space_id = $1', [guides]))[0].n).toBe(2);

    // A push that breaks the file: the space's import stands, the site keeps its structure and its commit.
    const broken = git.commit('site-pushed', (dir) => writeFileSync(join(dir, 'gitbook-docs.yaml'), 'site: [not a site'), 'Broken');
    await t.http
      .post(`/v1/spaces/${guides}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('site-pushed'), ref: MAIN, repoProjectDirectory: 'guides' })
      .expect(204);
    const after = await settled(guides, async () => (await connection(guides)).last_commit === broken);
    expect(after.operation.state).toBe('success');
    await new Promise((r) => setTimeout(r, 500));
    expect(await sectionTitles()).toEqual(['Products']);
    expect((await t.app.get(Db).query('SELECT commit FROM site_git_sync WHERE site_id = $1', [siteId]))[0].commit).toBe(pushed);
  }, 120_000);

  it('pushes come in by webhook: GitHub and Gitea signatures, GitLab token; a wrong one is refused; other refs ignored', async () => {
    git.seed('hooked', join(corpus, 'quickstart'), 'Quickstart only');
    const spaceId = await space('Hooked');
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('hooked'), ref: MAIN })
      .expect(204);
    const info = await settled(spaceId);
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(info.webhook.url).toBe(`http://quire.test/v1/spaces/${spaceId}/git/webhook`);
    const secret: string = info.webhook.secret;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    // Readers see the state, not the secret.
    const reader = await t.user('hook-reader');
    await t.member(orgId, reader, 'read');
    expect((await t.http.get(`/v1/spaces/${spaceId}/git/info`).set(reader.auth).expect(200)).body.webhook).toBeUndefined();

    const hook = (body: object, headers: Record<string, string>) =>
      t.http.post(`/v1/spaces/${spaceId}/git/webhook`).set(headers).set('content-type', 'application/json').send(JSON.stringify(body));
    const sign = (body: object) => createHmac('sha256', secret).update(JSON.stringify(body)).digest('hex');
    const revisionNow = async () => (await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body.revision as string;

    // Nothing moved: a push event naming the commit already synced is ignored; a ping too.
    const synced = git.bare('hooked', 'rev-parse', 'refs/heads/main');
    const same = { ref: MAIN, after: synced };
    expect((await hook(same, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(same)}` }).expect(202)).body).toEqual({
      status: 'ignored',
    });
    expect(
      (await hook({ zen: 'hi' }, { 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${sign({ zen: 'hi' })}` }).expect(202)).body,
    ).toEqual({ status: 'ignored' });

    // A GitHub push with a wrong signature, without one, or for another space: refused, nothing queued.
    const start = await revisionNow();
    const pushed = git.commit('hooked', (dir) => writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nFrom a webhook.\n'), 'FAQ by webhook');
    const event = { ref: MAIN, after: pushed };
    expectError(await hook(event, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }), 401, /signature/);
    expectError(await hook(event, { 'x-github-event': 'push' }), 401, /signature/);
    expectError(await t.http.post(`/v1/spaces/${await space('Unhooked')}/git/webhook`).send(event), 404, /not found/i);
    expect((await t.app.get(Db).query(`SELECT count(*)::int AS n FROM git_sync_operations WHERE space_id = $1`, [spaceId]))[0].n).toBe(1);

    // Another branch: ignored. The connected branch: imported as the person who connected the space.
    const other = { ref: 'refs/heads/feature', after: pushed };
    expect((await hook(other, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(other)}` }).expect(202)).body.status).toBe(
      'ignored',
    );
    expect((await hook(event, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(event)}` }).expect(202)).body.status).toBe(
      'queued',
    );
    await settled(spaceId, async () => (await revisionNow()) !== start);
    const faq = (await t.http.get(`/v1/spaces/${spaceId}/content/path/faq?format=markdown`).set(admin.auth).expect(200)).body;
    expect(faq.markdown).toContain('From a webhook.');

    // Gitea signs the same way in its own header; GitLab sends the secret as its token.
    const second = git.commit('hooked', (dir) => writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nFrom Gitea.\n'), 'FAQ by Gitea');
    const giteaEvent = { ref: MAIN, after: second };
    const before = await revisionNow();
    expect((await hook(giteaEvent, { 'x-gitea-event': 'push', 'x-gitea-signature': sign(giteaEvent) }).expect(202)).body.status).toBe(
      'queued',
    );
    await settled(spaceId, async () => (await revisionNow()) !== before);
    const third = git.commit('hooked', (dir) => writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nFrom GitLab.\n'), 'FAQ by GitLab');
    const gitlabEvent = { ref: MAIN, checkout_sha: third };
    expectError(await hook(gitlabEvent, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'not-the-secret' }), 401, /token/);
    const beforeGitlab = await revisionNow();
    expect((await hook(gitlabEvent, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret }).expect(202)).body.status).toBe('queued');
    await settled(spaceId, async () => (await revisionNow()) !== beforeGitlab);
    expect(
      (await t.http.get(`/v1/spaces/${spaceId}/content/path/faq?format=markdown`).set(admin.auth).expect(200)).body.markdown,
    ).toContain('From GitLab.');
  }, 120_000);

  it('a branch is polled for new commits when QUIRE_GIT_POLL_SECONDS is set, a bounded number of spaces per run', async () => {
    git.seed('polled', join(corpus, 'quickstart'), 'Quickstart');
    const spaceId = await space('Polled');
    await t.http
      .post(`/v1/spaces/${spaceId}/git/import`)
      .set(admin.auth)
      .send({ url: git.authUrl('polled'), ref: MAIN })
      .expect(204);
    await settled(spaceId);
    // A second process of the same deployment, polling every minute (its jobs off: the test runs its steps).
    const poller = await createTestApp(
      { QUIRE_GIT_URL_ALLOWLIST: '127.0.0.1', QUIRE_GIT_POLL_SECONDS: '60', QUIRE_SECRET_KEY: SECRET_KEY },
      { sharedDatabaseUrl: t.databaseUrl },
    );
    try {
      const polling = poller.app.get(GitSyncPoller);
      const runner = poller.app.get(GitSyncRunner);
      poller.clock.set(new Date(Date.now() + 3_600_000));
      await polling.poll(1000); // every connection is polled once; nothing moved
      const pushed = git.commit('polled', (dir) => writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nFound by polling.\n'), 'FAQ, polled');
      expect(await polling.poll(1000)).toBe(0); // polled a moment ago: not yet again
      poller.clock.advance(61_000);
      expect(await polling.poll(1000)).toBe(1);
      await runner.sweep();
      const s = (await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body;
      const revision = (await t.http.get(`/v1/spaces/${spaceId}/revisions/${s.revision}`).set(admin.auth).expect(200)).body;
      expect(revision.git.oid).toBe(pushed);
      poller.clock.advance(61_000);
      expect(await polling.poll(1000)).toBe(0); // at the synced commit now
    } finally {
      await poller.app.close();
    }
  }, 120_000);
});
