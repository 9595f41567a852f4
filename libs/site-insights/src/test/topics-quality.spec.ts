import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markdownToDocument, readGitbookRepository, type RepositoryPage } from '@app/content-model';
import { standaloneTextClustering } from '@app/conversations';
import { pagePassages } from '@app/sites-and-publishing';
import { VISITOR_QUERIES, type VisitorQuery } from '../../../../test/fixtures/visitor-queries';
import { VISITOR_QUERIES_2 } from '../../../../test/fixtures/visitor-queries-2';
import { VISITOR_QUERIES_3 } from '../../../../test/fixtures/visitor-queries-3';
import { VISITOR_QUERIES_4 } from '../../../../test/fixtures/visitor-queries-4';
import { VISITOR_QUERIES_5 } from '../../../../test/fixtures/visitor-queries-5';
import { VISITOR_QUERIES_6 } from '../../../../test/fixtures/visitor-queries-6';
import { VISITOR_QUERIES_7 } from '../../../../test/fixtures/visitor-queries-7';
import { clusterFigures, shuffled } from '../../../../test/fixtures/cluster-figures';
import { byRarity, identifierWords, PageIndex, Passage } from '../domain/page-context';

/**
 * Site insights' topics (#51) as the service computes them: the conversations' clustering with each query's
 * context (the site's passages a loose search finds for it, their pages and groups, weighted by rarity among the
 * queries), on corpora of visitor queries and the sites they were written for, each written before what it
 * measures. Corpora 1 (the Fluentd docs) and 2 (Quire's own docs as of 337369e) chose the context's weights and
 * corpus 3 (the Brighter docs) measured them once; the three chose the rarity weighting, which corpus 4 (the Pode
 * docs) measured once; corpora 1 to 4 chose to read identifiers as words, which corpus 5 (the Fastify docs) measured
 * once; corpus 6 (the undici docs) measured the method as it then stood, once, and corpus 7 (the same site, real
 * people's reports retold) measured it again, once. The figures are in docs/insights.md.
 */
const clustering = standaloneTextClustering();

/** A Git Sync repository's pages as SitePageTexts gives a site's (title, top-level group, passages), as passages. */
async function sitePassages(dir: string, words = true): Promise<Passage[]> {
  const read = words ? identifierWords : (text: string) => text;
  const paths: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else paths.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  const known = new Set(paths);
  const repository = readGitbookRepository({
    paths: () => paths,
    read: (p) => (known.has(p) && /\.(md|yaml)$/.test(p) ? readFileSync(join(dir, p), 'utf8') : null),
  });
  const passages: Passage[] = [];
  let pages = 0;
  const visit = async (nodes: RepositoryPage[], group: string | null, top: boolean) => {
    for (const node of nodes) {
      const inGroup = group ?? (top && node.pages.length ? node.title : null);
      if (node.kind === 'document') {
        const page = `${pages++}`;
        const document = node.markdown ? markdownToDocument(node.markdown).document : null;
        for (const [n, passage] of pagePassages(node.title, document).entries())
          passages.push({
            id: `${page}#${n}`,
            page,
            group: inGroup,
            titleTerms: await clustering.terms(read(passage.title)),
            textTerms: await clustering.terms(read(passage.text)),
          });
      }
      await visit(node.pages, inGroup, false);
    }
  };
  await visit(repository.pages, null, true);
  return passages;
}

/** 49 and 55 of the 64 queries in a cluster whose majority is their topic. */
const PURITY_2 = 49 / 64;
const PURITY_3 = 55 / 64;

async function figures(queries: readonly VisitorQuery[], index: PageIndex | null, label: string, rarity = true, words = true) {
  const all = [];
  for (const seed of [0, 7, 42]) {
    const order = seed === 0 ? queries.map((_, i) => i) : shuffled(queries.length, seed);
    const texts = order.map((i) => (words ? identifierWords(queries[i].text) : queries[i].text));
    const contexts = [];
    for (const text of texts) contexts.push(index ? index.context(await clustering.terms(text)) : {});
    const assigned = await clustering.cluster(texts, index && rarity ? byRarity(contexts) : contexts);
    const clusterOf = new Array<number>(queries.length);
    order.forEach((i, k) => (clusterOf[i] = assigned[k]));
    const f = clusterFigures(
      queries.map((v) => v.topic),
      clusterOf,
    );
    console.log(
      `${label}, ${seed === 0 ? 'as written' : `shuffled (${seed})`}: ${f.clusters} clusters, purity ${f.purity.toFixed(2)}, ` +
        `(${Math.round(f.purity * queries.length)} of ${queries.length} with their cluster's topic), recovered ${f.recovered}/${f.problems}, ${f.perProblem.toFixed(2)} clusters a topic, worst mix ${(f.worstMix * 100).toFixed(0)} % ` +
        `(${(f.worstMixOfThree * 100).toFixed(0)} % among clusters of three or more)`,
    );
    all.push(f);
  }
  for (const f of all.slice(1)) expect(f).toEqual(all[0]);
  return all[0];
}

describe('topics of visitor queries with the site’s passages as context (held-out corpora)', () => {
  // The figures of docs/insights.md, as floors: a change that makes one worse fails.
  it('corpus 1 (Fluentd, 192 short pages in groups): the places a query leads to group it with its topic', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/fluentd-docs-gitbook'));
    const f = await figures(VISITOR_QUERIES, index, 'corpus 1 with its site');
    // The conversations' purity and recovery targets, met (the algorithm alone: purity 0.81, 6 of 8, 2.38 clusters
    // a topic, a 33 % mix). Identifiers read as words cost two queries (57 → 55 of 64) and the mix target (18 → 29 %).
    expect(f.purity).toBeGreaterThanOrEqual(55 / 64);
    expect(f.recovered).toBe(8);
    expect(f.perProblem).toBeLessThanOrEqual(13 / 8);
    expect(f.worstMix).toBeLessThanOrEqual(0.29);
  }, 120_000);

  it('corpus 2 (Quire’s docs, 17 long pages): better than the algorithm alone', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/quire-docs'));
    const f = await figures(VISITOR_QUERIES_2, index, 'corpus 2 with its site');
    const bare = await figures(VISITOR_QUERIES_2, null, 'corpus 2 alone', true, false);
    expect(f.purity).toBeGreaterThan(bare.purity);
    expect(f.recovered).toBeGreaterThan(bare.recovered);
    expect(f.perProblem).toBeLessThan(bare.perProblem);
    expect(f.worstMix).toBeLessThanOrEqual(bare.worstMix);
    expect(f.purity).toBeGreaterThanOrEqual(PURITY_2);
    expect(f.recovered).toBe(8);
    expect(f.perProblem).toBeLessThanOrEqual(16 / 8);
    expect(f.worstMixOfThree).toBeLessThanOrEqual(0.38);
    expect(f.worstMix).toBeLessThanOrEqual(0.5);
  }, 120_000);

  it('corpus 3 (Brighter): found and pure where the algorithm alone splits its topics', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/brighter-docs'));
    const f = await figures(VISITOR_QUERIES_3, index, 'corpus 3 with its site');
    const bare = await figures(VISITOR_QUERIES_3, null, 'corpus 3 alone', true, false);
    // Identifiers read as words (its pages name many types): one query less with its topic (56 → 55), in 13
    // clusters instead of 16.
    expect(f.purity).toBeGreaterThanOrEqual(PURITY_3);
    expect(f.recovered).toBe(8);
    expect(f.perProblem).toBeLessThanOrEqual(13 / 8);
    expect(f.worstMixOfThree).toBeLessThanOrEqual(0.34);
    expect(f.worstMix).toBeLessThanOrEqual(0.5);
    expect(bare.purity).toBeLessThan(f.purity);
    expect(bare.recovered).toBeLessThan(f.recovered);
  }, 120_000);

  it('corpus 4 (Pode, held out when the rarity weighting was measured; then used to choose identifiers as words)', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/pode-docs'));
    const f = await figures(VISITOR_QUERIES_4, index, 'corpus 4 with its site, by rarity');
    const unweighted = await figures(VISITOR_QUERIES_4, index, 'corpus 4 with its site, unweighted', false);
    const bare = await figures(VISITOR_QUERIES_4, null, 'corpus 4 alone', true, false);
    // Measured once, held out (docs/insights.md): 6 of 8 topics in 10 clusters, purity 0.67 (43 of 64); without
    // the rarity weighting the site's one large group ("Tutorials") pulled everything into 4 clusters (purity
    // 0.36). With its cmdlet names read as words too (`Add-PodeAuth` → add-podeauth, pode, auth): 6 of 8 in 10,
    // purity 0.75 (48 of 64), a 40 % mix. Purity, recovery and mix still miss their targets.
    expect(f.purity).toBeGreaterThanOrEqual(48 / 64);
    expect(f.recovered).toBeGreaterThanOrEqual(6);
    expect(f.perProblem).toBeLessThanOrEqual(10 / 8);
    expect(f.worstMix).toBeLessThanOrEqual(0.4);
    expect(unweighted.purity).toBeLessThan(f.purity);
    expect(bare.recovered).toBeLessThan(f.recovered);
  }, 120_000);

  it('corpus 5 (Fastify, held out: measured once)', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/fastify-docs'));
    const f = await figures(VISITOR_QUERIES_5, index, 'corpus 5 with its site, identifiers as words');
    const before = await figures(
      VISITOR_QUERIES_5,
      PageIndex.of(await sitePassages('test/fixtures/corpora/fastify-docs', false)),
      'corpus 5 with its site, identifiers whole',
      true,
      false,
    );
    const bare = await figures(VISITOR_QUERIES_5, null, 'corpus 5 alone', true, false);
    // Held out (docs/insights.md says how it was measured twice): identifiers read as words found 6 of the 8 topics
    // in 12 clusters where the site's passages with identifiers whole found 4 in 15, at purity 0.61 (39 of 64)
    // against 0.59. Fastify's long reference pages, each on many subjects, lead unrelated queries to the same
    // passages: purity is below the algorithm alone (0.66, though it finds 3 topics in 26 clusters), as on corpus 2.
    // Purity, recovery and mix miss their targets; clusters a topic (1.5) meets it.
    expect(f.purity).toBeGreaterThanOrEqual(39 / 64);
    expect(f.recovered).toBeGreaterThanOrEqual(6);
    expect(f.perProblem).toBeLessThanOrEqual(12 / 8);
    expect(f.worstMix).toBeLessThanOrEqual(0.5);
    expect(before.recovered).toBeLessThan(f.recovered);
    expect(before.perProblem).toBeGreaterThan(f.perProblem);
    expect(bare.purity).toBeGreaterThan(f.purity);
  }, 120_000);

  it('corpus 6 (undici, held out: measured once, with the method as corpus 5 left it)', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/undici-docs'));
    const f = await figures(VISITOR_QUERIES_6, index, 'corpus 6 with its site');
    const bare = await figures(VISITOR_QUERIES_6, null, 'corpus 6 alone', true, false);
    // Held out (docs/insights.md): 6 of 8 topics in 13 clusters, purity 0.78 (50 of 64), a 50 % mix (33 % among
    // clusters of three or more). The algorithm alone is purer (0.83) but splits its topics (28 clusters, 3.50 a
    // topic) and finds 5: the same trade as on the other corpora. Against the targets: purity misses by five
    // queries (55 of 64), recovery by one topic, clusters a topic by one cluster (12), the mix by far.
    expect(f.purity).toBeGreaterThanOrEqual(50 / 64);
    expect(f.recovered).toBeGreaterThanOrEqual(6);
    expect(f.perProblem).toBeLessThanOrEqual(13 / 8);
    expect(f.worstMixOfThree).toBeLessThanOrEqual(0.34);
    expect(f.worstMix).toBeLessThanOrEqual(0.5);
    expect(bare.recovered).toBeLessThan(f.recovered);
    expect(bare.perProblem).toBeGreaterThan(2 * f.perProblem);
  }, 120_000);

  it('corpus 7 (undici, real people’s words, held out: measured once, with the method as corpus 6 measured it)', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/undici-docs'));
    const f = await figures(VISITOR_QUERIES_7, index, 'corpus 7 with its site');
    const bare = await figures(VISITOR_QUERIES_7, null, 'corpus 7 alone', true, false);
    // Held out, and under a rule committed with the corpus (test/fixtures/visitor-queries-7.ts): 6 of 8 topics in
    // 10 clusters, purity 0.77 (49 of 64), a 50 % mix. Clusters a topic (1.25) meets its target; purity (by six
    // queries), recovery (by one topic: pooling and fetch scatter) and the mix do not, so #51 stays open. The
    // algorithm alone finds as many topics in 17 clusters, at purity 0.75.
    expect(f.purity).toBeGreaterThanOrEqual(49 / 64);
    expect(f.recovered).toBeGreaterThanOrEqual(6);
    expect(f.perProblem).toBeLessThanOrEqual(10 / 8);
    expect(f.worstMix).toBeLessThanOrEqual(0.5);
    expect(bare.perProblem).toBeGreaterThan(1.5 * f.perProblem);
  }, 120_000);
});
