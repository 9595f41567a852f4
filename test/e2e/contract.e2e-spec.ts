import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { GitBookAPI as GitBookAPI0167 } from 'gitbook-api-0167';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/**
 * Existing GitBook API v1 clients work unmodified: the official client drives Quire, and every
 * response is validated against the official OpenAPI schemas.
 */
describe('contract: the official @gitbook/api client', () => {
  let t: TestApp;
  let user: TestUser;
  let api: GitBookAPI;
  let legacy: GitBookAPI0167;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    user = await t.user('client');
    const endpoint = `http://127.0.0.1:${port}`;
    api = new GitBookAPI({ endpoint, authToken: user.token });
    legacy = new GitBookAPI0167({ endpoint, authToken: user.token });
  });
  afterAll(async () => t.close());

  it('the validator itself rejects what the official schemas reject', () => {
    expect(schemas.check('Space', { object: 'space', id: 'x' })).toMatch(/required property/);
    expect(schemas.check('Organization', { object: 'organization' })).not.toBe('');
    expect(schemas.check('Error', { error: { code: 'x' } })).not.toBe('');
  });

  it('user and organizations', async () => {
    const me = await api.user.getAuthenticatedUser();
    expect(schemas.check('User', me.data)).toBe('');
    expect(me.data.id).toBe(user.id);
    expect(schemas.check('User', (await api.users.getUserById(user.id)).data)).toBe('');

    const created = await api.orgs.createOrganization({ title: 'Contract Org', emailDomains: ['contract.dev'] });
    expect(created.status).toBe(201);
    expect(schemas.check('Organization', created.data)).toBe('');

    const list = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 });
    expect(schemas.checkList('Organization', list.data)).toBe('');

    const got = await api.orgs.getOrganizationById(created.data.id);
    expect(schemas.check('Organization', got.data)).toBe('');

    const patched = await api.orgs.updateOrganizationById(created.data.id, {
      title: 'Contract Org 2',
      hostname: 'contract-org',
      defaultRole: 'read' as never,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
      logo: 'https://example.com/logo.png',
    });
    expect(schemas.check('Organization', patched.data)).toBe('');
    expect(patched.data.title).toBe('Contract Org 2');
  });

  it('collections and spaces, through every operation the client has', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Docs Org' })).data.id;

    const collection = await api.orgs.createCollection(org, { title: 'Guides' });
    expect(collection.status).toBe(201);
    expect(schemas.check('Collection', collection.data)).toBe('');
    const sub = (await api.orgs.createCollection(org, { title: 'Sub', parent: collection.data.id })).data;
    expect(schemas.check('Collection', sub)).toBe('');

    const collections = await api.orgs.listCollectionsInOrganizationById(org, { nested: true });
    expect(schemas.checkList('Collection', collections.data)).toBe('');
    expect(collections.data.count).toBe(2);

    const c2 = await api.collections.updateCollectionById(collection.data.id, { description: 'How-tos', defaultLevel: 'inherit' });
    expect(schemas.check('Collection', c2.data)).toBe('');
    expect(schemas.check('Collection', (await api.collections.getCollectionById(sub.id)).data)).toBe('');

    const space = await api.orgs.createSpace(org, { title: 'Handbook', emoji: '📘', parent: collection.data.id, language: 'en' as never });
    expect(space.status).toBe(201);
    expect(schemas.check('Space', space.data)).toBe('');
    const second = (await api.orgs.createSpace(org, { title: 'Second', parent: collection.data.id })).data;

    expect(schemas.checkList('Space', (await api.orgs.listSpacesInOrganizationById(org)).data)).toBe('');
    expect(schemas.checkList('Space', (await api.collections.listSpacesInCollectionById(collection.data.id)).data)).toBe('');

    const got = await api.spaces.getSpaceById(space.data.id);
    expect(schemas.check('Space', got.data)).toBe('');

    const updated = await api.spaces.updateSpaceById(space.data.id, {
      title: 'Handbook v2',
      editMode: 'locked' as never,
      emoji: '🎉',
      mergeRules: { type: 'inherit' },
    });
    expect(schemas.check('Space', updated.data)).toBe('');

    const moved = await api.spaces.moveSpace(space.data.id, { position: { after: { type: 'space', space: second.id } } });
    expect(schemas.check('Space', moved.data)).toBe('');
    const ordered = await api.collections.listSpacesInCollectionById(collection.data.id);
    expect(ordered.data.items.map((s) => s.id)).toEqual([second.id, space.data.id]);

    const movedCollection = await api.collections.moveCollection(sub.id, { parent: null });
    expect(schemas.check('Collection', movedCollection.data)).toBe('');

    const copy = await api.spaces.duplicateSpace(space.data.id);
    expect(copy.status).toBe(201);
    expect(schemas.check('Space', copy.data)).toBe('');

    const deleted = await api.spaces.deleteSpaceById(copy.data.id);
    expect(deleted.status).toBe(205);
    const restored = await api.spaces.restoreSpace(copy.data.id);
    expect(schemas.check('Space', restored.data)).toBe('');

    const target = (await api.orgs.createOrganization({ title: 'Target Org' })).data.id;
    const transferred = await legacy.spaces.transferSpace(copy.data.id, { organization: target });
    expect(officialValidator('gitbook-api-0167').check('Space', transferred.data)).toBe('');
    expect(transferred.data.organization).toBe(target);

    const tc = await api.collections.transferCollection(sub.id, { organization: target });
    expect(schemas.check('Collection', tc.data)).toBe('');

    expect((await api.collections.deleteCollectionById(collection.data.id)).status).toBe(205);
    expect((await api.collections.deleteCollectionById(collection.data.id)).status).toBe(204);
  });

  it('errors arrive as the official error shape, which the client understands', async () => {
    let caught: unknown;
    try {
      await api.spaces.getSpaceById('does-not-exist');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(GitBookAPIError);
    const err = caught as GitBookAPIError;
    expect(err.code).toBe(404);
    expect(err.message).toMatch(/Space "does-not-exist" not found/);
    const body = await fetch(`${api.endpoint}/v1/spaces/does-not-exist`, { headers: { Authorization: `Bearer ${user.token}` } }).then((r) =>
      r.json(),
    );
    expect(schemas.check('Error', body)).toBe('');
  });
});
