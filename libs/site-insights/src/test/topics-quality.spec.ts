import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markdownToDocument, readGitbookRepository, type RepositoryPage } from '@app/content-model';
import { standaloneTextClustering } from '@app/conversations';
import { pagePassages } from '@app/sites-and-publishing';
import { VISITOR_QUERIES, type VisitorQuery } from '../../../../test/fixtures/visitor-queries';
import { VISITOR_QUERIES_2 } from '../../../../test/fixtures/visitor-queries-2';
import { VISITOR_QUERIES_3 } from '../../../../test/fixtures/visitor-queries-3';
import { clusterFigures, shuffled } from '../../../../test/fixtures/cluster-figures';
import { PageIndex, Passage } from '../domain/page-context';

/**
 * Site insights' topics (#51) as the service computes them: the conversations' clustering with each query's
 * context (the site's passages a loose search finds for it, their pages and groups), on three corpora of visitor
 * queries and the sites they were written for, each written before what it measures. Corpora 1 (the Fluentd
 * docs) and 2 (Quire's own docs as of 337369e) chose the context's weights; corpus 3 (the Brighter docs)
 * measured them once. The figures are in docs/insights.md.
 */
const clustering = standaloneTextClustering();

/** A Git Sync repository's pages as SitePageTexts gives a site's (title, top-level group, passages), as passages. */
async function sitePassages(dir: string): Promise<Passage[]> {
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
            titleTerms: await clustering.terms(passage.title),
            textTerms: await clustering.terms(passage.text),
          });
      }
      await visit(node.pages, inGroup, false);
    }
  };
  await visit(repository.pages, null, true);
  return passages;
}

async function figures(queries: readonly VisitorQuery[], index: PageIndex | null, label: string) {
  const all = [];
  for (const seed of [0, 7, 42]) {
    const order = seed === 0 ? queries.map((_, i) => i) : shuffled(queries.length, seed);
    const texts = order.map((i) => queries[i].text);
    const contexts = [];
    for (const text of texts) contexts.push(index ? index.context(await clustering.terms(text)) : {});
    const assigned = await clustering.cluster(texts, contexts);
    const clusterOf = new Array<number>(queries.length);
    order.forEach((i, k) => (clusterOf[i] = assigned[k]));
    const f = clusterFigures(
      queries.map((v) => v.topic),
      clusterOf,
    );
    console.log(
      `${label}, ${seed === 0 ? 'as written' : `shuffled (${seed})`}: ${f.clusters} clusters, purity ${f.purity.toFixed(2)}, ` +
        `recovered ${f.recovered}/${f.problems}, ${f.perProblem.toFixed(2)} clusters a topic, worst mix ${(f.worstMix * 100).toFixed(0)} % ` +
        `(${(f.worstMixOfThree * 100).toFixed(0)} % among clusters of three or more)`,
    );
    all.push(f);
  }
  for (const f of all.slice(1)) expect(f).toEqual(all[0]);
  return all[0];
}

describe('topics of visitor queries with the site’s passages as context (held-out corpora)', () => {
  it('corpus 1 (Fluentd, 192 short pages in groups): the places a query leads to group it with its topic', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/fluentd-docs-gitbook'));
    const f = await figures(VISITOR_QUERIES, index, 'corpus 1 with its site');
    // The conversations' targets, met (the algorithm alone: purity 0.81, 6 of 8, 2.38 clusters a topic, a 33 % mix).
    expect(f.purity).toBeGreaterThanOrEqual(0.85);
    expect(f.recovered / f.problems).toBeGreaterThanOrEqual(5 / 6);
    expect(f.perProblem).toBeLessThanOrEqual(1.5);
    expect(f.worstMix).toBeLessThanOrEqual(0.2);
  }, 120_000);

  it('corpus 2 (Quire’s docs, 17 long pages): better than the algorithm alone on every figure', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/quire-docs'));
    const f = await figures(VISITOR_QUERIES_2, index, 'corpus 2 with its site');
    const bare = await figures(VISITOR_QUERIES_2, null, 'corpus 2 alone');
    expect(f.purity).toBeGreaterThan(bare.purity);
    expect(f.recovered).toBeGreaterThan(bare.recovered);
    expect(f.perProblem).toBeLessThan(bare.perProblem);
    expect(f.worstMix).toBeLessThan(bare.worstMix);
    // The figures the weights were chosen with (docs/insights.md): targets missed by purity, clusters and mix.
    expect(f.purity).toBeGreaterThanOrEqual(47 / 64);
    expect(f.recovered).toBeGreaterThanOrEqual(7);
    expect(f.perProblem).toBeLessThanOrEqual(14 / 8);
    expect(f.worstMix).toBeLessThanOrEqual(1 / 3);
  }, 120_000);

  it('corpus 3 (Brighter, held out: measured once)', async () => {
    const index = PageIndex.of(await sitePassages('test/fixtures/corpora/brighter-docs'));
    const f = await figures(VISITOR_QUERIES_3, index, 'corpus 3 with its site');
    const bare = await figures(VISITOR_QUERIES_3, null, 'corpus 3 alone');
    // Measured once, held out (docs/insights.md): 7 of 8 topics in 11 clusters where the algorithm alone found 3
    // in 28, at the same purity (0.70 against 0.69); the purity and mix targets are missed. These floors are
    // those figures: a change that makes them worse fails.
    expect(f.purity).toBeGreaterThanOrEqual(45 / 64);
    expect(f.recovered).toBeGreaterThanOrEqual(7);
    expect(f.perProblem).toBeLessThanOrEqual(11 / 8);
    expect(f.worstMix).toBeLessThanOrEqual(0.5);
    expect(bare.purity).toBeGreaterThanOrEqual(44 / 64);
    expect(bare.recovered).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
