// OpenAPI processing (part of npm run bench): the official GitBook document (OpenAPI 3.1, 1.7 MB JSON,
// from the @gitbook/api devDependency) registered as `text` and as a `url` served on loopback; wall time
// from the POST to `processingState: complete` (the job is picked up, fetched, parsed in a worker
// thread and stored). Target: < 10 s each.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { apiStarter } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const RUNS = Number(process.env.BENCH_OPENAPI_RUNS || 3);
const text = readFileSync('node_modules/@gitbook/api/spec/openapi.json', 'utf8');
const yaml = YAML.stringify(JSON.parse(text), { aliasDuplicateObjects: false });

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-openapi-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(text));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const source = `http://127.0.0.1:${server.address().port}/openapi.json`;

try {
  const { url: base } = await startApi({ QUIRE_JOBS: 'on', QUIRE_OPENAPI_URL_ALLOWLIST: '127.0.0.1' });
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const timed = async (slug, src) => {
    const started = performance.now();
    await call('POST', `/v1/orgs/${org}/openapi`, { slug, source: src });
    for (;;) {
      const spec = await call('GET', `/v1/orgs/${org}/openapi/${slug}`);
      if (spec.processingState === 'complete') {
        if (spec.lastProcessErrorCode) throw new Error(`${slug}: ${JSON.stringify(spec.lastProcessedErrors)}`);
        return performance.now() - started;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const rows = [];
  for (let i = 0; i < RUNS; i++) {
    rows.push({
      source: 'text (1.7 MB JSON)',
      run: i + 1,
      seconds: ((await timed(`text-${i}`, { text })) / 1000).toFixed(2),
      target: '< 10',
    });
    rows.push({
      source: `text (${(yaml.length / 1e6).toFixed(1)} MB YAML)`,
      run: i + 1,
      seconds: ((await timed(`yaml-${i}`, { text: yaml })) / 1000).toFixed(2),
      target: '< 10',
    });
    rows.push({
      source: 'url on loopback',
      run: i + 1,
      seconds: ((await timed(`url-${i}`, { url: source })) / 1000).toFixed(2),
      target: '< 10',
    });
  }
  console.table(rows);
  console.log('wall time from POST to complete (job pickup ≤ 0.5 s polling, fetch, parse in a worker thread, store)');
} finally {
  server.close();
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
