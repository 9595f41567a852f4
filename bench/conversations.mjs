// Conversations (part of npm run bench): ingest 10,000 conversations about 500 distinct problems in
// batches of 500 and wait until every one is clustered (target < 60 s on this machine); then
// GET /orgs/{id}/conversations-clusters?limit=100 with 500 clusters, c=50, beside the bare node
// http + pg ceiling in the same run (target ≥ 0.15). Everything goes through the API, except re-clustering the
// 10,000 (`npm run cli -- conversations:recluster`, timed, with the API polled meanwhile). PROF=1 writes the API's CPU
// profile to /tmp/prof.
import { execFile, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter, cannon, resultRow } from './api.mjs';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const CONVERSATIONS = 10_000;
const PROBLEMS = 500;
const BATCH = 500;

// A deterministic corpus: each problem has its own vocabulary (made-up product words), each
// conversation says it in a different order with common support filler around it.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const syllables = ['ka', 'lo', 'mi', 'ra', 'tu', 'ne', 'so', 'vi', 'pe', 'zu', 'da', 'fo', 'gi', 'ha', 'ju', 'be'];
const word = (n) => Array.from({ length: 3 }, (_, i) => syllables[(n >> (i * 4)) % 16]).join('') + 'x';
const problems = Array.from({ length: PROBLEMS }, (_, p) => Array.from({ length: 5 }, (_, k) => word(p * 5 + k + 1000)));
const filler = ['hello', 'please', 'help', 'thanks', 'again', 'today', 'urgent', 'team', 'customers', 'since', 'yesterday'];
const pick = (a) => a[Math.floor(random() * a.length)];
const conversationFor = (i) => {
  const terms = problems[i % PROBLEMS];
  const said = [...terms].sort(() => random() - 0.5).slice(0, 4);
  return {
    id: `bench-${i}`,
    subject: `${said[0]} ${said[1]} problem`,
    metadata: {
      attributes: { source: pick(['intercom', 'zendesk', 'email']) },
      createdAt: new Date(Date.now() - random() * 80 * 86_400_000).toISOString(),
    },
    parts: [{ type: 'message', role: 'user', body: `${pick(filler)}, the ${said.join(' and the ')} ${pick(filler)} ${pick(filler)}.` }],
  };
};

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-conversations-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });

try {
  const { url: base } = await startApi({ QUIRE_JOBS: 'on' }, process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []);
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const started = performance.now();
  for (let from = 0; from < CONVERSATIONS; from += BATCH)
    await call('POST', `/v1/orgs/${org}/conversations`, {
      conversations: Array.from({ length: BATCH }, (_, k) => conversationFor(from + k)),
    });
  const ingested = performance.now();
  // Processing runs in the API's process: how long a request waits meanwhile.
  const waited = [];
  for (;;) {
    const t0 = performance.now();
    const issues = await call('GET', `/v1/orgs/${org}/conversations-issues?limit=1`);
    waited.push(performance.now() - t0);
    if (issues.count >= CONVERSATIONS) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const clustered = performance.now();
  const clusters = await call('GET', `/v1/orgs/${org}/conversations-clusters?limit=1`);
  console.log(
    `ingested ${CONVERSATIONS} conversations in ${((ingested - started) / 1000).toFixed(1)} s; all clustered after ` +
      `${((clustered - started) / 1000).toFixed(1)} s (target < 60 s) into ${clusters.count} clusters (${PROBLEMS} problems); ` +
      `the API answered ${waited.length} polls meanwhile, slowest ${Math.max(...waited).toFixed(0)} ms`,
  );

  // Re-clustering all of them (what the sweep does after an algorithm change), in the CLI's own process; the
  // API keeps answering from the old clusters until the swap commits.
  const reclusterStarted = performance.now();
  const answered = [];
  let reclustering = true;
  const poller = (async () => {
    while (reclustering) {
      const t0 = performance.now();
      await call('GET', `/v1/orgs/${org}/conversations-clusters?limit=1`);
      answered.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const out = await new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['dist/apps/api/src/cli.js', 'conversations:recluster', '--org', org],
      { env: { ...process.env, DATABASE_URL: db.url, QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, maxBuffer: 1 << 20 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
  reclustering = false;
  await poller;
  const after = await call('GET', `/v1/orgs/${org}/conversations-clusters?limit=1`);
  console.log(
    `re-clustered ${JSON.parse(out.trim().split('\n').pop()).conversations} conversations in ` +
      `${((performance.now() - reclusterStarted) / 1000).toFixed(1)} s (CLI process) into ${after.count} clusters; ` +
      `the API answered ${answered.length} polls meanwhile, slowest ${Math.max(...answered).toFixed(0)} ms`,
  );

  const ceilingPort = await freePort();
  const ceiling = fork('bench/ceiling-server.mjs', [], { env: { ...process.env, DATABASE_URL: db.url, PORT: String(ceilingPort) } });
  children.push(ceiling);
  await new Promise((r) => ceiling.once('message', r));
  const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Ceiling row' });
  const bare = await cannon(`http://127.0.0.1:${ceilingPort}`, `/spaces/${space.id}`, {}, 50);
  ceiling.kill('SIGTERM');
  const list = await cannon(base, `/v1/orgs/${org}/conversations-clusters?limit=100`, auth, 50);
  const row = resultRow(bare);
  console.table([
    row('ceiling: node http + pg, same row (c=50)', bare, ''),
    row(`GET …/conversations-clusters?limit=100 (${clusters.count} clusters, c=50)`, list, '≥ 0.15'),
  ]);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
