import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markdownToDocument, readGitbookRepository, type RepositoryPage } from '@app/content-model';
import { standaloneTextClustering } from '@app/conversations';
import { pageText } from '@app/sites-and-publishing';
import { VISITOR_QUERIES, type VisitorQuery } from '../../../../test/fixtures/visitor-queries';
import { VISITOR_QUERIES_2 } from '../../../../test/fixtures/visitor-queries-2';
import { clusterFigures, shuffled } from '../../../../test/fixtures/cluster-figures';
import { ContextPage, PageIndex } from '../domain/page-context';

/**
 * Site insights' topics (#51) as the service computes them: the conversations' clustering with each query's
 * context (the site's pages a loose search finds for it), on the held-out corpora of visitor queries and the
 * sites they were written for. Corpus 1 (the Fluentd docs) chose the context's weights; corpus 2 (Quire's own
 * docs as of 337369e, written before the context existed) measured them once. The figures are in docs/insights.md.
 */
const clustering = standaloneTextClustering();

/** A Git Sync repository's pages as SitePageTexts gives a site's: title, top-level group, text. */
async function sitePages(dir: string): Promise<ContextPage[]> {
  const paths: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else paths.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  const repository = readGitbookRepository({
    paths: () => paths,
    read: (p) => (paths.includes(p) && /\.(md|yaml)$/.test(p) ? readFileSync(join(dir, p), 'utf8') : null),
  });
  const pages: ContextPage[] = [];
  const visit = async (nodes: RepositoryPage[], group: string | null, top: boolean) => {
    for (const node of nodes) {
      const inGroup = group ?? (top && node.pages.length ? node.title : null);
      if (node.kind === 'document') {
        const text = node.markdown ? pageText(markdownToDocument(node.markdown).document) : '';
        pages.push({
          id: `${pages.length}`,
          group: inGroup,
          titleTerms: await clustering.terms(node.title),
          textTerms: await clustering.terms(text),
        });
      }
      await visit(node.pages, inGroup, false);
    }
  };
  await visit(repository.pages, null, true);
  return pages;
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

describe('topics of visitor queries with the site’s pages as context (held-out corpora)', () => {
  it('corpus 1 (Fluentd): the pages a query leads to group it with its topic', async () => {
    const pages = await sitePages('test/fixtures/corpora/fluentd-docs-gitbook');
    expect(pages.length).toBeGreaterThan(150);
    const f = await figures(VISITOR_QUERIES, PageIndex.of(pages), 'corpus 1 with its site’s pages');
    // The conversations' targets, met (without the pages: purity 0.81, 6 of 8, 2.38 clusters a topic, a 33 % mix).
    expect(f.purity).toBeGreaterThanOrEqual(0.85);
    expect(f.recovered / f.problems).toBeGreaterThanOrEqual(5 / 6);
    expect(f.perProblem).toBeLessThanOrEqual(1.5);
    expect(f.worstMix).toBeLessThanOrEqual(0.2);
  }, 120_000);

  it('corpus 2 (Quire’s own docs): measured once, held out from the choice of the context’s weights', async () => {
    const pages = await sitePages('test/fixtures/corpora/quire-docs');
    expect(pages.length).toBe(17);
    const f = await figures(VISITOR_QUERIES_2, PageIndex.of(pages), 'corpus 2 with its site’s pages');
    const bare = await figures(VISITOR_QUERIES_2, null, 'corpus 2 alone');
    // Measured once (docs/insights.md): the targets are missed. Seventeen long pages, each on many subjects, lead
    // unrelated queries to the same pages: fewer clusters and less mixed than without them, but less pure. These
    // floors are those figures: a change that makes them worse fails.
    expect(f.purity).toBeGreaterThanOrEqual(0.53);
    expect(f.recovered).toBeGreaterThanOrEqual(4);
    expect(f.perProblem).toBeLessThanOrEqual(1.38);
    expect(f.worstMix).toBeLessThanOrEqual(0.34);
    expect(bare.purity).toBeGreaterThanOrEqual(46 / 64);
    expect(bare.recovered).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
