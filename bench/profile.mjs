// npm run build && node bench/profile.mjs — CPU profile of GET /v1/spaces/{id} under load (c=50, 8 s):
// prints node CPU self-time by package, the way docs/benchmarks.md was worked out.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const dataDir = mkdtempSync(join(tmpdir(), 'qprof-'));
const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
const port = await freePort();
const profDir = mkdtempSync(join(tmpdir(), 'prof-'));
const TOKEN = 'bench-token-0123456789abcdef';
const api = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profDir, 'dist/apps/api/src/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: pg.url,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    QUIRE_JOBS: 'off',
    QUIRE_RATE_LIMIT_PER_MINUTE: '0',
    QUIRE_BOOTSTRAP_TOKEN: TOKEN,
    QUIRE_METRICS: process.env.QUIRE_METRICS ?? 'off', // QUIRE_METRICS=on node bench/profile.mjs: with the metrics middleware
  },
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 300; i++) {
  try {
    if ((await fetch(base + '/health')).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 200));
}
const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
const org = (await (await fetch(`${base}/v1/orgs`, { headers: auth })).json()).items[0].id;
const s = await (
  await fetch(`${base}/v1/orgs/${org}/spaces`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'x' }) })
).json();
const r = await autocannon({ url: `${base}/v1/spaces/${s.id}`, connections: 50, duration: 8, headers: auth });
console.log('rps', r.requests.average);
api.kill('SIGINT');
await new Promise((r) => api.on('exit', r));
await pg.stop();
const file = readdirSync(profDir)[0];
const prof = JSON.parse(readFileSync(join(profDir, file)));
const self = new Map();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = prof.timeDeltas;
const total = dt.reduce((a, b) => a + b, 0);
prof.samples.forEach((id, i) => {
  const n = byId.get(id);
  const cf = n.callFrame;
  const url = cf.url.replace(/.*node_modules\//, '').replace(/\/.*\//, '/');
  const key = url.split('/')[0] || cf.functionName || '(native)';
  self.set(key, (self.get(key) || 0) + dt[i]);
});
const pkgs = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
for (const [k, v] of pkgs) console.log(((v / total) * 100).toFixed(1) + '%', k);
