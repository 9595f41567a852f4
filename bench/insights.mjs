// Site insights (part of npm run bench), issue #51's targets, beside a ceiling measured in the same run:
// - a warm published page (c=50) while 1,000 insights events a second arrive (trackEventsInSiteById, 20 batches
//   of 50 a second, varied visitors, pages and searches) keeps its ratio to a bare node http server answering
//   the same bytes within 10 % of the ratio measured in the same run without events;
// - every event sent is counted (nothing sampled, nothing lost while pages are served);
// - the events table's growth per million events (its size on disk, indexes included, per event × 1,000,000).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { apiStarter, bareBytesCeiling, cannon, cpuOf, resultRow } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const EVENTS_PER_SECOND = 1000;
const BATCH = 50;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-insights-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });

try {
  const { url: base, child } = await startApi({ QUIRE_INSIGHTS_EVENTS_PER_MINUTE: '10000000' });
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Docs' })).id;
  const cr = (await call('POST', `/v1/spaces/${space}/change-requests`, {})).id;
  await call('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
    changes: [{ operation: 'insert_page', title: 'Hello', document: { markdown: 'A short page: **one** paragraph.' } }],
  });
  await call('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`);
  const site = (await call('POST', `/v1/orgs/${org}/sites`, { title: 'Site', visibility: 'public' })).id;
  await call('POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { spaceId: space });
  await call('POST', `/v1/orgs/${org}/sites/${site}/publish`);
  const page = `/sites/${site}/hello`;
  const bytes = Buffer.from(await (await fetch(base + page)).arrayBuffer());
  const endpoint = `${base}/v1/orgs/${org}/sites/${site}/insights/events`;

  // Varied events as visitors' scripts send them: page views of many pages, searches, feedback.
  let sent = 0;
  const eventAt = (n) => {
    const base = {
      session: {
        visitorId: `v${n % 5000}`,
        sessionId: `s${n % 9000}`,
        ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        userAgent: `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + (n % 30)}.0) Gecko/20100101 Firefox/${100 + (n % 30)}.0`,
        language: 'en-GB',
        referrer: n % 3 ? `https://example.com/from/${n % 50}` : null,
        cookies: {},
      },
      location: {
        url: `https://docs.example.com/sites/${site}/page-${n % 400}?utm_source=s${n % 7}`,
        siteSection: null,
        siteSpace: 'sitesp_bench',
        siteShareKey: null,
        space,
        revision: 'rev',
        page: `page-${n % 400}`,
      },
    };
    if (n % 10 === 0) return { ...base, type: 'search_type_query', query: `query number ${n % 700}`, resultsCount: n % 4 };
    if (n % 25 === 0) return { ...base, type: 'page_post_feedback', feedback: { rating: ['good', 'ok', 'bad'][n % 3] } };
    return { ...base, type: 'page_view' };
  };
  const sendBatch = async () => {
    const events = Array.from({ length: BATCH }, () => eventAt(sent++));
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    if (res.status !== 204) throw new Error(`events: ${res.status} ${await res.text()}`);
  };
  /** Sends EVENTS_PER_SECOND until stopped; resolves to the batches that failed. */
  const stream = () => {
    let failed = 0;
    const timer = setInterval(() => void sendBatch().catch(() => (failed += 1)), 1000 / (EVENTS_PER_SECOND / BATCH));
    return () => {
      clearInterval(timer);
      return failed;
    };
  };

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const tableBytes = async () => Number((await client.query(`SELECT pg_total_relation_size('site_insights_events') AS b`)).rows[0].b);
  const counted = async () =>
    (
      await call('POST', `/v1/orgs/${org}/sites/${site}/insights/events/aggregate`, {
        range: 'last24Hours',
        select: [{ column: 'eventsCount' }],
      })
    ).columns[0].values[0];

  const ceiling = await bareBytesCeiling(bytes);
  const quiet = await cannon(base, page, {}, 50);
  // What the events cost alone: the API's CPU while only they arrive, and this process's (the sender's).
  const pgPids = () =>
    readdirSync('/proc').filter(
      (p) =>
        /^\d+$/.test(p) &&
        (() => {
          try {
            return /postgres/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0')[0]);
          } catch {
            return false;
          }
        })(),
    );
  const pgCpu = () => pgPids().reduce((s, p) => s + cpuOf(Number(p)), 0);
  const cpu0 = cpuOf(child.pid);
  const pg0 = pgCpu();
  const self0 = process.cpuUsage();
  const alone = stream();
  await new Promise((r) => setTimeout(r, 5000));
  alone();
  const apiCpu = (cpuOf(child.pid) - cpu0) / 5;
  const databaseCpu = (pgCpu() - pg0) / 5;
  const u = process.cpuUsage(self0);
  const senderCpu = (u.user + u.system) / 1e6 / 5;
  await new Promise((r) => setTimeout(r, 1500));

  const sizeBefore = await tableBytes();
  const sentBefore = sent;
  const stop = stream();
  const t0 = Date.now();
  const busy = await cannon(base, page, {}, 50);
  const failed = stop();
  const seconds = (Date.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 2500)); // the last batches written (flush interval 1 s)
  const stored = await counted();
  const sizeAfter = await tableBytes();
  const second = await cannon(base, page, {}, 50); // the quiet run again, after: the machine's drift
  const quietRatio = (quiet.requests.average + second.requests.average) / 2 / ceiling.requests.average;
  const busyRatio = busy.requests.average / ceiling.requests.average;
  await client.end();

  const row = resultRow(ceiling);
  console.log(`site insights: a ${(bytes.length / 1024).toFixed(1)} kB page; ${EVENTS_PER_SECOND} events/s in batches of ${BATCH}`);
  console.table([
    row('ceiling: node http, the same page from memory (c=50)', ceiling, ''),
    row('warm page, no events (c=50)', quiet, ''),
    row(`warm page while ${EVENTS_PER_SECOND} events/s arrive (c=50)`, busy, 'within 10 % of no events'),
    row('warm page, no events, again (c=50)', second, ''),
  ]);
  console.table([
    {
      measure: 'warm-page ratio with events / without (mean of the two quiet runs)',
      value: (busyRatio / quietRatio).toFixed(2),
      target: '≥ 0.90',
    },
    { measure: 'events sent / counted (batches refused)', value: `${sent} / ${stored} (${failed})`, target: 'equal, 0 refused' },
    { measure: 'events a second achieved', value: ((sent - sentBefore) / seconds).toFixed(0), target: `${EVENTS_PER_SECOND}` },
    {
      measure: `CPU for ${EVENTS_PER_SECOND} events/s alone: the API / PostgreSQL / the sender (cores)`,
      value: `${apiCpu.toFixed(2)} / ${databaseCpu.toFixed(2)} / ${senderCpu.toFixed(2)}`,
      target: '',
    },
    {
      measure: 'events table growth per million events (indexes included)',
      value: `${((((sizeAfter - sizeBefore) / Math.max(1, stored)) * 1e6) / 1024 / 1024).toFixed(0)} MB`,
      target: 'recorded',
    },
  ]);
  console.log('10 s each after a 3 s warm-up (BENCH_SECONDS); latency in ms; ratio = rps / ceiling rps in this run.');
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
