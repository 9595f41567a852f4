import { VISITOR_QUERIES } from '../../../../test/fixtures/visitor-queries';
import { clusterFigures, shuffled } from '../../../../test/fixtures/cluster-figures';
import { TextClustering } from '../application/text-clustering.service';
import { WinkTextAnalyzer } from '../infrastructure/wink-text-analyzer';

/**
 * Site insights' topics (#51): the clustering algorithm (TextClustering, algorithm 5 unchanged) on a corpus of
 * visitor queries held out from it (test/fixtures/visitor-queries.ts, committed before this test existed).
 * The figures are printed and kept in docs/insights.md.
 */
describe('topics of visitor queries (the conversations algorithm, held-out queries)', () => {
  it('groups the held-out queries: figures in three orders, the same in each, no worse than measured', async () => {
    const clustering = new TextClustering(new WinkTextAnalyzer());
    const all = [];
    for (const seed of [0, 7, 42]) {
      const order = seed === 0 ? VISITOR_QUERIES.map((_, i) => i) : shuffled(VISITOR_QUERIES.length, seed);
      const assigned = await clustering.cluster(order.map((i) => VISITOR_QUERIES[i].text));
      const clusterOf = new Array<number>(VISITOR_QUERIES.length);
      order.forEach((i, k) => (clusterOf[i] = assigned[k]));
      const f = clusterFigures(
        VISITOR_QUERIES.map((v) => v.topic),
        clusterOf,
      );
      console.log(
        `visitor queries, ${seed === 0 ? 'as written' : `shuffled (${seed})`}: ${f.clusters} clusters, purity ${f.purity.toFixed(2)}, ` +
          `recovered ${f.recovered}/${f.problems}, ${f.perProblem.toFixed(2)} clusters a topic, worst mix ${(f.worstMix * 100).toFixed(0)} % ` +
          `(${(f.worstMixOfThree * 100).toFixed(0)} % among clusters of three or more)`,
      );
      all.push(f);
    }
    for (const f of all.slice(1)) expect(f).toEqual(all[0]);
    // Measured once, held out (docs/insights.md): the conversations' targets are missed (purity 0.81, 6 of 8 topics,
    // 2.38 clusters a topic, a 33 % mix). These floors are those figures: a change that makes them worse fails.
    expect(all[0].purity).toBeGreaterThanOrEqual(0.81);
    expect(all[0].recovered).toBeGreaterThanOrEqual(6);
    expect(all[0].perProblem).toBeLessThanOrEqual(2.38);
  });
});
