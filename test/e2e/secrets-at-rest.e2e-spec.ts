import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebhookDeliveries, WebhooksService } from '@app/audit-and-webhooks';
import { Db } from '@app/persistence';
import { rotateSecrets } from '../../apps/api/src/secrets';
import { createTestApp, TestApp, TestUser } from '../support/app';

function verify(secret: string, header: string, rawBody: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Webhook secrets are sealed at rest (AES-256-GCM, key id), survive a key rotation, and plaintext rows from before get sealed. */
describe('secrets at rest', () => {
  let t: TestApp;
  let admin: TestUser;
  let org: string;
  let server: Server;
  let url: string;
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    t = await createTestApp({ QUIRE_WEBHOOK_ALLOWLIST: '127.0.0.1' });
    admin = await t.user('admin');
    org = await t.organization(admin);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  const db = () => t.app.get(Db);
  const create = async () =>
    (
      await t.http
        .post(`/v1/orgs/${org}/webhooks`)
        .set(admin.auth)
        .send({ url, events: ['space.created'] })
        .expect(201)
    ).body as {
      id: string;
      secret: string;
    };
  /** Every row of every table, as text: where a plaintext secret must not be. */
  const everyRow = async () => {
    const tables: { table_name: string }[] = await db().query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    const out: string[] = [];
    for (const { table_name } of tables) {
      const rows: { r: string }[] = await db().query(`SELECT t::text AS r FROM "${table_name}" t`);
      out.push(...rows.map((x) => `${table_name}: ${x.r}`));
    }
    return out.join('\n');
  };
  const pingAndVerify = async (hook: { id: string }, secret: string) => {
    got.length = 0;
    const ping = await t.http.post(`/v1/orgs/${org}/webhooks/${hook.id}/ping`).set(admin.auth).expect(201);
    await t.app.get(WebhookDeliveries).attempt(ping.body.id);
    expect(got).toHaveLength(1);
    return verify(secret, got[0].headers['x-quire-signature'] as string, got[0].body);
  };
  const stored = async () =>
    db().query<{ id: string; secret: string }[]>(`SELECT id, secret FROM webhooks WHERE organization_id = $1 ORDER BY id`, [org]);

  it('no row holds a plaintext secret; a key rotation re-seals every secret and signatures still verify', async () => {
    const a = await create();
    const b = await create();
    const rotatedOwn = (await t.http.patch(`/v1/orgs/${org}/webhooks/${b.id}`).set(admin.auth).send({ rotateSecret: true }).expect(200))
      .body.secret as string;
    const rows = await everyRow();
    for (const secret of [a.secret, b.secret, rotatedOwn]) expect(rows).not.toContain(secret);
    const before = await stored();
    expect(before.every((r) => r.secret.startsWith('qenc:v1:'))).toBe(true);
    const kid = (s: string) => s.split(':')[2];
    expect(new Set(before.map((r) => kid(r.secret))).size).toBe(1);

    // The embedded default: a generated key file in the data dir, mode 0600.
    const keyFile = join(t.config.dataDir, 'secret.keys');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const result = await rotateSecrets(t.config, () => t.app.get(WebhooksService).resealSecrets());
    expect(result).toMatchObject({ resealed: 2, newKey: true });
    const after = await stored();
    expect(after.map((r) => kid(r.secret))).toEqual([result.keyId, result.keyId]);
    expect(result.keyId).not.toBe(kid(before[0].secret));
    expect(
      readFileSync(keyFile, 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toHaveLength(2);
    expect(await everyRow()).not.toContain(a.secret);

    expect(await pingAndVerify(a, a.secret)).toBe(true);
    expect(await pingAndVerify(b, rotatedOwn)).toBe(true);
    expect(await pingAndVerify(b, b.secret)).toBe(false);
    // A second rotation with nothing new to seal writes nothing.
    expect(await t.app.get(WebhooksService).resealSecrets()).toBe(0);
  });

  it('a plaintext secret left by an older version is sealed at start, and still signs', async () => {
    const hook = await create();
    await db().query(`UPDATE webhooks SET secret = 'whsec_legacy_plaintext_secret_0123456789' WHERE id = $1`, [hook.id]);
    expect(await pingAndVerify(hook, 'whsec_legacy_plaintext_secret_0123456789')).toBe(true);
    await t.app.get(WebhooksService).onApplicationBootstrap();
    expect(await everyRow()).not.toContain('whsec_legacy_plaintext_secret_0123456789');
    expect(await pingAndVerify(hook, 'whsec_legacy_plaintext_secret_0123456789')).toBe(true);
  });
});
