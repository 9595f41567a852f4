// npm run bench — not a test. Seeds an organization with 1,000 spaces, then measures with autocannon
// (c=50, 10 s) GET /v1/spaces/{id} and GET /v1/orgs/{id}/spaces?limit=100 against the built server,
// and a bare Node http + pg handler doing the same single-row query as the ceiling; then GET
// /v1/spaces/{id} again with 50 teams and 1,050 content grants in the organization. The list is also
// given as a ratio to a bare handler reading the same page (bench/ceiling-server.mjs): what is left to
// the framework, authorization and the response shape.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import postgres from 'pg';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
// The V8 flags `npm start` and the image run the API with.
const { NODE_FLAGS } = await import('../dist/apps/api/src/runtime-flags.js');
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;
const SPACES = 1000;
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];

async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

function load(url, headers, duration) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration, headers }, (err, r) => (err ? reject(err) : resolve(r))),
  );
}

/** A 3 s warm-up (JIT, pools, caches), then the measured run. */
async function cannon(url, headers = {}) {
  await load(url, headers, 3);
  return load(url, headers, DURATION);
}

function row(name, r, ceiling, bareList) {
  const rps = r.requests.average;
  const percent = (of) => `${Math.round((rps / of) * 100)} %`;
  return {
    name,
    rps: Math.round(rps),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    ratio: ceiling ? percent(ceiling) : '100 %',
    'of bare list': bareList ? percent(bareList) : '',
  };
}

try {
  const apiPort = await freePort();
  const api = spawn(process.execPath, [...NODE_FLAGS, 'dist/apps/api/src/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: pg.url,
      PORT: String(apiPort),
      LOG_LEVEL: 'warn',
      QUIRE_JOBS: 'off',
      QUIRE_RATE_LIMIT_PER_MINUTE: '0',
      QUIRE_BOOTSTRAP_TOKEN: TOKEN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(api);
  const base = `http://127.0.0.1:${apiPort}`;
  await waitFor(`${base}/health/ready`);
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const org = (await (await fetch(`${base}/v1/orgs`, { headers: auth })).json()).items[0].id;
  let spaceId;
  for (let i = 0; i < SPACES; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        fetch(`${base}/v1/orgs/${org}/spaces`, { method: 'POST', headers: auth, body: JSON.stringify({ title: `Space ${i + j}` }) }).then(
          (r) => r.json(),
        ),
      ),
    );
    spaceId ??= batch[0].id;
  }
  console.log(`seeded ${SPACES} spaces in organization ${org}`);

  const ceilingPort = await freePort();
  const ceiling = fork('bench/ceiling-server.mjs', [], { env: { ...process.env, DATABASE_URL: pg.url, PORT: String(ceilingPort) } });
  children.push(ceiling);
  await new Promise((r) => ceiling.once('message', r));

  const results = [];
  const bare = await cannon(`http://127.0.0.1:${ceilingPort}/spaces/${spaceId}`);
  results.push(row('ceiling: node http + pg, same row', bare));
  const bareList = await cannon(`http://127.0.0.1:${ceilingPort}/orgs/${org}/spaces`);
  results.push(row('bare list: node http + pg, same page of 100', bareList, bare.requests.average, bareList.requests.average));
  ceiling.kill('SIGTERM');
  const get = await cannon(`${base}/v1/spaces/${spaceId}`, auth);
  results.push(row('GET /v1/spaces/{id}', get, bare.requests.average));
  const list = await cannon(`${base}/v1/orgs/${org}/spaces?limit=100`, auth);
  results.push(row('GET /v1/orgs/{id}/spaces?limit=100', list, bare.requests.average, bareList.requests.average));

  // Content permissions: 200 members, 50 teams (the caller in 10 of them), 1,000 direct grants and a
  // grant per team — the effective role must stay out of the request path (cached per member).
  const client = new postgres.Client({ connectionString: pg.url });
  await client.connect();
  const [{ user_id: me }] = (await client.query('SELECT user_id FROM organization_members WHERE organization_id = $1', [org])).rows;
  const spaceIds = (await client.query('SELECT id FROM spaces WHERE organization_id = $1 ORDER BY id', [org])).rows.map((r) => r.id);
  await client.query(
    `INSERT INTO users (id, email, display_name, created_at) SELECT 'bench-u' || i, 'bench' || i || '@example.com', 'Bench ' || i, now()
     FROM generate_series(1, 200) i`,
  );
  await client.query(
    `INSERT INTO organization_members (organization_id, user_id, role, joined_at) SELECT $1, 'bench-u' || i, 'read', now()
     FROM generate_series(1, 200) i`,
    [org],
  );
  await client.query(
    `INSERT INTO teams (id, organization_id, title, created_at) SELECT 'bench-t' || i, $1, 'Team ' || i, now() FROM generate_series(1, 50) i`,
    [org],
  );
  await client.query(
    `INSERT INTO team_members (team_id, organization_id, user_id, role, added_at)
     SELECT 'bench-t' || t, $1, 'bench-u' || u, 'member', now() FROM generate_series(1, 50) t, generate_series(1, 4) u`,
    [org],
  );
  await client.query(
    `INSERT INTO team_members (team_id, organization_id, user_id, role, added_at) SELECT 'bench-t' || t, $1, $2, 'member', now()
     FROM generate_series(1, 10) t`,
    [org, me],
  );
  await client.query(
    `INSERT INTO content_permissions (organization_id, space_id, user_id, role, granted_at)
     SELECT $1, s.id, 'bench-u' || (1 + (s.n % 200)), 'edit', now()
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM unnest($2::text[]) id) s`,
    [org, spaceIds],
  );
  await client.query(
    `INSERT INTO content_permissions (organization_id, space_id, team_id, role, granted_at)
     SELECT $1, $2, 'bench-t' || i, 'review', now() FROM generate_series(1, 50) i`,
    [org, spaceId],
  );
  await client.query('ANALYZE');
  await client.end();
  const granted = await cannon(`${base}/v1/spaces/${spaceId}`, auth);
  results.push(row('GET /v1/spaces/{id}, 50 teams and 1,050 grants in the organization', granted, bare.requests.average));
  console.table(results);
  console.log(`c=${CONNECTIONS}, ${DURATION} s each; latency in ms. Target: GET /v1/spaces/{id} ≥ 40 % of the ceiling.`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
