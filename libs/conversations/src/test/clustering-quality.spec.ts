import { SUPPORT_CONVERSATIONS } from '../../../../test/fixtures/support-conversations';
import { SUPPORT_CONVERSATIONS_2 } from '../../../../test/fixtures/support-conversations-2';
import { SUPPORT_CONVERSATIONS_3 } from '../../../../test/fixtures/support-conversations-3';
import { SUPPORT_CONVERSATIONS_4 } from '../../../../test/fixtures/support-conversations-4';
import { SUPPORT_CONVERSATIONS_5 } from '../../../../test/fixtures/support-conversations-5';
import { SUPPORT_CONVERSATIONS_6 } from '../../../../test/fixtures/support-conversations-6';
import { SUPPORT_CONVERSATIONS_7 } from '../../../../test/fixtures/support-conversations-7';
import { SUPPORT_CONVERSATIONS_8 } from '../../../../test/fixtures/support-conversations-8';
import { SUPPORT_CONVERSATIONS_9 } from '../../../../test/fixtures/support-conversations-9';
import { SUPPORT_CONVERSATIONS_10 } from '../../../../test/fixtures/support-conversations-10';
import { SUPPORT_CONVERSATIONS_11 } from '../../../../test/fixtures/support-conversations-11';
import { SUPPORT_CONVERSATIONS_12 } from '../../../../test/fixtures/support-conversations-12';
import { SUPPORT_CONVERSATIONS_13 } from '../../../../test/fixtures/support-conversations-13';
import { SUPPORT_CONVERSATIONS_14 } from '../../../../test/fixtures/support-conversations-14';
import { SUPPORT_CONVERSATIONS_15 } from '../../../../test/fixtures/support-conversations-15';
import { REAL_REPORTS_13, REAL_REPORTS_14, REAL_REPORTS_15 } from '../../../../test/fixtures/real-reports';
import {
  centered,
  CLUSTERING,
  clusterBatch,
  mergedInto,
  textEmbedding,
  tfidf,
  widen,
  type ClusterPoint,
  type IssuePoint,
} from '../domain/clustering';
import { clusteringText } from '../domain/issue-extraction';
import { WinkTextAnalyzer } from '../infrastructure/wink-text-analyzer';
import { clusterFigures, shuffled } from '../../../../test/fixtures/cluster-figures';

interface Fixture {
  problem: string;
  subject: string;
  user: string[];
  agent?: string[];
}

/** Clusters a corpus as the processing job does (one chunk, ingest order), without a database. */
async function clusterCorpus(corpus: readonly Fixture[], order: number[] = corpus.map((_, i) => i)): Promise<number[]> {
  const analyzer = new WinkTextAnalyzer();
  const vectors = await analyzer.vectors();
  if (!vectors) throw new Error('no word vectors: run npm run build first');
  const analyzed = [];
  for (const i of order) {
    const c = corpus[i];
    const parts = [
      ...c.user.map((body) => ({ type: 'message', role: 'user', body })),
      ...(c.agent ?? []).map((body) => ({ type: 'message', role: 'agent', body })),
    ];
    analyzed.push(await analyzer.analyze(clusteringText({ subject: c.subject, parts })));
  }
  const df = new Map<string, number>();
  for (const a of analyzed) for (const t of new Set(a.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const vectorsOf = analyzed.map((a) => tfidf(a.terms, (t) => df.get(t) ?? 1, corpus.length));
  const raw = analyzed.map((a, i) => textEmbedding(a.terms, a.words, vectorsOf[i], vectors));
  const mean = new Array<number>(vectors.dims).fill(0);
  for (const e of raw) if (e) e.embedding.forEach((x, d) => (mean[d] += x / raw.length));
  const points: IssuePoint[] = widen(
    vectorsOf.map((v, i) => ({ vector: v, embedding: raw[i] ? centered(raw[i], mean) : [] })),
    [],
    CLUSTERING,
  );
  const clusters: ClusterPoint[] = [];
  const { assigned, merges } = clusterBatch(points, clusters, CLUSTERING);
  const final = mergedInto(merges);
  const out = new Array<number>(corpus.length);
  order.forEach((i, k) => (out[i] = final(assigned[k])));
  return out;
}

/** The figures of issue #35 (test/fixtures/cluster-figures.ts). */
const figures = (corpus: readonly Fixture[], clusterOf: number[]) =>
  clusterFigures(
    corpus.map((c) => c.problem),
    clusterOf,
  );

describe('conversation clustering quality (issue #35 targets, figures printed)', () => {
  const print = (name: string, seed: number, f: ReturnType<typeof figures>) =>
    console.log(
      `${name}, ${seed === 0 ? 'as written' : `shuffled (${seed})`}: ${f.clusters} clusters, purity ${f.purity.toFixed(2)}, ` +
        `recovered ${f.recovered}/${f.problems}, ${f.perProblem.toFixed(2)} clusters a problem, worst mix ${(f.worstMix * 100).toFixed(0)} % ` +
        `(${(f.worstMixOfThree * 100).toFixed(0)} % among clusters of three or more)`,
    );
  /** The figures in three ingest orders: every order gives the same clusters' figures (average linkage from single issues). */
  const inEveryOrder = async (name: string, corpus: readonly Fixture[]) => {
    const all = [];
    for (const seed of [0, 7, 42]) {
      const f = figures(corpus, await clusterCorpus(corpus, seed === 0 ? undefined : shuffled(corpus.length, seed)));
      print(name, seed, f);
      all.push(f);
    }
    for (const f of all.slice(1)) expect(f).toEqual(all[0]);
    return all[0];
  };

  // Corpora 13, 14 and 15 are retold from real public reports (about GitBook, a hosted docs platform and a docs site
  // generator). In one organization, the problems they share with corpus 1 and with each other count as one
  // (test/fixtures/real-reports.ts).
  const oneAndThirteen = [...SUPPORT_CONVERSATIONS, ...REAL_REPORTS_13];

  // The targets, for any number of problems: purity ≥ 0.85, ≥ 5 in 6 problems recovered, ≤ 1.5 clusters a problem,
  // no cluster mixed above 20 %. Corpora 1 and 2 meet them alone and together (one organization, 12 problems),
  // corpora 5 and 6 alone, and corpora 13, 14 and 15 (held out from algorithm 5) alone, together and with corpus 1.
  for (const [name, corpus] of [
    ['corpus 1 (66 conversations, 6 problems)', SUPPORT_CONVERSATIONS],
    ['corpus 2 (48 conversations, 6 other problems)', SUPPORT_CONVERSATIONS_2],
    ['corpora 1 and 2 in one organization (114 conversations, 12 problems)', [...SUPPORT_CONVERSATIONS, ...SUPPORT_CONVERSATIONS_2]],
    ['corpus 5 (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_5],
    ['corpus 6 (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_6],
    ['corpus 13, held out, retold from real reports (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_13],
    ['corpora 1 and 13 in one organization, four problems shared (114 conversations, 8 problems)', oneAndThirteen],
    ['corpus 14, held out, retold from real reports (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_14],
    [
      'corpora 13 and 14 in one organization, two problems shared (96 conversations, 10 problems)',
      [...REAL_REPORTS_13, ...REAL_REPORTS_14],
    ],
    ['corpora 1, 13 and 14 in one organization (162 conversations, 12 problems)', [...oneAndThirteen, ...REAL_REPORTS_14]],
    ['corpus 15, held out, retold from real reports (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_15],
    [
      'corpora 13, 14 and 15 in one organization (144 conversations, 15 problems)',
      [...REAL_REPORTS_13, ...REAL_REPORTS_14, ...REAL_REPORTS_15],
    ],
  ] as const) {
    it(`${name}: the targets, in any ingest order`, async () => {
      const f = await inEveryOrder(name, corpus);
      expect(f.purity).toBeGreaterThanOrEqual(0.85);
      expect(f.recovered).toBeGreaterThanOrEqual((5 / 6) * f.problems);
      expect(f.perProblem).toBeLessThanOrEqual(1.5);
      expect(f.worstMix).toBeLessThanOrEqual(0.2);
    });
  }

  // The others do NOT meet the targets (docs/conversations-clustering.md): these floors are the figures the
  // frozen parameters gave, so that a change which makes them worse fails. Algorithm 5 was chosen on corpora 1–9;
  // corpora 10, 11 and 12 were held out from it.
  const seven = [
    SUPPORT_CONVERSATIONS,
    SUPPORT_CONVERSATIONS_2,
    SUPPORT_CONVERSATIONS_3,
    SUPPORT_CONVERSATIONS_4,
    SUPPORT_CONVERSATIONS_5,
    SUPPORT_CONVERSATIONS_6,
    SUPPORT_CONVERSATIONS_7,
  ].flat();
  const eight = [...seven, ...SUPPORT_CONVERSATIONS_8];
  const nine = [...eight, ...SUPPORT_CONVERSATIONS_9];
  const ten = [...nine, ...SUPPORT_CONVERSATIONS_10];
  const eleven = [...ten, ...SUPPORT_CONVERSATIONS_11];
  const twelve = [...eleven, ...SUPPORT_CONVERSATIONS_12];
  for (const [name, corpus, floor] of [
    ['corpus 3 (54 conversations, 6 problems)', SUPPORT_CONVERSATIONS_3, { purity: 0.92, recovered: 5, perProblem: 2 }],
    ['corpus 4 (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_4, { purity: 0.89, recovered: 6, perProblem: 1.84 }],
    ['corpus 7 (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_7, { purity: 0.8, recovered: 6, perProblem: 2.34 }],
    ['all seven corpora in one organization (360 conversations, 42 problems)', seven, { purity: 0.7, recovered: 30, perProblem: 1.5 }],
    ['corpus 8 (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_8, { purity: 0.83, recovered: 5, perProblem: 1 }],
    ['all eight corpora in one organization (408 conversations, 48 problems)', eight, { purity: 0.66, recovered: 33, perProblem: 1.42 }],
    ['corpus 9 (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_9, { purity: 0.89, recovered: 6, perProblem: 1.5 }],
    ['all nine corpora in one organization (456 conversations, 54 problems)', nine, { purity: 0.63, recovered: 33, perProblem: 1.41 }],
    ['corpus 10, held out (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_10, { purity: 0.68, recovered: 3, perProblem: 2.34 }],
    ['all ten corpora in one organization (504 conversations, 60 problems)', ten, { purity: 0.6, recovered: 31, perProblem: 1.45 }],
    ['corpus 11, held out (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_11, { purity: 0.8, recovered: 5, perProblem: 2.17 }],
    ['all eleven corpora in one organization (552 conversations, 66 problems)', eleven, { purity: 0.56, recovered: 31, perProblem: 1.4 }],
    ['corpus 12, held out (48 conversations, 6 problems)', SUPPORT_CONVERSATIONS_12, { purity: 0.79, recovered: 5, perProblem: 1.67 }],
    [
      'all twelve written corpora in one organization (600 conversations, 72 problems)',
      twelve,
      { purity: 0.55, recovered: 34, perProblem: 1.38 },
    ],
  ] as const) {
    it(`${name}: targets missed; no worse than purity ${floor.purity}, ${floor.recovered} problems recovered, ${floor.perProblem} clusters a problem`, async () => {
      const f = await inEveryOrder(name, corpus);
      expect(f.purity).toBeGreaterThanOrEqual(floor.purity);
      expect(f.recovered).toBeGreaterThanOrEqual(floor.recovered);
      expect(f.perProblem).toBeLessThanOrEqual(floor.perProblem);
    });
  }
});
