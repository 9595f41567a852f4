import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clusterDir } from '../../apps/api/src/database/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { startApiProcess } from '../support/process';
import { GIT_PASSWORD, startGitServer } from '../support/git-server';
import { Client } from 'pg';

const run = promisify(execFile);
const MAIN = join(process.cwd(), 'dist/apps/api/src/main.js');
const CLI = join(process.cwd(), 'dist/apps/api/src/cli.js');

/** The built server and CLI, as `npm start` and `npm run cli` run them (npm test builds first). */
describe('the built server and CLI', () => {
  beforeAll(() => {
    if (!existsSync(MAIN) || !existsSync(CLI)) throw new Error('Build first: npm run build (npm test does it)');
  });

  // DATABASE_URL unset: the server starts its embedded PostgreSQL (in QUIRE_DATA_DIR).
  const start = (env: Record<string, string>) => startApiProcess({ DATABASE_URL: '', ...env });

  it('starts on an embedded PostgreSQL, prints a bootstrap token, drains on SIGTERM, and recovers from a SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-proc-'));
    try {
      const first = await start({ QUIRE_DATA_DIR: dataDir });
      const token = /API token:\s+(\S+)/.exec(first.output())?.[1];
      expect(token).toMatch(/^qr_/);
      const orgs = await fetch(`http://127.0.0.1:${first.port}/v1/orgs`, { headers: { Authorization: `Bearer ${token}` } });
      expect(orgs.status).toBe(200);
      // The sign-in link printed beside it opens a session of the admin, once.
      const link = /Sign in:\s+(\S+)/.exec(first.output())?.[1] ?? '';
      expect(link).toMatch(/^\/app\/sign-in\/link#[A-Za-z0-9_-]{43}$/); // PORT=0 here: the path on this server
      const signIn = () =>
        fetch(`http://127.0.0.1:${first.port}/v1/auth/sign-in/link`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: link.split('#')[1] }),
        });
      expect((await signIn()).status).toBe(200);
      expect((await signIn()).status).toBe(401);
      expect(first.output()).toMatch(/"msg":"Quire API listening/);
      expect(await first.stop()).toBe(0);

      // A SIGKILLed server leaves its postgres behind, holding the data dir: the next start recovers it.
      const second = await start({ QUIRE_DATA_DIR: dataDir });
      expect(second.output()).not.toMatch(/API token:/); // not a first start any more
      const pgPid = Number(readFileSync(join(clusterDir(dataDir), 'postmaster.pid'), 'utf8').split('\n')[0]);
      await second.kill('SIGKILL');
      const third = await start({ QUIRE_DATA_DIR: dataDir });
      const again = await fetch(`http://127.0.0.1:${third.port}/v1/user`, { headers: { Authorization: `Bearer ${token}` } });
      expect(again.status).toBe(200);
      expect(() => process.kill(pgPid, 0)).toThrow(); // the orphan was stopped
      expect(await third.stop()).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('SIGKILL while 30 merges run into one space leaves no change request half-merged', async () => {
    const db = await createTestDatabase();
    const token = 'qr_kill_during_merges_0123456789abcdef';
    try {
      const first = await start({
        DATABASE_URL: db.url,
        QUIRE_BOOTSTRAP_TOKEN: token,
        QUIRE_JOBS: 'off',
        QUIRE_RATE_LIMIT_PER_MINUTE: '0',
      });
      const api = (port: number) => async (method: string, path: string, body?: object) => {
        const res = await fetch(`http://127.0.0.1:${port}/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: res.status === 204 ? null : await res.json() };
      };
      const call = api(first.port);
      const org = (await call('GET', '/orgs')).body.items[0].id;
      const space = (await call('POST', `/orgs/${org}/spaces`, { title: 'Killed' })).body;
      const crs: { id: string; title: string }[] = [];
      for (let i = 0; i < 30; i++) {
        const cr = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: `cr ${i}` })).body;
        const title = `Page ${i}`;
        expect(
          (
            await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
              changes: [{ operation: 'insert_page', title, document: { markdown: title } }],
            })
          ).status,
        ).toBe(200);
        crs.push({ id: cr.id, title });
      }
      const merges = crs.map((cr) => call('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`).catch(() => null));
      // Kill the server while the merges are being worked through (some done, some not).
      let done = 0;
      for (const m of merges) void m.then(() => (done += 1));
      while (done < 3) await new Promise((r) => setTimeout(r, 5));
      await first.kill('SIGKILL');
      await Promise.all(merges);

      const second = await start({ DATABASE_URL: db.url, QUIRE_JOBS: 'off', QUIRE_RATE_LIMIT_PER_MINUTE: '0' });
      const again = api(second.port);
      const onMain = new Set((await again('GET', `/spaces/${space.id}/content/pages`)).body.pages.map((p: { title: string }) => p.title));
      let merged = 0;
      for (const cr of crs) {
        const status = (await again('GET', `/spaces/${space.id}/change-requests/${cr.id}`)).body.status;
        // Merged exactly when its page is on main: never one without the other.
        expect([cr.title, status, onMain.has(cr.title)]).toEqual([
          cr.title,
          onMain.has(cr.title) ? 'merged' : 'open',
          onMain.has(cr.title),
        ]);
        if (status === 'merged') merged += 1;
      }
      expect(merged).toBeGreaterThanOrEqual(3);
      expect(onMain.size).toBe(merged);
      // The ones left open merge fine after the restart.
      for (const cr of crs)
        if (!onMain.has(cr.title)) expect((await again('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
      expect((await again('GET', `/spaces/${space.id}/content/pages`)).body.pages).toHaveLength(30);
      expect(await second.stop()).toBe(0);
    } finally {
      await db.drop();
    }
  }, 120_000);

  it('refuses an invalid configuration with a clear message', async () => {
    const result = await run(process.execPath, [MAIN], { env: { ...process.env, PORT: 'eighty' } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toMatch(/Configuration error: PORT must be an integer/);
    // A chosen bootstrap token weaker than a generated one, on an empty database: the first start stops, the
    // message says what to do, and nothing is created.
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-weak-'));
    try {
      const weak = await run(process.execPath, [MAIN], {
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          QUIRE_DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          QUIRE_BOOTSTRAP_TOKEN: 'admin-token-2026-please-change',
        },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(weak).toMatchObject({ code: 1 });
      expect((weak as { stderr: string }).stderr).toMatch(
        /Configuration error: QUIRE_BOOTSTRAP_TOKEN is too weak: 30 characters, at least 32/,
      );
      const c = new Client({ connectionString: db.url });
      await c.connect();
      try {
        expect((await c.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(0);
      } finally {
        await c.end();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  }, 60_000);

  it("site:import makes a whole site from a repository's gitbook-docs.yaml; its spaces' imports wait for the server", async () => {
    const git = await startGitServer();
    const db = await createTestDatabase();
    const env = { ...process.env, DATABASE_URL: db.url, QUIRE_GIT_URL_ALLOWLIST: '127.0.0.1' };
    const cli = async (...args: string[]) =>
      JSON.parse((await run(process.execPath, [CLI, ...args], { env })).stdout.trim().split('\n').pop()!);
    try {
      git.seed('site', null);
      git.commit(
        'site',
        (dir) => {
          mkdirSync(join(dir, 'guides'), { recursive: true });
          writeFileSync(join(dir, 'guides/README.md'), '# Guides\n\nStart here.\n');
          writeFileSync(
            join(dir, 'gitbook-docs.yaml'),
            'site:\n  title: Fluent\n  structure:\n    - type: space\n      key: space-guides\n      title: Guides\n      path: guides\n      default: true\n      content:\n        directory: ./guides\n',
          );
        },
        'A site',
      );
      const user = await cli('user:create', '--email', 'site@example.com');
      const org = await cli('org:create', '--title', 'Site Org', '--owner', user.id);
      const out = await cli('site:import', '--org', org.id, '--user', user.id, '--url', git.authUrl('site'), '--ref', 'refs/heads/main');
      expect(out).toMatchObject({ configPath: 'gitbook-docs.yaml', spaces: [{ key: 'space-guides', created: true, directory: 'guides' }] });
      const pg = new Client({ connectionString: db.url });
      await pg.connect();
      try {
        expect((await pg.query('SELECT title FROM sites WHERE id = $1', [out.site])).rows).toEqual([{ title: 'Fluent' }]);
        const ops = await pg.query('SELECT space_id, direction, state FROM git_sync_operations');
        expect(ops.rows).toEqual([{ space_id: out.spaces[0].spaceId, direction: 'import', state: 'pending' }]);
        expect(JSON.stringify((await pg.query('SELECT * FROM site_git_sync')).rows)).not.toContain(GIT_PASSWORD);
        expect((await pg.query("SELECT action FROM audit_events WHERE action = 'cli.site-import'")).rowCount).toBe(1);
      } finally {
        await pg.end();
      }
      const noUrl = await run(process.execPath, [CLI, 'site:import', '--org', org.id, '--user', user.id, '--ref', 'refs/heads/main'], {
        env,
      }).catch((e) => e);
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toMatch(/--url is required/);
      // A repository without the file: a clear error, and no site left behind.
      git.seed('plain', null);
      git.commit('plain', (dir) => writeFileSync(join(dir, 'README.md'), '# Plain\n'), 'Plain');
      const plain = await run(
        process.execPath,
        [CLI, 'site:import', '--org', org.id, '--user', user.id, '--url', git.authUrl('plain'), '--ref', 'refs/heads/main'],
        {
          env,
        },
      ).catch((e) => e);
      expect(plain.code).not.toBe(0);
      expect(plain.stderr).toMatch(/No gitbook-docs.yaml or docs.yaml/);
      const check = new Client({ connectionString: db.url });
      await check.connect();
      try {
        expect((await check.query('SELECT count(*)::int AS n FROM sites')).rows).toEqual([{ n: 1 }]);
      } finally {
        await check.end();
      }
    } finally {
      await git.close();
      await db.drop();
    }
  }, 60_000);

  it('the CLI creates users, organizations, memberships and tokens, and revokes tokens', async () => {
    const db = await createTestDatabase();
    const env = { ...process.env, DATABASE_URL: db.url };
    const cli = async (...args: string[]) =>
      JSON.parse((await run(process.execPath, [CLI, ...args], { env })).stdout.trim().split('\n').pop()!);
    try {
      const user = await cli('user:create', '--email', 'ops@example.com', '--name', 'Ops');
      expect(user).toMatchObject({ email: 'ops@example.com', displayName: 'Ops' });
      const org = await cli('org:create', '--title', 'Ops Org', '--owner', 'ops@example.com');
      const reader = await cli('user:create', '--email', 'reader@example.com');
      await cli('member:add', '--org', org.id, '--user', reader.id, '--role', 'read');
      const token = await cli('token:create', '--user', 'reader@example.com', '--label', 'ci', '--expires-in-days', '30');
      expect(token.token).toMatch(/^qr_/);
      expect(token.prefix).toBe(token.token.slice(0, 11));
      const listed = await cli('token:list', '--user', reader.id);
      expect(listed).toMatchObject({ id: token.id, label: 'ci', revokedAt: null });
      expect(JSON.stringify(listed)).not.toContain(token.token);
      const revoked = await cli('token:revoke', '--id', token.id);
      expect(revoked.revokedAt).toEqual(expect.any(String));
      const link = await cli('user:sign-in-link', '--user', 'reader@example.com');
      expect(link).toMatchObject({ user: reader.id, expiresAt: expect.any(String) });
      expect(link.link).toMatch(/\/app\/sign-in\/link#[A-Za-z0-9_-]{43}$/);
      const bad = await run(process.execPath, [CLI, 'member:add', '--org', org.id, '--user', reader.id, '--role', 'owner'], { env }).catch(
        (e) => e,
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--role must be one of/);
      const unknown = await run(process.execPath, [CLI, 'frobnicate'], { env }).catch((e) => e);
      expect(unknown.code).toBe(2);
      // import reads the repository and names what it cannot write into (the space here), writing nothing.
      const corpus = join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook');
      const noSpace = await run(process.execPath, [CLI, 'import', '--space', 'nope', '--user', user.id, '--dir', corpus], { env }).catch(
        (e) => e,
      );
      expect(noSpace.code).not.toBe(0);
      expect(noSpace.stderr).toMatch(/Space "nope" not found/);
      const noDir = await run(process.execPath, [CLI, 'import', '--space', 'nope', '--user', user.id], { env }).catch((e) => e);
      expect(noDir.code).toBe(2);
      expect(noDir.stderr).toMatch(/--dir is required/);
      const exportDir = mkdtempSync(join(tmpdir(), 'quire-cli-export-'));
      const noExport = await run(process.execPath, [CLI, 'export', '--space', 'nope', '--user', user.id, '--dir', exportDir], {
        env,
      }).catch((e) => e);
      expect(noExport.code).not.toBe(0);
      expect(noExport.stderr).toMatch(/Space "nope" not found/);
      rmSync(exportDir, { recursive: true, force: true });
      // Every write of the CLI left one audit event (actor: the system, source: script); the refused one none.
      const pg = new Client({ connectionString: db.url });
      await pg.connect();
      try {
        const { rows } = await pg.query(
          'SELECT action, organization_id, actor_type, actor_id, source, target_id FROM audit_events ORDER BY seq',
        );
        expect(rows.map((r) => r.action)).toEqual([
          'cli.user-create',
          'cli.org-create',
          'cli.user-create',
          'cli.member-add',
          'cli.token-create',
          'cli.token-revoke',
          'cli.user-sign-in-link',
        ]);
        expect(rows[1]).toMatchObject({
          organization_id: org.id,
          actor_type: 'system',
          actor_id: 'cli',
          source: 'script',
          target_id: org.id,
        });
        expect(rows[3]).toMatchObject({ organization_id: org.id, target_id: reader.id });
      } finally {
        await pg.end();
      }
    } finally {
      await db.drop();
    }
  }, 60_000);

  it('secrets:rotate seals every stored secret under a new key of the data dir; a plaintext one left from before is sealed too', async () => {
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-cli-keys-'));
    const env = { ...process.env, DATABASE_URL: db.url, QUIRE_DATA_DIR: dataDir };
    const cli = async (...args: string[]) =>
      JSON.parse((await run(process.execPath, [CLI, ...args], { env })).stdout.trim().split('\n').pop()!);
    const pg = new Client({ connectionString: db.url });
    try {
      await run(process.execPath, [CLI, 'migrate'], { env });
      await pg.connect();
      await pg.query(
        `INSERT INTO webhooks (id, organization_id, url, events, active, secret, created_by, created_at, updated_at)
         VALUES ('w1', 'o1', 'https://example.com/hook', '{*}', true, 'whsec_plaintext_from_an_older_version_0000', 'u1', now(), now())`,
      );
      const rotated = await cli('secrets:rotate');
      expect(rotated).toMatchObject({ keyId: expect.stringMatching(/^[0-9a-f]{12}$/), resealed: 1, newKey: true });
      const { rows } = await pg.query<{ secret: string }>('SELECT secret FROM webhooks');
      expect(rows[0].secret.startsWith(`qenc:v1:${rotated.keyId}:`)).toBe(true);
      const keys = readFileSync(join(dataDir, 'secret.keys'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'));
      expect(keys).toHaveLength(2);
      const audit = await pg.query<{ action: string; target_id: string }>(
        `SELECT action, target_id FROM audit_events WHERE action = 'cli.secrets-rotate'`,
      );
      expect(audit.rows).toEqual([{ action: 'cli.secrets-rotate', target_id: rotated.keyId }]);
    } finally {
      await pg.end();
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  }, 60_000);
});
