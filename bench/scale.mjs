// npm run bench (also alone: npm run build && node bench/scale.mjs) — not a test. Issue #17: several API
// processes on one PostgreSQL, and what the metrics cost. On one embedded PostgreSQL, seeded with 200
// spaces, measures with autocannon (c=50, 3 s warm-up, BENCH_SECONDS measured):
//   - the ceiling (bare node http + pg, the same single-row query), as every other bench;
//   - GET /v1/spaces/{id} against one API process, then against two processes on the same database
//     (the load generator alternates targets: half the connections each), with the CPU each API process
//     and PostgreSQL used (from /proc: on 2 cores the sum of CPU is the limit, so the factor is recorded,
//     not a target);
//   - the metrics middleware: the same read against a process with QUIRE_METRICS=off and one with
//     QUIRE_METRICS=on, measured off/on/off/on (target: on costs ≤ 3 % rps);
//   - the cost of a scrape of GET /metrics after the load (target: < 5 ms).
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter, cpuOf, load as autocannonRun } from './api.mjs';

const { startEmbeddedPostgres, freePort, clusterDir } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const ROUNDS = 4;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-scale-'));
const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];

/** The postmaster and every process it forked (backends, writer, WAL …). */
function postgresPids() {
  const postmaster = Number(readFileSync(join(clusterDir(dataDir), 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === postmaster) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** Runs `work` and returns its result with the CPU (in cores) the given processes and PostgreSQL used meanwhile. */
async function withCpu(named, work) {
  const pgBefore = new Map(postgresPids().map((p) => [p, cpuOf(p)]));
  const before = named.map(([, pid]) => cpuOf(pid));
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = Object.fromEntries(named.map(([name, pid], i) => [name, (cpuOf(pid) - before[i]) / seconds]));
  let pgCpu = 0;
  for (const pid of postgresPids()) pgCpu += cpuOf(pid) - (pgBefore.get(pid) ?? 0);
  cpu.postgres = pgCpu / seconds;
  return { result, cpu };
}

const start = apiStarter({ databaseUrl: pg.url, dataDir, token: TOKEN, children });
async function startApi(extra) {
  const api = await start(extra);
  return { base: api.url, pid: api.child.pid, child: api.child };
}

function load(url, headers, duration) {
  return autocannonRun({ url, connections: CONNECTIONS, duration, headers });
}

/** A 3 s warm-up (JIT, pools, caches), then the measured run. */
async function cannon(url, headers = {}) {
  await load(url, headers, 3);
  return load(url, headers, DURATION);
}

const pct = (a, b) => `${Math.round((a / b) * 100)} %`;
const cores = (x) => x.toFixed(2);

try {
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const a = await startApi({ QUIRE_METRICS: 'on' });
  const org = (await (await fetch(`${a.base}/v1/orgs`, { headers: auth })).json()).items[0].id;
  const post = (title) =>
    fetch(`${a.base}/v1/orgs/${org}/spaces`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    }).then((r) => r.json());
  const seeded = [];
  for (let i = 0; i < 200; i += 20) seeded.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => post(`Space ${i + j}`)))));
  const spaceId = seeded[0].id;
  const b = await startApi({ QUIRE_METRICS: 'on' });

  const ceilingPort = await freePort();
  const ceiling = fork('bench/ceiling-server.mjs', [], { env: { ...process.env, DATABASE_URL: pg.url, PORT: String(ceilingPort) } });
  children.push(ceiling);
  await new Promise((r) => ceiling.once('message', r));
  const bare = await withCpu([['ceiling', ceiling.pid]], () => cannon(`http://127.0.0.1:${ceilingPort}/spaces/${spaceId}`));
  ceiling.kill('SIGTERM');

  const path = `/v1/spaces/${spaceId}`;
  const one = await withCpu(
    [
      ['api-1', a.pid],
      ['api-2', b.pid],
    ],
    () => cannon(`${a.base}${path}`, auth),
  );
  const two = await withCpu(
    [
      ['api-1', a.pid],
      ['api-2', b.pid],
    ],
    () => cannon([`${a.base}${path}`, `${b.base}${path}`], auth),
  );
  const rows = [
    {
      name: 'ceiling: node http + pg',
      rps: Math.round(bare.result.requests.average),
      p99: bare.result.latency.p99,
      ratio: '100 %',
      cpu: `ceiling ${cores(bare.cpu.ceiling)} + pg ${cores(bare.cpu.postgres)}`,
    },
    {
      name: 'GET /v1/spaces/{id}, one process',
      rps: Math.round(one.result.requests.average),
      p99: one.result.latency.p99,
      ratio: pct(one.result.requests.average, bare.result.requests.average),
      cpu: `api-1 ${cores(one.cpu['api-1'])} + pg ${cores(one.cpu.postgres)}`,
    },
    {
      name: 'GET /v1/spaces/{id}, two processes (alternating)',
      rps: Math.round(two.result.requests.average),
      p99: two.result.latency.p99,
      ratio: pct(two.result.requests.average, bare.result.requests.average),
      cpu: `api-1 ${cores(two.cpu['api-1'])} + api-2 ${cores(two.cpu['api-2'])} + pg ${cores(two.cpu.postgres)}`,
    },
  ];
  console.table(rows);
  console.log(
    `two processes / one: ${(two.result.requests.average / one.result.requests.average).toFixed(2)}× ` +
      `(errors: ${one.result.non2xx + one.result.errors} / ${two.result.non2xx + two.result.errors}); CPU in cores (2 on this machine), ` +
      `the load generator uses the rest`,
  );

  // The metrics middleware: a process with metrics off beside one with them on, measured alternately.
  b.child.kill('SIGTERM');
  // Two fresh processes started together (the seeding process has a history of its own: heap, JIT).
  const [off, on] = await Promise.all([startApi({ QUIRE_METRICS: 'off' }), startApi({ QUIRE_METRICS: 'on' })]);
  a.child.kill('SIGTERM');
  // Rounds of off/on: rps, and CPU milliseconds per request of the API process (steadier than rps
  // on this machine, where the load generator competes for the same cores).
  // Fresh processes take a while to reach their steady state (JIT, pools, caches): 15 s of load each first.
  for (const api of [off, on]) await load(`${api.base}${path}`, auth, 15);
  const runs = { off: [], on: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, api] of [
      ['off', off],
      ['on', on],
    ]) {
      const { result, cpu } = await withCpu([['api', api.pid]], () => cannon(`${api.base}${path}`, auth));
      runs[name].push({ rps: result.requests.average, cpuMs: (cpu.api * 1000) / result.requests.average });
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const rpsOf = (name) => median(runs[name].map((r) => r.rps));
  const cpuPerRequest = (name) => median(runs[name].map((r) => r.cpuMs));
  console.table(
    ['off', 'on'].map((name) => ({
      metrics: name,
      rps: runs[name].map((r) => Math.round(r.rps)).join(', '),
      'CPU ms / request': runs[name].map((r) => r.cpuMs.toFixed(3)).join(', '),
    })),
  );
  console.log(
    `metrics middleware cost (medians of ${ROUNDS}): ${((1 - rpsOf('on') / rpsOf('off')) * 100).toFixed(1)} % rps (target ≤ 3 %), ` +
      `${((cpuPerRequest('on') / cpuPerRequest('off') - 1) * 100).toFixed(1)} % CPU per request`,
  );

  // The middleware's own work, in this process, without the noise of a load test: MetricsService's
  // middleware on a request that matched a route, answered (the 'finish' event), 200,000 times.
  const { MetricsService } = await import('../dist/apps/api/src/metrics/metrics.service.js');
  const { EventEmitter } = await import('node:events');
  const service = new MetricsService({ poolStats: () => ({ total: 0, idle: 0, waiting: 0 }) }, { load: { active: 0, waiting: 0 } });
  const middleware = service.middleware();
  const req = { method: 'GET', baseUrl: '', route: { path: '/v1/spaces/:spaceId' } };
  const N = 200_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const res = new EventEmitter();
    res.statusCode = 200;
    middleware(req, res, () => {});
    res.emit('finish');
  }
  const perRequestUs = Number(process.hrtime.bigint() - t0) / 1e3 / N;
  console.log(
    `metrics middleware alone: ${perRequestUs.toFixed(2)} µs per request ` +
      `(${((perRequestUs / 1000 / cpuPerRequest('off')) * 100).toFixed(2)} % of the ${cpuPerRequest('off').toFixed(3)} ms CPU a request costs)`,
  );

  // A scrape after the load, as Prometheus would: 200 in a row, one at a time.
  const times = [];
  let bytes = 0;
  for (let i = 0; i < 200; i++) {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${on.base}/metrics`);
    bytes = (await res.text()).length;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((x, y) => x - y);
  console.log(
    `GET /metrics: p50 ${times[100].toFixed(2)} ms, p99 ${times[198].toFixed(2)} ms, ${Math.round(bytes / 1024)} kB (target < 5 ms)`,
  );
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0); // the metrics registry of the middleware measurement keeps timers
