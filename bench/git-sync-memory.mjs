// An import over Git Sync holds one file in memory at a time (issue #48, part of npm run bench): a generated
// repository the size of a real large one (460 MB in 4,650 files: 744 pages and 3,906 assets of incompressible
// bytes, as images are) served by Debian's git http-backend on loopback, imported into a space through the
// official git/import operation. The API runs in its own process; its resident memory is read from /proc
// (VmRSS while it works, VmHWM for the peak). Targets: peak ≤ idle + 400 MB; a minute later within 100 MB of idle.
// BENCH_GIT_MB=… makes the repository smaller (or larger) while working on it.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter, memoryOf } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const TOTAL_MB = Number(process.env.BENCH_GIT_MB || 460);
const PAGES = 744;
const ASSETS = 3906;
const ASSET_BYTES = Math.floor((TOTAL_MB * 1024 * 1024) / ASSETS);

const work = mkdtempSync(join(tmpdir(), 'quire-bench-gitmem-'));
const dataDir = join(work, 'data');
mkdirSync(dataDir);
const git = (cwd, ...args) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  }).toString();

/** PAGES pages in 24 folders, each page showing some of the ASSETS assets; one commit in a bare repository. */
function generate() {
  const src = join(work, 'src');
  mkdirSync(join(src, '.gitbook', 'assets'), { recursive: true });
  for (let a = 0; a < ASSETS; a++) writeFileSync(join(src, '.gitbook', 'assets', `asset-${a}.bin`), randomBytes(ASSET_BYTES));
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  writeFileSync(join(src, 'README.md'), '# Home\n\nA large generated handbook.\n');
  const perFolder = Math.ceil((PAGES - 1) / 24);
  for (let p = 1; p < PAGES; p++) {
    const folder = `part-${Math.floor(p / perFolder)}`;
    mkdirSync(join(src, folder), { recursive: true });
    const assets = [0, 1, 2, 3, 4].map((k) => `[file ${k}](../.gitbook/assets/asset-${(p * 5 + k) % ASSETS}.bin)`).join(', ');
    writeFileSync(
      join(src, folder, `page-${p}.md`),
      `# Page ${p}\n\nTopic ${p}, with its files: ${assets}.\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n`,
    );
    summary.push(`* [Page ${p}](${folder}/page-${p}.md)`);
  }
  writeFileSync(join(src, 'SUMMARY.md'), summary.join('\n') + '\n');
  const bare = join(work, 'repos', 'big.git');
  mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--bare', '--quiet');
  git(src, 'init', '--quiet');
  git(src, 'add', '-A');
  git(src, 'commit', '--quiet', '-m', 'The large handbook');
  git(src, 'push', '--quiet', bare, 'HEAD:refs/heads/main');
  rmSync(src, { recursive: true, force: true });
  return join(work, 'repos');
}

/** git http-backend behind a small CGI bridge (streams both ways: the bench process stays small too). */
function serve(root) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('/usr/lib/git-core/git-http-backend', [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    cgi.stdout.on('data', (chunk) => {
      if (!started) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        started = true;
        let status = 200;
        for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
          const at = line.indexOf(':');
          if (line.slice(0, at).toLowerCase() === 'status')
            status = Number(
              line
                .slice(at + 1)
                .trim()
                .split(' ')[0],
            );
          else res.setHeader(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        res.writeHead(status);
        chunk = head.subarray(end + 4);
      }
      if (!res.write(chunk)) {
        cgi.stdout.pause();
        res.once('drain', () => cgi.stdout.resume());
      }
    });
    cgi.on('close', () => res.end());
    cgi.stderr.resume();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const db = await startEmbeddedPostgres({ dataDir: join(work, 'pg'), persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });
let server;
try {
  const t0 = Date.now();
  const root = generate();
  console.log(
    `generated ${PAGES} pages and ${ASSETS} assets of ${(ASSET_BYTES / 1024).toFixed(0)} kB in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  server = await serve(root);
  const remote = `http://127.0.0.1:${server.address().port}/big.git`;
  const { url: base, child } = await startApi({ QUIRE_GIT_URL_ALLOWLIST: '127.0.0.1', QUIRE_JOBS: 'on' });
  console.log(`the API listens at ${base}`);
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Large' })).id;
  await sleep(5000);
  const idle = memoryOf(child.pid).rss;
  const started = Date.now();
  await call('POST', `/v1/spaces/${space}/git/import`, { url: remote, ref: 'refs/heads/main' });
  let info;
  for (let i = 1; ; i++) {
    await sleep(500);
    info = await call('GET', `/v1/spaces/${space}/git/info`);
    if (info.operation && info.operation.state !== 'running') break;
    if (i % 20 === 0) console.log(`… ${i / 2} s, ${memoryOf(child.pid).rss.toFixed(0)} MB`, JSON.stringify(info.operation ?? null));
  }
  const seconds = (Date.now() - started) / 1000;
  if (info.operation.state !== 'success') throw new Error(`the import failed: ${info.operation.error}`);
  const { peak, rss: after } = memoryOf(child.pid);
  const pages = (await call('GET', `/v1/spaces/${space}/content`)).pages.length;
  await sleep(60_000);
  const later = memoryOf(child.pid).rss;
  console.table([
    {
      measure: `import over Git Sync, ${TOTAL_MB} MB (${PAGES} pages, ${ASSETS} assets)`,
      value: `${seconds.toFixed(1)} s`,
      target: '≤ 62 s (before)',
    },
    { measure: 'resident memory, idle', value: `${idle.toFixed(0)} MB`, target: '' },
    { measure: 'resident memory, peak', value: `${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)})`, target: '≤ idle + 400 MB' },
    { measure: 'resident memory, at the end', value: `${after.toFixed(0)} MB (+${(after - idle).toFixed(0)})`, target: '' },
    {
      measure: 'resident memory, a minute later',
      value: `${later.toFixed(0)} MB (+${(later - idle).toFixed(0)})`,
      target: '≤ idle + 100 MB',
    },
  ]);
  console.log(`${pages} root pages in the space after the merge; the API's peak is the process's own (VmHWM), git's children apart.`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  server?.close();
  await sleep(500);
  await db.stop();
  rmSync(work, { recursive: true, force: true });
}
