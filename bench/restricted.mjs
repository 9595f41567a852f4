// Guests and restricted content (issue #31), part of npm run bench: the organization space list
// (limit=100) and organization search over 1,000 spaces, as a member and as a guest, with nothing
// restricted and then with 10 % restricted (50 spaces in a collection whose default level is null, 50
// spaces with a null level of their own). Each read is a ratio to a bare node http + pg handler reading the
// same page of spaces (bench/ceiling-server.mjs) in the same run. The target: with nothing restricted a
// member's lists cost what an admin's cost (the narrowing adds nothing); restricted, they stay close.
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { apiStarter, cannon, resultRow } from './api.mjs';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const SPACES = 1000;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-restricted-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });
/** The administration CLI on the bench database (users, memberships, tokens). */
const cli = (...args) =>
  JSON.parse(
    execFileSync(process.execPath, ['dist/apps/api/src/cli.js', ...args], {
      env: { ...process.env, DATABASE_URL: db.url, QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString(),
  );

try {
  const { url: base } = await startApi();
  const owner = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const org = (await (await fetch(`${base}/v1/orgs`, { headers: owner })).json()).items[0].id;
  for (let i = 0; i < SPACES; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        fetch(`${base}/v1/orgs/${org}/spaces`, { method: 'POST', headers: owner, body: JSON.stringify({ title: `Space ${i + j}` }) }),
      ),
    );
  }
  const person = (name, role) => {
    const user = cli('user:create', '--email', `${name}@bench.example.com`, '--name', name);
    cli('member:add', '--org', org, '--user', user.id, '--role', role);
    return { id: user.id, auth: { Authorization: `Bearer ${cli('token:create', '--user', user.id).token}` } };
  };
  const member = person('member', 'read');
  const guest = person('guest', 'guest');

  // One indexed page per space; "group3" is on a tenth of them, as a specific word is in real docs.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const spaceIds = (await client.query('SELECT id FROM spaces WHERE organization_id = $1 ORDER BY created_at, id', [org])).rows.map(
    (r) => r.id,
  );
  await client.query(
    `INSERT INTO search_sections (organization_id, space_id, page_id, section, page_title, page_path, title, anchor, body, config, tsv)
     SELECT $1, s.id, 'p-' || s.id, 0, 'Guide', 'guide', 'Guide', NULL, b, 'english', to_tsvector('english', 'Guide ' || b)
     FROM (SELECT id, 'Widgets and gadgets for group' || (n % 10) || ' teams, with setup steps.' AS b
           FROM unnest($2::text[]) WITH ORDINALITY AS u(id, n)) s`,
    [org, spaceIds],
  );
  await client.query(
    `INSERT INTO search_state (space_id, revision, config) SELECT id, revision_id, 'english' FROM spaces WHERE organization_id = $1`,
    [org],
  );
  // The guest is shared 20 spaces directly.
  await client.query(
    `INSERT INTO content_permissions (organization_id, space_id, user_id, role, granted_at) SELECT $1, id, $2, 'read', now() FROM unnest($3::text[]) id`,
    [org, guest.id, spaceIds.slice(0, 200).filter((_, i) => i % 10 === 0)],
  );
  await client.query('VACUUM ANALYZE');

  const ceilingPort = await freePort();
  const ceiling = fork('bench/ceiling-server.mjs', [], { env: { ...process.env, DATABASE_URL: db.url, PORT: String(ceilingPort) } });
  children.push(ceiling);
  await new Promise((r) => ceiling.once('message', r));
  const bare = await cannon(`http://127.0.0.1:${ceilingPort}`, `/orgs/${org}/spaces`, {});
  ceiling.kill('SIGTERM');
  const row = resultRow(bare);
  const list = `/v1/orgs/${org}/spaces?limit=100`;
  const search = `/v1/orgs/${org}/search?query=group3&limit=20`;
  const results = [row('ceiling: node http + pg, the same page of 100 spaces', bare, '')];
  const measure = async (label) => {
    for (const [who, headers] of [
      ['admin', owner],
      ['member', member.auth],
      ['guest', guest.auth],
    ]) {
      results.push(row(`${label}: space list, ${who}`, await cannon(base, list, headers), ''));
      results.push(row(`${label}: search, ${who}`, await cannon(base, search, headers, 10), ''));
    }
  };
  await measure('nothing restricted');

  // 10 % restricted: a collection with a null default level holding 50 spaces, and 50 spaces with a null level.
  const internal = await (
    await fetch(`${base}/v1/orgs/${org}/collections`, { method: 'POST', headers: owner, body: JSON.stringify({ title: 'Internal' }) })
  ).json();
  await fetch(`${base}/v1/collections/${internal.id}`, { method: 'PATCH', headers: owner, body: JSON.stringify({ defaultLevel: null }) });
  await client.query('UPDATE spaces SET parent_id = $1 WHERE id = ANY($2::text[])', [internal.id, spaceIds.slice(500, 550)]);
  await client.query('UPDATE spaces SET default_level = NULL WHERE id = ANY($1::text[])', [spaceIds.slice(900, 950)]);
  await client.query('ANALYZE');
  await client.end();
  const seen = async (headers) => (await (await fetch(`${base}${list}`, { headers })).json()).count;
  console.log(`spaces seen: admin ${await seen(owner)}, member ${await seen(member.auth)}, guest ${await seen(guest.auth)}`);
  await measure('10 % restricted');

  console.table(results);
  console.log(
    'c=50 (lists) and c=10 (search), BENCH_SECONDS each after a 3 s warm-up; ratio = rps / the bare list in this run. ' +
      'Target: with nothing restricted, the member rows match the admin rows.',
  );
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
