import { GitBookAPI, TranslationLanguage } from '@gitbook/api';
import { TranslationsService } from '@app/translations';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/** Every translation operation through the official client; each answer validated against the official schemas. */
describe('contract: translations', () => {
  let t: TestApp;
  let admin: TestUser;
  let api: GitBookAPI;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('lists, creates, reads, updates, runs and deletes translations as the official client expects', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Translated Org' })).data.id;
    const space = (await api.orgs.createSpace(org, { title: 'Docs' })).data.id;
    const created = await api.orgs.createTranslation(org, {
      language: TranslationLanguage.Es,
      source: { space, language: TranslationLanguage.En },
    });
    expect(created.status).toBe(201);
    expect(schemas.check('Translation', created.data)).toBe('');

    const list = await api.orgs.listTranslations(org, { limit: 10 });
    expect(list.data.items.map((x) => x.id)).toEqual([created.data.id]);
    expect(schemas.check('Translation', list.data.items[0])).toBe('');

    await t.app.get(TranslationsService).run(created.data.id);
    const read = await api.orgs.getTranslation(org, created.data.id);
    expect(schemas.check('Translation', read.data)).toBe('');
    expect(read.data).toMatchObject({ status: 'completed', result: { language: 'es' } });
    expect(schemas.check('TranslationResult', read.data.result)).toBe('');

    const updated = await api.orgs.updateTranslation(org, created.data.id, {
      instructions: { object: 'document', data: {}, nodes: [] } as never,
    });
    expect(updated.status).toBe(200);
    expect(schemas.check('Translation', updated.data)).toBe('');

    expect((await api.orgs.runTranslation(org, created.data.id)).status).toBe(204);
    expect((await api.orgs.deleteTranslation(org, created.data.id)).status).toBe(205);
    expect((await api.orgs.deleteTranslation(org, created.data.id)).status).toBe(204);
    await expect(api.orgs.getTranslation(org, created.data.id)).rejects.toMatchObject({ code: 404 });
  });
});
