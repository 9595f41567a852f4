// The warm page alone (issue #48), quick to run while working on it: a small page and the 64 kB README page, each
// beside a bare node http server answering the same bytes in the same run. `npm run bench` runs the same rows in
// bench/visitor-site.mjs; this script is not part of it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter, bareBytesCeiling, cannon, resultRow } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const README = 'libs/content-model/src/test/fixtures/real-markdown/__jsdevtools__ono__README.md';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-warm-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });
try {
  // BENCH_PROFILE=dir: the API writes a CPU profile there when it stops.
  const { url: base } = await startApi({}, process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []);
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const siteOf = async (title, markdown) => {
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title })).id;
    const cr = (await call('POST', `/v1/spaces/${space}/change-requests`, {})).id;
    await call('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Page', document: { markdown } }],
    });
    await call('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`);
    const site = await call('POST', `/v1/orgs/${org}/sites`, { title, visibility: 'public' });
    await call('POST', `/v1/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: space });
    await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`);
    return `/sites/${site.id}/`; // the first page
  };
  const rows = [];
  for (const [name, path] of [
    ['small page', await siteOf('Small', 'A short page: **one** paragraph.')],
    ['README page', await siteOf('README', readFileSync(README, 'utf8'))],
  ]) {
    const bytes = Buffer.from(await (await fetch(base + path)).arrayBuffer());
    const bare = await bareBytesCeiling(bytes);
    const warm = await cannon(base, path, {}, 50);
    const row = resultRow(bare);
    rows.push(
      row(`ceiling, ${(bytes.length / 1024).toFixed(1)} kB`, bare, ''),
      row(`warm ${name}, ${(bytes.length / 1024).toFixed(1)} kB`, warm, '≥ 0.50'),
    );
  }
  console.table(rows);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
