// Site insights' topics on a large site (issue #51, part of npm run bench): a site of BENCH_TOPIC_PAGES (2,000)
// pages of real documentation (the five corpora's markdown under test/fixtures/corpora, each page taken again
// under another title until there are enough) and 2,000 distinct searches with no result (the five corpora of
// visitor queries, each in several wordings), the most topics reads (TOPIC_QUERIES_MAX). Measured:
// - the first topics read (the site's passages read and indexed, then the queries clustered), the same read again
//   (kept), and a read after one query more (the index kept, the clustering anew);
// - the API's resident memory before and after the first read (what an index of such a site adds, garbage
//   included), and its peak over the process's life (VmHWM, the import of the pages included);
// - a warm published page served (c=10) while the first read works, against the same page served before: the
//   topics are computed in the built server's worker thread (WorkerTopicsEngine), so the API's thread goes on
//   answering pages. Target: no page waits longer than 1 s, and every page is answered. The page's rate meanwhile
//   is recorded: the worker and the pages share the machine's cores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { apiStarter, corpusPages, load, memoryOf, TOPICS_CORPORA } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const PAGES = Number(process.env.BENCH_TOPIC_PAGES || 2000);
const QUERIES = 2000;
const PER_CHANGE = 50; // a content write takes at most 50 changes

/** QUERIES distinct texts: the corpora of visitor queries, each also with a few words of how people ask around it. */
async function visitorQueries() {
  const texts = [];
  for (const [file, name] of [
    ['visitor-queries', 'VISITOR_QUERIES'],
    ['visitor-queries-2', 'VISITOR_QUERIES_2'],
    ['visitor-queries-3', 'VISITOR_QUERIES_3'],
    ['visitor-queries-4', 'VISITOR_QUERIES_4'],
    ['visitor-queries-5', 'VISITOR_QUERIES_5'],
  ]) {
    const m = await import(`../test/fixtures/${file}.ts`);
    texts.push(...m[name].map((q) => q.text));
  }
  const around = ['', 'how to ', 'example ', 'docs ', 'help with ', ' not working', ' v2', ' tutorial'];
  const out = new Set();
  for (const a of around)
    for (const t of texts) {
      if (out.size >= QUERIES) break;
      out.add(a.startsWith(' ') ? `${t}${a}` : `${a}${t}`);
    }
  return [...out];
}

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-topics-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });

try {
  const { url: base, child } = await startApi({ QUIRE_INSIGHTS_EVENTS_PER_MINUTE: '10000000' });
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.status === 204 || res.status === 205 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Docs' })).id;
  const corpus = corpusPages(TOPICS_CORPORA);
  let characters = 0;
  for (let from = 0; from < PAGES; from += PER_CHANGE) {
    const cr = (await call('POST', `/v1/spaces/${space}/change-requests`, {})).id;
    const changes = [];
    for (let p = from; p < Math.min(PAGES, from + PER_CHANGE); p++) {
      const page = corpus[p % corpus.length];
      characters += page.markdown.length;
      const round = Math.floor(p / corpus.length);
      changes.push({
        operation: 'insert_page',
        title: round ? `${page.title} (${round + 1})` : page.title,
        document: { markdown: page.markdown },
      });
    }
    await call('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, { changes });
    await call('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`);
  }
  const site = (await call('POST', `/v1/orgs/${org}/sites`, { title: 'Site', visibility: 'public' })).id;
  await call('POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { spaceId: space });
  await call('POST', `/v1/orgs/${org}/sites/${site}/publish`);
  // The site's first page (its root answers a redirect to it).
  const landing = await fetch(`${base}/sites/${site}`);
  if (!landing.ok) throw new Error('the site does not answer');
  const pagePath = new URL(landing.url).pathname;

  // The searches with no result, as the site's script sends them.
  const queries = await visitorQueries();
  const search = (query, n) => ({
    type: 'search_type_query',
    query,
    resultsCount: 0,
    session: {
      visitorId: `v${n}`,
      sessionId: `s${n}`,
      ip: `10.0.${(n >> 8) & 255}.${n & 255}`,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      language: 'en-GB',
      referrer: null,
      cookies: {},
    },
    location: {
      url: `https://docs.example.com/sites/${site}`,
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space,
      revision: null,
      page: null,
    },
  });
  for (let i = 0; i < queries.length; i += 100) {
    const res = await fetch(`${base}/v1/orgs/${org}/sites/${site}/insights/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ events: queries.slice(i, i + 100).map((q, k) => search(q, i + k)) }),
    });
    if (res.status !== 204) throw new Error(`events: ${res.status} ${await res.text()}`);
  }

  const topicsPath = `/v1/orgs/${org}/sites/${site}/insights/topics?range=last24Hours&limit=100`;
  const timed = async () => {
    const t0 = performance.now();
    const topics = await call('GET', topicsPath);
    return { ms: performance.now() - t0, topics: topics.items };
  };
  const served = (duration) => load({ url: base, requests: [{ method: 'GET', path: pagePath }], connections: 10, duration });

  await served(3); // warm-up
  const quiet = await served(10);
  if (quiet.non2xx + quiet.errors) throw new Error(`${pagePath}: ${quiet.non2xx + quiet.errors} answers not 200`);
  const before = memoryOf(child.pid);
  // The first read, with the page served meanwhile: the load runs until the read is done.
  let instance;
  const loading = new Promise((resolve, reject) => {
    instance = autocannon({ url: base, requests: [{ method: 'GET', path: pagePath }], connections: 10, duration: 600 }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
  });
  let first;
  try {
    first = await timed();
  } finally {
    instance.stop();
  }
  const busy = await loading;
  const after = memoryOf(child.pid);
  const again = await timed();
  const res = await fetch(`${base}/v1/orgs/${org}/sites/${site}/insights/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ events: [search('one more query about webhooks retries', 99999)] }),
  });
  if (res.status !== 204) throw new Error(`events: ${res.status}`);
  const more = await timed();
  const settled = memoryOf(child.pid);

  const count = first.topics.reduce((s, t) => s + t.queries.length, 0);
  if (more.topics.reduce((s, t) => s + t.queries.length, 0) < count) throw new Error('a query more, fewer queries in topics');
  console.log(
    `site insights' topics: ${PAGES} pages (${(characters / 1e6).toFixed(1)} M characters of the corpora's markdown), ` +
      `${queries.length} distinct searches with no result (the 100 largest topics hold ${count})`,
  );
  const rate = busy.requests.average / quiet.requests.average;
  console.table([
    {
      measure: 'first topics read: passages read and indexed, queries clustered (s)',
      value: (first.ms / 1000).toFixed(1),
      target: 'recorded',
    },
    { measure: 'the same read again, kept (ms)', value: again.ms.toFixed(0), target: 'recorded' },
    { measure: 'after one query more: index kept, clustered anew (s)', value: (more.ms / 1000).toFixed(1), target: 'recorded' },
    {
      measure: 'API resident memory: before / after the first read / peak of its life (MB)',
      value: `${before.rss.toFixed(0)} / ${after.rss.toFixed(0)} / ${settled.peak.toFixed(0)}`,
      target: 'recorded',
    },
    {
      measure: 'warm page (c=10) while topics are computed: rps / rps before',
      value: `${Math.round(busy.requests.average)} / ${Math.round(quiet.requests.average)} = ${rate.toFixed(2)}`,
      target: 'recorded',
    },
    {
      measure: 'warm page: p99 while topics are computed / before (ms)',
      value: `${busy.latency.p99} / ${quiet.latency.p99}`,
      target: 'recorded',
    },
    {
      measure: 'warm page: slowest answer while topics are computed / before (ms)',
      value: `${busy.latency.max} / ${quiet.latency.max}`,
      target: '≤ 1000',
    },
    { measure: 'pages not answered 200 while topics are computed', value: busy.non2xx + busy.errors, target: '0' },
  ]);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
