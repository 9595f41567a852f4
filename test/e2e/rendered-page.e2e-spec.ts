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
});
