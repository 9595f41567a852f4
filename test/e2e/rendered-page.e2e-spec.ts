import { Db } from '@app/persistence';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * GET /v1/spaces/{id}/content/page/{pageId}/rendered (Quire extension, #50): a page as the published site
 * renders it, for the web app. Pages link to their screens in the app, files to signed downloads, links that
 * lead nowhere are marked as broken (the app is for members); readers may, strangers get 404.
 */
describe('a page rendered for the web app', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let spaceId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const res = await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', ref: 'setup', document: { markdown: '# Setup\n\n## Install\n\nRun it.\n' } },
          {
            operation: 'insert_page',
            ref: 'intro',
            document: {
              markdown:
                '# Intro\n\nSee [the install](./setup.md#install), [the web](https://example.com) and [a gone page](gone.md).\n\n{% hint style="warning" %}\nBack up first.\n{% endhint %}\n\n```js\nlet a = "<b>";\n```\n',
            },
          },
        ],
      });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    for (const c of res.body.changes as { ref: string; page: { id: string } }[]) ids[c.ref === 'setup' ? 'Setup' : 'Intro'] = c.page.id;
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
  });
  afterAll(async () => t.close());

  it('renders as the published site does: links to the app, the hint, code escaped, the broken link marked', async () => {
    const body = (await t.http.get(`/v1/spaces/${spaceId}/content/page/${ids.Intro}/rendered`).set(admin.auth).expect(200)).body;
    expect(body).toMatchObject({ object: 'rendered-page', id: ids.Intro, title: 'Intro' });
    expect(body.html).toContain(`<a href="http://quire.test/app/s/${spaceId}/setup#install">the install</a>`);
    expect(body.html).toContain('<a href="https://example.com" rel="noopener noreferrer">the web</a>');
    expect(body.html).toMatch(
      /<span class="broken-link" title="Broken link: gone.md">a gone page<span class="visually-hidden"> \(broken link\)<\/span><\/span>/,
    );
    expect(body.html).toMatch(/<div class="hint hint-warning" role="note" aria-label="Warning">/);
    expect(body.html).toContain('&lt;b>');
    // Code highlighted as on the published site: in classes (the app's CSP admits no style attribute).
    expect(body.html).toMatch(/<span class="hl-keyword">let<\/span>/);
    expect(body.html).not.toContain('style=');
    expect(body.html).not.toMatch(/<script|<b>/);
  });

  it('a reader may; a stranger, another space’s page or an unknown page: 404', async () => {
    const reader = await t.user('reader');
    await t.member(orgId, reader, 'read');
    await t.http.get(`/v1/spaces/${spaceId}/content/page/${ids.Setup}/rendered`).set(reader.auth).expect(200);
    const stranger = await t.user('stranger');
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/page/${ids.Setup}/rendered`).set(stranger.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/page/nope/rendered`).set(admin.auth), 404);
    const other = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Other' }).expect(201)).body.id;
    expectError(await t.http.get(`/v1/spaces/${other}/content/page/${ids.Setup}/rendered`).set(admin.auth), 404);
  });

  it('renders a page of an earlier revision, its links kept in that revision; an unknown revision: 404', async () => {
    const revision = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.id as string;
    // A later revision changes the page: the earlier one still renders as it was.
    const later = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const intro = (await t.http.get(`/v1/spaces/${spaceId}/content/page/${ids.Intro}?format=markdown`).set(admin.auth).expect(200)).body;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${later}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'update_page', page: ids.Intro, document: { markdown: `${intro.markdown}\nLater words.\n` } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${later}/merge`).set(admin.auth).expect(200);
    expect((await t.http.get(`/v1/spaces/${spaceId}/content/page/${ids.Intro}/rendered`).set(admin.auth).expect(200)).body.html).toContain(
      'Later words.',
    );
    const body = (await t.http.get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${ids.Intro}/rendered`).set(admin.auth).expect(200))
      .body;
    expect(body).toMatchObject({ object: 'rendered-page', id: ids.Intro, title: 'Intro' });
    expect(body.html).toContain(`<a href="http://quire.test/app/s/${spaceId}/~/revisions/${revision}/setup#install">the install</a>`);
    expect(body.html).not.toContain('Later words.');
    expectError(await t.http.get(`/v1/spaces/${spaceId}/revisions/nope/page/${ids.Intro}/rendered`).set(admin.auth), 404);
    const stranger = await t.user('rev-stranger');
    expectError(await t.http.get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${ids.Intro}/rendered`).set(stranger.auth), 404);
  });

  describe('in a change request: the page, the live preview of markdown not yet written, the change as rendered blocks', () => {
    let cr: string;
    const base = () => `/v1/spaces/${spaceId}/change-requests/${cr}/content/page`;
    beforeAll(async () => {
      cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Edit' }).expect(201)).body.id;
      const res = await t.http
        .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
        .set(admin.auth)
        .send({
          changes: [
            { operation: 'update_page', page: ids.Setup, document: { markdown: '# Setup\n\n## Install\n\nRun it twice.\n\nThen rest.\n' } },
          ],
        });
      expect(res.status).toBe(200);
    });

    it('renders the page as the change request has it, links to the change request’s screens', async () => {
      const body = (await t.http.get(`${base()}/${ids.Setup}/rendered`).set(admin.auth).expect(200)).body;
      expect(body).toMatchObject({ object: 'rendered-page', id: ids.Setup, title: 'Setup' });
      expect(body.html).toContain('Run it twice.');
      const intro = (await t.http.get(`${base()}/${ids.Intro}/rendered`).set(admin.auth).expect(200)).body;
      expect(intro.html).toContain(`href="http://quire.test/app/s/${spaceId}/~/changes/`);
    });

    it('previews markdown as the page would show it: relative links resolved from its place, nothing written', async () => {
      const res = await t.http
        .post(`${base()}/${ids.Intro}/preview`)
        .set(admin.auth)
        .send({
          markdown:
            '---\ntitle: Intro again\n---\n\nGo to [setup](setup.md) or [nowhere](gone.md).\n\n{% hint style="info" %}\nNote\n{% endhint %}\n',
        })
        .expect(200);
      expect(res.body).toMatchObject({ object: 'rendered-page', id: ids.Intro, title: 'Intro again' });
      expect(res.body.html).toMatch(new RegExp(`<a href="http://quire.test/app/s/${spaceId}/~/changes/\\d+/setup">setup</a>`));
      expect(res.body.html).toContain('class="broken-link"');
      expect(res.body.html).toMatch(/hint-info/);
      // A leading heading titles the page, as a write of the markdown would.
      const headed = await t.http
        .post(`${base()}/${ids.Intro}/preview`)
        .set(admin.auth)
        .send({ markdown: '#  Intro, renamed \n\nBody.\n' })
        .expect(200);
      expect(headed.body.title).toBe('Intro, renamed');
      const page = (await t.http.get(`${base()}/${ids.Intro}?format=markdown`).set(admin.auth).expect(200)).body;
      expect(page.title).toBe('Intro');
      expect(page.markdown).not.toContain('nowhere');
      // Not an audited write: the audit log has no event for it.
      const events = (await t.http.get(`/v1/orgs/${orgId}/audit-events`).set(admin.auth).expect(200)).body.items as { action: string }[];
      expect(events.map((e) => e.action)).not.toContain('previewPageInChangeRequest');
    });

    it('refuses hostile or missing markdown (400), a reader (403), a stranger and an unknown page (404)', async () => {
      for (const body of [
        {},
        { markdown: null },
        { markdown: 16 },
        { markdown: 'x'.repeat(1_000_001) },
        { markdown: '---\n: [\n---\n' },
        { markdown: 'a\u0000b' },
      ])
        expectError(await t.http.post(`${base()}/${ids.Intro}/preview`).set(admin.auth).send(body), 400);
      const reader = await t.user('cr-reader');
      await t.member(orgId, reader, 'read');
      expectError(await t.http.post(`${base()}/${ids.Intro}/preview`).set(reader.auth).send({ markdown: 'x' }), 403);
      await t.http.get(`${base()}/${ids.Intro}/rendered`).set(reader.auth).expect(200);
      await t.http.get(`${base()}/${ids.Setup}/diff`).set(reader.auth).expect(200);
      const stranger = await t.user('cr-stranger');
      expectError(await t.http.post(`${base()}/${ids.Intro}/preview`).set(stranger.auth).send({ markdown: 'x' }), 404);
      expectError(await t.http.get(`${base()}/${ids.Intro}/diff`).set(stranger.auth), 404);
      expectError(await t.http.post(`${base()}/nope/preview`).set(admin.auth).send({ markdown: 'x' }), 404);
      expectError(await t.http.get(`${base()}/nope/diff`).set(admin.auth), 404);
    });

    it('shows the change as rendered blocks: unchanged, deleted, added, in order; a created and a deleted page', async () => {
      const diff = (await t.http.get(`${base()}/${ids.Setup}/diff`).set(admin.auth).expect(200)).body;
      expect(diff).toMatchObject({ object: 'rendered-page-diff', id: ids.Setup, title: 'Setup', change: 'edited' });
      expect(diff.blocks.map((b: { change: string }) => b.change)).toEqual(['unchanged', 'deleted', 'added', 'added']);
      expect(diff.blocks[1].html).toContain('Run it.');
      expect(diff.blocks[2].html).toContain('Run it twice.');
      expect(diff.blocks[3].html).toContain('Then rest.');
      const unchanged = (await t.http.get(`${base()}/${ids.Intro}/diff`).set(admin.auth).expect(200)).body;
      expect(unchanged.change).toBe('unchanged');
      expect(unchanged.blocks.every((b: { change: string }) => b.change === 'unchanged')).toBe(true);
      const res = await t.http
        .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`)
        .set(admin.auth)
        .send({
          changes: [
            { operation: 'insert_page', ref: 'new', document: { markdown: '# New\n\nFresh.\n' } },
            { operation: 'delete_page', page: ids.Intro },
          ],
        })
        .expect(200);
      const created = res.body.changes.find((c: { ref?: string }) => c.ref === 'new').page.id;
      const added = (await t.http.get(`${base()}/${created}/diff`).set(admin.auth).expect(200)).body;
      expect(added).toMatchObject({ change: 'created', title: 'New' });
      expect(added.blocks.map((b: { change: string }) => b.change)).toEqual(['added']);
      const gone = (await t.http.get(`${base()}/${ids.Intro}/diff`).set(admin.auth).expect(200)).body;
      expect(gone.change).toBe('deleted');
      expect(gone.blocks.length).toBeGreaterThan(1);
      expect(gone.blocks.every((b: { change: string }) => b.change === 'deleted')).toBe(true);
    });
  });

  describe("a change request's description: written as markdown or as a document, read as both", () => {
    let cr: string;
    const at = () => `/v1/spaces/${spaceId}/change-requests/${cr}`;
    beforeAll(async () => {
      cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Described' }).expect(201)).body.id;
    });

    it('none yet: empty markdown and HTML', async () => {
      expect((await t.http.get(`${at()}/description`).set(admin.auth).expect(200)).body).toEqual({
        object: 'change-request-description',
        markdown: '',
        html: '',
      });
    });

    it('markdown (Quire extension) is stored as the official document, its page links resolved; read back as markdown and HTML', async () => {
      const markdown = 'Fixes [the install](./setup.md#install) for **everyone**.\n\n{% hint style="info" %}\nRead first.\n{% endhint %}\n';
      const updated = (await t.http.patch(at()).set(admin.auth).send({ description: { markdown } }).expect(200)).body;
      expect(updated.description).toMatchObject({ object: 'document' });
      expect(JSON.stringify(updated.description)).toContain(`"page":"${ids.Setup}"`);
      const read = (await t.http.get(`${at()}/description`).set(admin.auth).expect(200)).body;
      expect(read.markdown).toBe(markdown);
      expect(read.html).toMatch(new RegExp(`<a href="http://quire.test/app/s/${spaceId}/~/changes/\\d+/setup#install">the install</a>`));
      expect(read.html).toContain('<strong>everyone</strong>');
      expect(read.html).toMatch(/hint-info/);
      // The official document form still works, and null clears it.
      const doc = {
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Plain.', marks: [] }] }] },
        ],
      };
      await t.http.patch(at()).set(admin.auth).send({ description: doc }).expect(200);
      expect((await t.http.get(`${at()}/description`).set(admin.auth).expect(200)).body.markdown).toBe('Plain.\n');
      await t.http.patch(at()).set(admin.auth).send({ description: null }).expect(200);
      expect((await t.http.get(`${at()}/description`).set(admin.auth).expect(200)).body.markdown).toBe('');
    });

    it('refuses hostile descriptions (400) and keeps the one it had; a reader may read, not write (403); a stranger: 404', async () => {
      await t.http
        .patch(at())
        .set(admin.auth)
        .send({ description: { markdown: 'Kept.' } })
        .expect(200);
      for (const description of [
        { markdown: 16 },
        { markdown: null },
        { markdown: 'x', object: 'document' },
        { markdown: 'x'.repeat(100_001) },
        { markdown: 'a\u0000b' },
        { markdown: '---\n: [\n---\n' },
        { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: 'no' }] },
        { object: 'document', nodes: [7] },
        'text',
        [],
      ])
        expectError(await t.http.patch(at()).set(admin.auth).send({ description }), 400);
      expect((await t.http.get(`${at()}/description`).set(admin.auth).expect(200)).body.markdown).toBe('Kept.\n');
      const reader = await t.user('description-reader');
      await t.member(orgId, reader, 'read');
      expect((await t.http.get(`${at()}/description`).set(reader.auth).expect(200)).body.markdown).toBe('Kept.\n');
      expectError(
        await t.http
          .patch(at())
          .set(reader.auth)
          .send({ description: { markdown: 'Mine.' } }),
        403,
      );
      const stranger = await t.user('description-stranger');
      expectError(await t.http.get(`${at()}/description`).set(stranger.auth), 404);
      expectError(
        await t.http
          .patch(at())
          .set(stranger.auth)
          .send({ description: { markdown: 'Mine.' } }),
        404,
      );
      expectError(await t.http.get(`/v1/spaces/${spaceId}/change-requests/999/description`).set(admin.auth), 404);
      // A description stored before descriptions were checked, that nothing can read: read as none, not a 500.
      await t.app
        .get(Db)
        .query(
          `UPDATE change_requests SET description = '{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[7]}]}' WHERE id = $1`,
          [cr],
        );
      expect((await t.http.get(`${at()}/description`).set(admin.auth).expect(200)).body).toEqual({
        object: 'change-request-description',
        markdown: '',
        html: '',
      });
    });
  });
});
