// Published sites for visitors (part of npm run bench), issue #30's targets, each beside a ceiling measured
// in the same run:
// - a warm page at ≥ 0.50 of a bare node http server answering the same bytes from memory (c=50), for a
//   small page (~2 kB of HTML, issue #48) and for a real 15 kB README with code (~64 kB of HTML);
// - the first render of a 15 kB real page with highlighting: ≤ 15 ms (the first request of each page, a few
//   seconds after the site's first page, as on a running server: the grammars loaded, the site's code
//   tokenized in the background; median and worst of 10 pages);
// - a 5,000-page space: bytes per page (the sidebar), and its pages at ≥ 0.30 of the same ceiling;
// - from merge to served: ≤ 1 s;
// - visitor search p99 < 100 ms at c=10 over 148 real READMEs (the real-markdown fixtures), and 300 pages;
// - memory: the API's resident set after a crawl of every page of both sites (bounded by the read cache).
// Everything is written through the API.
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter, bareBytesCeiling, cannon, resultRow } from './api.mjs';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const FIXTURES = 'libs/content-model/src/test/fixtures/real-markdown';
const BIG_SPACE_PAGES = Number(process.env.BENCH_BIG_SPACE_PAGES || 5000);

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-visitor-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

try {
  const { url: base, child } = await startApi();
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.status === 204 ? null : res.json();
  };
  const merge = async (spaceId, changes) => {
    const cr = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, {})).id;
    const written = await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { changes });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    return written;
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;

  // A space of real READMEs, its 15 kB pages with code noted.
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.md'));
  const real = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Real READMEs' })).id;
  const written = [];
  for (let i = 0; i < files.length; i += 50) {
    const batch = files.slice(i, i + 50).map((f) => ({
      operation: 'insert_page',
      title: f.replace(/\.md$/, ''),
      document: { markdown: readFileSync(join(FIXTURES, f), 'utf8') },
    }));
    written.push(...(await merge(real, batch)).changes);
  }
  const pathsOf = async (spaceId) => {
    const out = new Map();
    const walk = (pages) => pages.forEach((pg) => (out.set(pg.id, pg.path), walk(pg.pages ?? [])));
    walk((await call('GET', `/v1/spaces/${spaceId}/content`)).pages);
    return out;
  };
  const realPaths = await pathsOf(real);
  const slugs = written.map((c) => realPaths.get(c.page.id));
  const sizes = files.map((f) => readFileSync(join(FIXTURES, f), 'utf8'));
  const fifteen = sizes.flatMap((text, i) =>
    text.length > 12_000 && text.length < 18_000 && (text.match(/^```/gm) ?? []).length > 6 ? [i] : [],
  );
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Bench site', visibility: 'public' });
  await call('POST', `/v1/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: real });
  await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`);
  const root = `/sites/${site.id}/`;
  const get = async (path) => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(base + path);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return { ms: ms(t0), body };
  };

  // First renders: the process renders one page (its first: the common grammars, then the code of the
  // site's other pages, are tokenized in the background), a running server's few seconds pass, then the
  // first request of ten other 15 kB pages.
  await get(`${root}${slugs[fifteen[0]]}`);
  await new Promise((r) => setTimeout(r, 3000));
  const firsts = [];
  for (const i of fifteen.slice(1, 11)) firsts.push((await get(`${root}${slugs[i]}`)).ms);
  firsts.sort((a, b) => a - b);

  // Warm pages, each beside its ceiling: a bare node http server (its own process) answering the same bytes from memory.
  const warmAgainst = async (path) => {
    const bytes = (await get(path)).body;
    const bare = await bareBytesCeiling(bytes);
    return { bytes, bare, warm: await cannon(base, path, {}, 50) };
  };
  // A small page (a short page of a one-page space: the page's frame is most of it).
  const small = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Small' })).id;
  await merge(small, [{ operation: 'insert_page', title: 'Hello', document: { markdown: 'A short page: **one** paragraph.' } }]);
  const smallSite = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Small site', visibility: 'public' });
  await call('POST', `/v1/orgs/${org}/sites/${smallSite.id}/site-spaces`, { spaceId: small });
  await call('POST', `/v1/orgs/${org}/sites/${smallSite.id}/publish`);
  const smallPage = await warmAgainst(`/sites/${smallSite.id}/hello`);
  const bigPageWarm = await warmAgainst(`${root}${slugs[fifteen[0]]}`);
  const { bare, warm, bytes: warmBytes } = bigPageWarm;

  // Search at c=10 over the real pages.
  const queries = ['install', 'options', 'license', 'example', 'usage', 'function', 'parser', 'markdown'];
  const search = await cannon(
    base,
    queries.map((q) => `${root}~search?q=${q}`),
    {},
    10,
  );

  // From merge to served: a page changes, the next request shows it.
  const toServed = [];
  for (let k = 0; k < 5; k++) {
    const marker = `marker${k}x${Date.now()}`;
    const t0 = process.hrtime.bigint();
    await merge(real, [{ operation: 'update_page', page: written[1].page.id, document: { markdown: `Changed: ${marker}.` } }]);
    for (;;) {
      if ((await get(`${root}${slugs[1]}`)).body.includes(marker)) break;
    }
    toServed.push(ms(t0));
  }

  // A 5,000-page space: pages in groups of 50 under 100 parents.
  const big = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Big space' })).id;
  const paths = [];
  for (let p = 0; p < BIG_SPACE_PAGES / 50; p++) {
    const changes = [{ operation: 'insert_page', ref: `p${p}`, title: `Chapter ${p + 1}`, document: { markdown: `Chapter ${p + 1}.` } }];
    for (let c = 0; c < 49; c++)
      changes.push({
        operation: 'insert_page',
        into: `p${p}`,
        title: `Topic ${p + 1}.${c + 1}`,
        document: { markdown: `Topic ${p + 1}.${c + 1}: a short page.` },
      });
    await merge(big, changes);
  }
  const bigPaths0 = [...(await pathsOf(big)).values()];
  for (let i = 1; i < bigPaths0.length; i += Math.max(1, Math.floor(bigPaths0.length / 300))) paths.push(bigPaths0[i]);
  const bigSite = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Big site', visibility: 'public' });
  await call('POST', `/v1/orgs/${org}/sites/${bigSite.id}/site-spaces`, { spaceId: big });
  await call('POST', `/v1/orgs/${org}/sites/${bigSite.id}/publish`);
  const bigRoot = `/sites/${bigSite.id}/`;
  const bigPage = await get(`${bigRoot}${paths[0]}`);
  const bigPaths = paths.slice(0, 100).map((p) => `${bigRoot}${p}`);
  for (const p of bigPaths) await get(p);
  const bigLoad = await cannon(base, bigPaths, {}, 50);

  // A crawl of every page of both sites, then the API's resident memory.
  const rss = () => Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
  const before = rss();
  for (const s of slugs) await get(`${root}${s}`);
  const sitemap = (await get(`${bigRoot}sitemap.xml`)).body.toString();
  const all = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  for (const p of all) await get(p);
  const after = rss();

  const row = resultRow(bare);
  console.log(`published site: ${files.length} real READMEs; warm page ${Math.round(warmBytes.length / 1024)} kB of HTML`);
  const smallRow = resultRow(smallPage.bare);
  console.table([
    smallRow(
      `ceiling: node http, the small page's ${(smallPage.bytes.length / 1024).toFixed(1)} kB from memory (c=50)`,
      smallPage.bare,
      '',
    ),
    smallRow(`warm small page, ${(smallPage.bytes.length / 1024).toFixed(1)} kB of HTML (c=50)`, smallPage.warm, '≥ 0.50'),
  ]);
  console.table([
    row('ceiling: node http, the same page from memory (c=50)', bare, ''),
    row(`warm page, 15 kB README with code, ${Math.round(warmBytes.length / 1024)} kB of HTML (c=50)`, warm, '≥ 0.50'),
    row(`${BIG_SPACE_PAGES}-page space, 100 pages in turn (c=50)`, bigLoad, '≥ 0.30'),
    { ...row(`visitor search, ${queries.length} queries in turn (c=10)`, search, 'p99 < 100 ms'), ratio: '' },
  ]);
  console.table([
    {
      measure: 'first render of a 15 kB page with highlighting (median of 10)',
      value: `${firsts[Math.floor(firsts.length / 2)].toFixed(1)} ms`,
      target: '≤ 15 ms',
    },
    { measure: 'first render, worst of 10', value: `${firsts.at(-1).toFixed(1)} ms`, target: '' },
    { measure: 'merge to served (worst of 5)', value: `${Math.max(...toServed).toFixed(0)} ms`, target: '≤ 1000 ms' },
    {
      measure: `bytes per page of the ${BIG_SPACE_PAGES}-page space (the sidebar)`,
      value: `${Math.round(bigPage.body.length / 1024)} kB`,
      target: 'not every page heavy',
    },
    {
      measure: `API resident memory before / after a crawl of ${slugs.length + all.length} pages`,
      value: `${before.toFixed(0)} / ${after.toFixed(0)} MB`,
      target: 'bounded (read cache)',
    },
  ]);
  console.log('10 s each after a 3 s warm-up (BENCH_SECONDS); latency in ms; ratio = rps / ceiling rps in this run.');
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
