// Shared by the bench scripts: start the built API on a bench database and wait until it is ready.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const { freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
// The V8 flags `npm start` and the image run the API with (apps/api/src/runtime-flags.ts).
const { NODE_FLAGS } = await import('../dist/apps/api/src/runtime-flags.js');

/** Starts an API process (extra environment on top of the bench defaults); returns its URL and process. */
export async function startApi({ databaseUrl, dataDir, token, extra = {}, nodeArgs = [] }) {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_FLAGS, ...nodeArgs, 'dist/apps/api/src/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      QUIRE_JOBS: 'off',
      QUIRE_RATE_LIMIT_PER_MINUTE: '0',
      QUIRE_BOOTSTRAP_TOKEN: token,
      QUIRE_DATA_DIR: dataDir,
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child };
}

/**
 * A starter bound to one bench database: each process it starts is added to `children` (stopped at the
 * end). `nodeArgs` go to node itself (e.g. `--cpu-prof --cpu-prof-dir=…` to profile the API).
 */
export function apiStarter({ databaseUrl, dataDir, token, children }) {
  return async (extra = {}, nodeArgs = []) => {
    const api = await startApi({ databaseUrl, dataDir, token, extra, nodeArgs });
    children.push(api.child);
    return api;
  };
}

const TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux

/** CPU seconds (user + system) of a process so far. */
export function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0; // gone
  }
}

/** Resident memory of a process, in MB: now (VmRSS) and at its peak (VmHWM). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** autocannon as a promise. */
export function load(opts) {
  return new Promise((resolve, reject) => autocannon(opts, (err, r) => (err ? reject(err) : resolve(r))));
}

/** GETs `path` (or several paths in turn) with `connections` for BENCH_SECONDS (default 10) after a 3 s warm-up. */
export async function cannon(base, path, headers, connections = 50) {
  const requests = (Array.isArray(path) ? path : [path]).map((p) => ({ method: 'GET', path: p }));
  const duration = Number(process.env.BENCH_SECONDS || 10);
  await load({ url: base, requests, headers, connections, duration: 3 });
  return load({ url: base, requests, headers, connections, duration });
}

/** A row of a result table: rps, latencies, errors and the ratio to the ceiling measured in the same run. */
export function resultRow(ceiling) {
  return (read, r, target) => ({
    read,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    'p97.5': r.latency.p97_5,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    ratio: (r.requests.average / ceiling.requests.average).toFixed(2),
    target,
  });
}

/**
 * The ceiling of a published page: `bytes` answered by a bare node http server in its own process (as the API
 * runs in its own), GETed by `cannon` like the page itself. Resolves to cannon's result.
 */
export async function bareBytesCeiling(bytes, connections = 50) {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-bytes-'));
  const file = join(dir, 'page');
  writeFileSync(file, bytes);
  const port = await freePort();
  const child = fork('bench/bytes-server.mjs', [], { env: { ...process.env, BYTES_FILE: file, PORT: String(port) } });
  try {
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', reject);
    });
    return await cannon(`http://127.0.0.1:${port}`, '/', {}, connections);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The five corpora under test/fixtures/corpora the topics figures in docs/benchmarks.md were measured with
 * (undici-docs came after).
 */
export const TOPICS_CORPORA = ['brighter-docs', 'fastify-docs', 'fluentd-docs-gitbook', 'pode-docs', 'quire-docs'];

/** Every markdown page of the corpora, with its title (its first heading, else its file name). */
export function corpusPages(corpora) {
  const pages = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md') && name !== 'SUMMARY.md') {
        const markdown = readFileSync(p, 'utf8');
        const heading = /^#\s+(.+)$/m.exec(markdown);
        pages.push({ title: (heading ? heading[1] : name.replace(/\.md$/, '')).slice(0, 100), markdown });
      }
    }
  };
  for (const corpus of corpora) walk(join('test/fixtures/corpora', corpus));
  return pages;
}
