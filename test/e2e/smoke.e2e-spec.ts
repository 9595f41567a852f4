import { createTestApp, TestApp } from '../support/app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers GET /v1/user for a token', async () => {
    const u = await t.user('alice');
    const res = await t.http.get('/v1/user').set(u.auth).expect(200);
    expect(res.body).toMatchObject({ object: 'user', id: u.id, email: u.email });
  });
});
