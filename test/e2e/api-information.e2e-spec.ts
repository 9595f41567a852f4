import { readFileSync, statSync } from 'node:fs';
import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';
import { apiInformation } from '../../apps/api/src/health/api-information';
import { loadConfig } from '../../apps/api/src/config';

/** getApiInformation (`GET /v1/`): the release, its build date and the features this instance has. */
describe('API information', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_BUILD_DATE: '2026-11-01T12:00:00Z', QUIRE_METRICS: 'on' });
    user = await t.user('someone');
  });
  afterAll(async () => t.close());

  it('answers any valid token with the package’s version, the build date and the configured features, as the official client reads it', async () => {
    const { port } = t.app.getHttpServer().address() as { port: number };
    const api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: user.token });
    const res = await api.getApiInformation();
    expect(res.status).toBe(200);
    expect(officialValidator().check('ApiInformation', res.data)).toBe('');
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(res.data).toEqual({ version, build: '2026-11-01T12:00:00.000Z', features: expect.arrayContaining(['metrics']) });
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', '/v1', 200, res.data)).toEqual([]);
    // No token: 401 in the error envelope, as every /v1 operation.
    expectError(await t.http.get('/v1/'), 401, /./);
  });

  it('lists exactly the features the configuration turns on; without a build date, the package’s; a date that is not one stops the start', () => {
    const bare = apiInformation(loadConfig({ QUIRE_APERTIUM: 'off', QUIRE_GIT_POLL_SECONDS: '0' }));
    expect(bare.features).toEqual([]);
    expect(bare.build).toBe(statSync('package.json').mtime.toISOString());
    expect(() => loadConfig({ QUIRE_BUILD_DATE: 'yesterday' })).toThrow(/QUIRE_BUILD_DATE/);
    expect(() => loadConfig({ QUIRE_BUILD_DATE: '1700000000' })).toThrow(/QUIRE_BUILD_DATE/);
    const full = apiInformation(
      loadConfig({
        QUIRE_LLM_URL: 'http://127.0.0.1:9/v1',
        QUIRE_LLM_MODEL: 'm',
        QUIRE_METRICS: 'on',
        QUIRE_GIT_POLL_SECONDS: '60',
      }),
    );
    expect(full.features).toEqual(expect.arrayContaining(['answers', 'translations-llm', 'conversations-llm', 'metrics', 'git-polling']));
    expect(full.features).not.toContain('object-storage');
  });
});
