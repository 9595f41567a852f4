// npm run build && node bench/profile.mjs — CPU profile of GET /v1/spaces/{id} under load (c=50, 8 s):
// prints node CPU self-time by package, the way docs/benchmarks.md was worked out.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startApi } from './api.mjs';
const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const dataDir = mkdtempSync(join(tmpdir(), 'qprof-'));
const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
const profDir = mkdtempSync(join(tmpdir(), 'prof-'));
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
// QUIRE_METRICS=on node bench/profile.mjs: with the metrics middleware.
const { url: base, child: api } = await startApi({
  databaseUrl: pg.url,
  dataDir,
  token: TOKEN,
  extra: { QUIRE_METRICS: process.env.QUIRE_METRICS ?? 'off' },
  nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
});
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
