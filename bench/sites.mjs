// The published site (part of npm run bench), beside the bare node http + pg ceiling in the same run:
// GET /orgs/{id}/sites/{siteId}/published on a site of 20 sections × 10 site spaces (200 spaces), c=50;
// target ≥ 0.30 of the ceiling. Everything is written through the API.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter, cannon, resultRow } from './api.mjs';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const SECTIONS = 20;
const PER_SECTION = 10;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-sites-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });

try {
  const { url: base } = await startApi();
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const spaces = [];
  for (let i = 0; i < SECTIONS * PER_SECTION; i++)
    spaces.push((await call('POST', `/v1/orgs/${org}/spaces`, { title: `Space ${i + 1}` })).id);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Benchmark site', visibility: 'share-link' });
  const path = `/v1/orgs/${org}/sites/${site.id}`;
  for (let s = 0; s < SECTIONS; s++) {
    const section = await call('POST', `${path}/sections`, { spaceId: spaces[s * PER_SECTION], title: `Section ${s + 1}` });
    for (let k = 1; k < PER_SECTION; k++)
      await call('POST', `${path}/site-spaces`, { spaceId: spaces[s * PER_SECTION + k], sectionId: section.id });
  }
  const link = await call('POST', `${path}/share-links`, { name: 'Bench' });
  await call('POST', `${path}/publish`);
  const sample = await fetch(`${base}${path}/published?shareKey=${link.key}`, { headers: auth });
  const bytes = (await sample.arrayBuffer()).byteLength;
  console.log(`site of ${SECTIONS} sections × ${PER_SECTION} site spaces; published answer ${Math.round(bytes / 1024)} kB`);

  const ceilingPort = await freePort();
  const ceiling = fork('bench/ceiling-server.mjs', [], { env: { ...process.env, DATABASE_URL: db.url, PORT: String(ceilingPort) } });
  children.push(ceiling);
  await new Promise((r) => ceiling.once('message', r));
  const bare = await cannon(`http://127.0.0.1:${ceilingPort}`, `/spaces/${spaces[0]}`, {}, 50);
  ceiling.kill('SIGTERM');

  const published = await cannon(base, `${path}/published?shareKey=${link.key}`, auth, 50);
  const row = resultRow(bare);
  console.table([
    row('ceiling: node http + pg, same row (c=50)', bare, ''),
    row(`GET …/sites/{id}/published (${SECTIONS}×${PER_SECTION}, share key, c=50)`, published, '≥ 0.30'),
  ]);
  console.log(`${DURATION} s each after a 3 s warm-up; latency in ms; ratio = rps / ceiling rps in this run.`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
