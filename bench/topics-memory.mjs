// The topics worker's memory (issue #51, part of npm run bench): how much of its heap a site's index takes, so that
// the bounds of site-insights (PASSAGES_KEPT for the indexes a process keeps, PASSAGES_A_SITE for one site) fit in
// its limit (QUIRE_INSIGHTS_TOPICS_MEMORY_MB, 2,048 by default). Sites are built from real documentation (every
// markdown page of the corpora under test/fixtures/corpora, cut into passages as a published site's are, taken
// again under other names until there are enough) and indexed by the built WorkerTopicsEngine, as the server does:
// - one site of 60,000 passages (PASSAGES_KEPT), then one of 150,000 (PASSAGES_A_SITE);
// - two sites of 60,000 passages indexed at once (two large sites read together).
// Measured: the worker's heap in use, at its highest while it indexes (sampled every 200 ms) and once the index is
// built, and the time it took. Target: the highest heap at PASSAGES_A_SITE is at most 75 % of the default limit.
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { corpusPages } from './api.mjs';

const require = createRequire(import.meta.url);
const { markdownToDocument } = require('../dist/libs/content-model/src/index.js');
const { pagePassages } = require('../dist/libs/sites-and-publishing/src/index.js');
const { WorkerTopicsEngine } = require('../dist/libs/site-insights/src/infrastructure/worker-topics-engine.js');
const WORKER = join(import.meta.dirname, '../dist/libs/site-insights/src/infrastructure/topics.worker.js');
const LIMIT_MB = 2048;

/** Every markdown page of the corpora as a site's page: its title and passages. */
function corpusPassages() {
  return corpusPages(readdirSync('test/fixtures/corpora').filter((name) => statSync(join('test/fixtures/corpora', name)).isDirectory()))
    .map(({ title, markdown }) => ({ title, passages: pagePassages(title, markdownToDocument(markdown).document) }))
    .filter((p) => p.passages.length);
}

/** A site of `passages` passages: the corpora's pages again and again, each time under other names. */
function siteOf(corpus, passages) {
  const pages = [];
  let held = 0;
  for (let round = 0; held < passages; round++)
    for (const [n, p] of corpus.entries()) {
      if (held >= passages) break;
      const passagesHere = p.passages.slice(0, passages - held);
      pages.push({
        space: `space-${round}`,
        page: `page-${n}-${round}`,
        title: p.title,
        group: `group-${round % 40}`,
        passages: passagesHere,
      });
      held += passagesHere.length;
    }
  return pages;
}

/** Indexes the sites at once in a new worker; its heap at most while it works, and after. */
async function measure(sites) {
  const engine = new WorkerTopicsEngine(WORKER, LIMIT_MB);
  try {
    const started = Date.now();
    let highest = 0;
    const indexing = Promise.all(sites.map((pages, n) => engine.index(`site-${n}`, pages)));
    const sample = setInterval(async () => {
      const worker = engine.current?.worker;
      if (worker) highest = Math.max(highest, (await worker.getHeapStatistics()).used_heap_size);
    }, 200);
    await indexing;
    clearInterval(sample);
    const after = (await engine.current.worker.getHeapStatistics()).used_heap_size;
    return { seconds: (Date.now() - started) / 1000, highestMb: Math.max(highest, after) / 1e6, afterMb: after / 1e6 };
  } finally {
    await engine.close();
  }
}

const corpus = corpusPassages();
console.log(
  `topics worker memory: ${corpus.length} pages of real documentation, ${corpus.reduce((n, p) => n + p.passages.length, 0)} passages`,
);
const rows = [];
for (const [label, sites] of [
  ['one site, 60,000 passages', [siteOf(corpus, 60_000)]],
  ['one site, 150,000 passages (a site’s most)', [siteOf(corpus, 150_000)]],
  ['two sites of 60,000 passages at once', [siteOf(corpus, 60_000), siteOf(corpus, 60_000)]],
]) {
  const m = await measure(sites);
  rows.push({ label, ...m });
  console.log(`  ${label}: highest heap ${m.highestMb.toFixed(0)} MB, ${m.afterMb.toFixed(0)} MB once built, ${m.seconds.toFixed(1)} s`);
}
const most = rows[1].highestMb;
console.log(
  `  target: a site's most at most 75 % of ${LIMIT_MB} MB: ${((most / LIMIT_MB) * 100).toFixed(0)} % ${most <= 0.75 * LIMIT_MB ? 'met' : 'MISSED'}`,
);
