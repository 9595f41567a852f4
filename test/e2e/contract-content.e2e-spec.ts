import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/** Change requests and content reads through the official client, validated against the official schemas. */
describe('contract: change requests and content', () => {
  let t: TestApp;
  let admin: TestUser;
  let api: GitBookAPI;
  const schemas = officialValidator();
  /**
   * The official RevisionPageDocument is `allOf` the Document union, whose only variants need a
   * `markdown` or `document` member (the "Empty" variant forbids any member at all). Page trees
   * (revisions, page lists) carry no bodies, as in GitBook itself; so tree pages are checked against
   * RevisionPageBase and the fields RevisionPageDocument requires, and single pages (with a body)
   * against RevisionPage in full.
   */
  const checkTreePage = (p: Record<string, unknown>): string => {
    const base = schemas.check('RevisionPageBase', p);
    const missing = ['kind', 'type', 'urls', 'slug', 'path', 'pages', 'layout', 'tags'].filter((k) => !(k in p));
    const layout = schemas.check('RevisionPageLayoutOptions', p.layout);
    const children = (p.pages as Record<string, unknown>[]).map(checkTreePage).join('');
    return [base, missing.length ? `missing ${missing.join(',')}` : '', layout, children].join('');
  };
  const checkRevision = (r: { pages: Record<string, unknown>[] }) =>
    schemas.check('Revision', { ...r, pages: [] }) + r.pages.map(checkTreePage).join('');

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('drives the whole change-request flow', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Content Org' })).data.id;
    const space = (await api.orgs.createSpace(org, { title: 'Docs' })).data;
    const cr = await api.spaces.createChangeRequest(space.id, { subject: 'Add pages' });
    expect(cr.status).toBe(201);
    expect(schemas.check('ChangeRequest', cr.data)).toBe('');

    const written = await api.spaces.updateChangeRequestContent(
      space.id,
      cr.data.id,
      {
        changes: [
          { operation: 'insert_page', ref: 'home', document: { markdown: '# Home\n\nHello **world**, see [more](./more.md).' } } as never,
          { operation: 'insert_page', ref: 'more', title: 'More', document: { markdown: '- a\n- b\n\n```js\nx()\n```' } } as never,
        ],
      },
      { compat: false },
    );
    expect(schemas.check('ChangeRequestContentUpdate', written.data)).toBe('');
    const updated = await api.spaces.updateChangeRequestContent(space.id, String(cr.data.number), {
      changes: [{ operation: 'insert_page', title: 'Third', document: {} } as never],
    });
    expect(schemas.check('ChangeRequest', updated.data)).toBe('');

    expect(schemas.checkList('ChangeRequest', (await api.spaces.listChangeRequestsForSpace(space.id)).data)).toBe('');
    expect(schemas.check('ChangeRequest', (await api.spaces.getChangeRequestById(space.id, cr.data.id)).data)).toBe('');
    expect(
      schemas.check('ChangeRequest', (await api.spaces.updateChangeRequestById(space.id, cr.data.id, { subject: 'Pages' })).data),
    ).toBe('');

    const crRevision = await api.spaces.getRevisionOfChangeRequestById(space.id, cr.data.id);
    expect(checkRevision(crRevision.data as never)).toBe('');
    const crPages = await api.spaces.listPagesInChangeRequest(space.id, cr.data.id);
    expect(crPages.data.pages.map((p) => checkTreePage(p as never)).join('')).toBe('');
    const homeId = crPages.data.pages[0].id;
    const crPage = await api.spaces.getPageInChangeRequestById(space.id, cr.data.id, homeId, { format: 'markdown' as never });
    expect(schemas.check('RevisionPage', crPage.data)).toBe('');
    expect((crPage.data as { markdown?: string }).markdown).toBe('Hello **world**, see [more](./more.md).\n');

    const merge = await api.spaces.mergeChangeRequest(space.id, cr.data.id);
    expect(merge.data.result).toBe('merge');

    const other = (await api.spaces.createChangeRequest(space.id, {})).data;
    const upd = await api.spaces.updateChangeRequest(space.id, other.id);
    expect(upd.data.result).toBe('update');

    expect(checkRevision((await api.spaces.getCurrentRevision(space.id)).data as never)).toBe('');
    const pages = await api.spaces.listPages(space.id);
    expect(pages.data.pages.map((p) => checkTreePage(p as never)).join('')).toBe('');
    const page = await api.spaces.getPageById(space.id, homeId, { format: 'document' as never });
    expect(schemas.check('RevisionPage', page.data)).toBe('');
    const initial = await api.spaces.getRevisionById(space.id, space.revision);
    expect(schemas.check('Revision', initial.data)).toBe('');
    const mergeRevision = (await api.spaces.getRevisionById(space.id, merge.data.revision)).data as never as {
      type: string;
      mergedFrom: { id: string };
      pages: Record<string, unknown>[];
    };
    expect(checkRevision(mergeRevision)).toBe('');
    expect(mergeRevision).toMatchObject({ type: 'merge', mergedFrom: { id: cr.data.id } });
    const revPages = await api.spaces.listPagesInRevisionById(space.id, merge.data.revision);
    expect(revPages.data.pages).toHaveLength(3);
    expect(schemas.check('RevisionPage', (await api.spaces.getPageInRevisionById(space.id, merge.data.revision, homeId)).data)).toBe('');
    // By path, as the official client sends it (slashes unencoded).
    const home = (await api.spaces.getPageInRevisionById(space.id, merge.data.revision, homeId)).data as { id: string; path: string };
    const byPath = await api.spaces.getPageInRevisionByPath(space.id, merge.data.revision, home.path);
    expect(schemas.check('RevisionPage', byPath.data)).toBe('');
    expect(byPath.data.id).toBe(homeId);
    expect((await api.spaces.getPageByPath(space.id, home.path)).data.id).toBe(homeId);
  });
});
