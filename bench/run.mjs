// npm run bench — not a test. Seeds an organization with 1,000 spaces, then measures with autocannon
// (c=50, 10 s) GET /v1/spaces/{id} and GET /v1/orgs/{id}/spaces?limit=100 against the built server,
// and a bare Node http + pg handler doing the same single-row query as the ceiling.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;
const SPACES = 1000;
const TOKEN = 'bench-token-0123456789abcdef';

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

function row(name, r, ceiling) {
  const rps = r.requests.average;
  return {
    name,
    rps: Math.round(rps),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    ratio: ceiling ? `${Math.round((rps / ceiling) * 100)} %` : '100 %',
  };
}

try {
  const apiPort = await freePort();
  const api = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
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
  ceiling.kill('SIGTERM');
  const get = await cannon(`${base}/v1/spaces/${spaceId}`, auth);
  results.push(row('GET /v1/spaces/{id}', get, bare.requests.average));
  const list = await cannon(`${base}/v1/orgs/${org}/spaces?limit=100`, auth);
  results.push(row('GET /v1/orgs/{id}/spaces?limit=100', list, bare.requests.average));
  console.table(results);
  console.log(`c=${CONNECTIONS}, ${DURATION} s each; latency in ms. Target: GET /v1/spaces/{id} ≥ 40 % of the ceiling.`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
