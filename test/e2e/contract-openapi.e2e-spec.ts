import { GitBookAPI, OpenAPISpecVisibility } from '@gitbook/api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/** OpenAPI specifications and their versions through the official client. */
describe('contract: OpenAPI specifications', () => {
  let t: TestApp;
  let admin: TestUser;
  let api: GitBookAPI;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '', QUIRE_JOBS: 'on' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('drives every OpenAPI operation with the official client; every answer matches the official schemas', async () => {
    const org = (await api.orgs.createOrganization({ title: 'API Org' })).data.id;
    const text = readFileSync(join(process.cwd(), 'libs/openapi-specs/src/test/fixtures/openapi-3.0-uspto.yaml'), 'utf8');
    const created = await api.orgs.createOpenApiSpec(org, { slug: 'uspto', source: { text } });
    expect(created.status).toBe(201);
    expect(schemas.check('OpenAPISpec', created.data)).toBe('');
    let spec = created.data;
    for (let i = 0; i < 200 && spec.processingState !== 'complete'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      spec = (await api.orgs.getOpenApiSpecBySlug(org, 'uspto')).data;
    }
    expect(spec.processingState).toBe('complete');
    expect(schemas.check('OpenAPISpec', spec)).toBe('');
    expect(schemas.checkList('OpenAPISpec', (await api.orgs.listOpenApiSpecs(org)).data)).toBe('');
    const versions = (await api.orgs.listOpenApiSpecVersions(org, 'uspto')).data;
    expect(schemas.checkList('OpenAPISpecVersion', versions)).toBe('');
    const latest = (await api.orgs.getLatestOpenApiSpecVersion(org, 'uspto')).data;
    expect(schemas.check('OpenAPISpecVersion', latest)).toBe('');
    expect(schemas.check('OpenAPISpecContent', (await api.orgs.getLatestOpenApiSpecVersionContent(org, 'uspto')).data)).toBe('');
    const raw = (await api.orgs.getLatestOpenApiSpecVersionContentRaw(org, 'uspto')).data;
    expect(schemas.check('OpenAPISpecRawContent', raw)).toBe('');
    expect(raw).toEqual({ text, format: 'yaml' });
    expect(schemas.check('OpenAPISpecVersion', (await api.orgs.getOpenApiSpecVersionById(org, 'uspto', latest.id)).data)).toBe('');
    expect(schemas.check('OpenAPISpecContent', (await api.orgs.getOpenApiSpecVersionContentById(org, 'uspto', latest.id)).data)).toBe('');
    const visible = await api.orgs.updateOpenApiSpecBySlug(org, 'uspto', { visibility: OpenAPISpecVisibility.Public });
    expect(schemas.check('OpenAPISpec', visible.data)).toBe('');
    const put = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'uspto', { source: { text } });
    expect(put.status).toBe(200);
    expect(schemas.check('OpenAPISpec', put.data)).toBe('');
    const putNew = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'other', { source: { text } });
    expect(putNew.status).toBe(201);
    expect((await api.orgs.deleteOpenApiSpecBySlug(org, 'other')).status).toBe(205);
    expect((await api.orgs.deleteOpenApiSpecBySlug(org, 'other')).status).toBe(204);
  });
});
