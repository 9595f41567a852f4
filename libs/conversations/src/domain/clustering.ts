// Clustering: each issue is a TF-IDF vector (the terms it uses) and an embedding (what its words mean: word
// vectors weighted by how rare each word is in English, the organization's mean taken out). Each issue starts as
// its own cluster and clusters merge while their average similarity is high enough (agglomerative, average
// linkage: ingest order does not decide). docs/conversations-clustering.md has the figures.

/**
 * The algorithm's parameters (docs/conversations-clustering.md says how they were set, on which corpora, and
 * what the held-out ones gave): the weight of term overlap against meaning, and the average similarity at
 * which two clusters merge. `join`, when given, is the older leader step: an issue first joins the most
 * similar cluster at that similarity (the terms-only fallback keeps it).
 */
export const CLUSTERING: ClusteringParameters = { termWeight: 0.7, merge: 0.35, neighbours: 4, rounds: 2 };
/** The clustering algorithm's version: an organization clustered by an older one is clustered again. */
export const CLUSTERING_ALGORITHM = 5;
/** Without word vectors: term overlap alone, the earlier leader clustering at cosine 0.2, and no merging. */
export const TERMS_ONLY: ClusteringParameters = { termWeight: 1, join: 0.2, merge: Infinity };
export type ClusteringParameters = {
  termWeight: number;
  merge: number;
  join?: number;
  /** How many neighbours widen an issue (`widen`), and in how many rounds (the second widens the widened points). */
  neighbours?: number;
  rounds?: number;
};
export const CENTROID_TERMS = 256;

/** The algorithm of an organization's last full clustering, how many conversations it read, and when (null: before that was kept). */
export interface ClusteringState {
  algorithm: number;
  clustered: number;
  at: Date | null;
}
/**
 * An organization is clustered again from every conversation once it has `REGROWTH` times as many as its last full
 * clustering read, while it has fewer than `REGROWTH_UNTIL`. Placing issues batch by batch keeps the decisions made
 * while the organization was small — its first document frequencies say little about which words are common, and
 * two problems merged then stay merged. Re-clustering at each doubling makes them again with what is known now;
 * the work stays within twice that of clustering once. Beyond `REGROWTH_UNTIL` the frequencies have settled, and a
 * full clustering would hold one transaction too long (a bulk import included: it is then placed batch by batch).
 */
export const REGROWTH = 2;
export const REGROWTH_UNTIL = 20_000;
/**
 * And once a day (`REFRESH_MS` after the last full clustering) when it has grown by a tenth (1 / `REFRESH_PARTS`) since:
 * issues placed a few at a time cluster worse than in one batch (earlier issues never see the later ones as
 * neighbours), so the conversations of the day are placed as one batch would place them by the next morning.
 */
export const REFRESH_MS = 24 * 3600_000;
export const REFRESH_PARTS = 10;

/** Whether processing should cluster the organization again in full before placing what waits. */
export function reclusterDue(state: ClusteringState, conversations: number, hasIssues: boolean, now: Date): boolean {
  if (!hasIssues) return false;
  if (state.algorithm < CLUSTERING_ALGORITHM) return true;
  if (conversations >= REGROWTH_UNTIL) return false;
  if (conversations >= REGROWTH * state.clustered) return true;
  const grown = (conversations - state.clustered) * REFRESH_PARTS >= state.clustered;
  return grown && (state.at === null || now.getTime() - state.at.getTime() >= REFRESH_MS);
}
/**
 * `widen` looks for an issue's neighbours among the organization's latest this many issues and its batch: a
 * pass over them per issue (~0.4 s for a batch of 500 here), whatever the organization's size.
 */
export const NEIGHBOUR_POOL = 5000;
export const VECTOR_TERMS = 48;
/**
 * Smooth inverse frequency (Arora, Liang & Ma 2017): a word weighs `SIF / (SIF + p(word))`, p its frequency in
 * English — "the" next to nothing, "throttled" almost 1. p is read from the word's rank in the vectors' list
 * (frequency order) by Zipf's law, p ≈ 0.1 / rank.
 */
const SIF = 0.001;
/** The TF-IDF weight of a word whose stem is not among its text's strongest terms (coverage). */
const MINOR_WORD_WEIGHT = 0.05;

/** Port: the terms of a text (tokenized, stop words out, stemmed) and the words they come from — wink-nlp. */
export abstract class TextAnalyzer {
  abstract analyze(text: string): Promise<{ terms: string[]; words: string[] }>;
  /** The word vectors (unit length, components × 127), or null when none are installed. */
  abstract vectors(): Promise<WordVectors | null>;
  async terms(text: string): Promise<string[]> {
    return (await this.analyze(text)).terms;
  }
}

export interface WordVectors {
  dims: number;
  vector(word: string): Int8Array | null;
  /** The word's rank by frequency in English (1: the most frequent), or null when the vectors do not know it. */
  rank(word: string): number | null;
}

/**
 * A text's meaning: its words' vectors weighted by smooth inverse frequency (`SIF`), at unit length (null: no
 * known word), and how much of the text that is (`coverage`: the share of its TF-IDF weight — `weights`, by
 * term — on words the vectors know: a text whose distinctive words are product names, jargon or typos has
 * little meaning the vectors can tell, and counts for that little).
 */
export function textEmbedding(
  terms: string[],
  words: string[],
  weights: Record<string, number>,
  vectors: WordVectors,
): { embedding: number[]; coverage: number } | null {
  const sum = new Array<number>(vectors.dims).fill(0);
  let known = 0;
  let all = 0;
  words.forEach((w, i) => {
    const distinctive = weights[terms[i]] ?? MINOR_WORD_WEIGHT;
    all += distinctive;
    const rank = vectors.rank(w);
    const v = rank === null ? null : vectors.vector(w);
    if (rank === null || !v) return;
    known += distinctive;
    const weight = SIF / (SIF + 0.1 / rank);
    for (let d = 0; d < sum.length; d++) sum[d] += (v[d] / 127) * weight;
  });
  return known > 0 ? { embedding: unit(sum), coverage: known / all } : null;
}

/** An embedding with what every text of the organization shares taken out (`mean`), at the length of its coverage. */
export function centered(e: { embedding: number[]; coverage: number }, mean: number[]): number[] {
  return unit(e.embedding.map((x, d) => x - (mean[d] ?? 0))).map((x) => x * e.coverage);
}

function unit(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n === 0 ? v.map(() => 0) : v.map((x) => x / n);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let d = 0; d < a.length && d < b.length; d++) s += a[d] * b[d];
  return s;
}

function sparseDot(a: Record<string, number>, b: Record<string, number>): number {
  let s = 0;
  for (const t in a) {
    const y = b[t];
    if (y !== undefined) s += a[t] * y;
  }
  return s;
}

const norm = (v: Record<string, number>) => Math.sqrt(sparseDot(v, v));

/** What clustering reads of an issue: its TF-IDF vector and centered embedding (empty when none). */
export interface IssuePoint {
  vector: Record<string, number>;
  embedding: number[];
}

/** Runs a computation made of steps (`widening`, `merging`, `clustering`) to its end at once. */
export function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Two similarities or weights this close are the same (`widen`'s copies). */
const COPY = 1e-9;

function samePoint(a: IssuePoint, b: IssuePoint): boolean {
  const keys = Object.keys(a.vector);
  if (keys.length !== Object.keys(b.vector).length || a.embedding.length !== b.embedding.length) return false;
  return (
    keys.every((t) => Math.abs(a.vector[t] - (b.vector[t] ?? Infinity)) < COPY) &&
    a.embedding.every((e, d) => Math.abs(e - b.embedding[d]) < COPY)
  );
}

/**
 * Neighbour expansion (pseudo-relevance feedback, as search engines widen a short query with its best hits): each
 * issue of `batch` becomes itself plus its `p.neighbours` most similar issues, each weighted by its similarity —
 * among the organization's `earlier` issues (as they were clustered) and the batch's others. A short message that
 * says "429" and one that says "throttled" share few words with each other but several neighbours, so their
 * widened points meet. The terms are cut to the strongest `VECTOR_TERMS` at unit length; the embedding keeps its
 * length (the issue's coverage). With `p.rounds` 2, the widened batch is widened once more the same way (among
 * `earlier` and the batch's widened points): neighbours of neighbours. Without `p.neighbours`, the points as they
 * are.
 */
export function widen(batch: IssuePoint[], earlier: IssuePoint[], p: ClusteringParameters): IssuePoint[] {
  return finish(widening(batch, earlier, p));
}

/** `widen` step by step: one step per issue of the batch and round (a caller may give the event loop a turn between steps). */
export function* widening(batch: IssuePoint[], earlier: IssuePoint[], p: ClusteringParameters): Generator<void, IssuePoint[]> {
  let points = batch;
  for (let round = 0; round < (p.rounds ?? 1); round++) points = yield* wideningOnce(points, earlier, p);
  return points;
}

function* wideningOnce(batch: IssuePoint[], earlier: IssuePoint[], p: ClusteringParameters): Generator<void, IssuePoint[]> {
  const k = p.neighbours ?? 0;
  if (k <= 0) return batch;
  const pool = [...earlier, ...batch];
  const dims = pool.reduce((d, x) => Math.max(d, x.embedding.length), 0);
  // Every issue's embedding in one typed matrix, its terms in an index (term → issues and weights).
  const matrix = new Float64Array(pool.length * dims);
  pool.forEach((x, i) => x.embedding.forEach((e, d) => (matrix[i * dims + d] = e)));
  const postings = new Map<string, { at: number[]; weight: number[] }>();
  pool.forEach((x, i) => {
    for (const t in x.vector) {
      let list = postings.get(t);
      if (!list) postings.set(t, (list = { at: [], weight: [] }));
      list.at.push(i);
      list.weight.push(x.vector[t]);
    }
  });
  const scores = new Float64Array(pool.length);
  const query = new Float64Array(dims);
  const widened: IssuePoint[] = [];
  for (let b = 0; b < batch.length; b++) {
    widened.push(widenOne(batch[b], b));
    yield;
  }
  return widened;

  function widenOne(issue: IssuePoint, b: number): IssuePoint {
    const self = earlier.length + b;
    scores.fill(0);
    if (issue.embedding.length) {
      query.fill(0);
      query.set(issue.embedding);
      for (let i = 0; i < pool.length; i++) scores[i] = (1 - p.termWeight) * typedDot(query, matrix, i * dims, dims);
    }
    for (const t in issue.vector) {
      const list = postings.get(t)!;
      const x = p.termWeight * issue.vector[t];
      for (let j = 0; j < list.at.length; j++) scores[list.at[j]] += x * list.weight[j];
    }
    // The k best (ties: the earlier in the pool), by insertion into a short sorted list. A copy of the issue or of a
    // neighbour already taken is skipped: a wave of identical messages would otherwise fill every place with one text.
    const itself = p.termWeight * sparseDot(issue.vector, issue.vector) + (1 - p.termWeight) * dot(issue.embedding, issue.embedding);
    const best: number[] = [];
    for (let i = 0; i < pool.length; i++) {
      if (i === self || scores[i] <= 0) continue;
      if (best.length === k && scores[i] <= scores[best[k - 1]]) continue;
      if (Math.abs(scores[i] - itself) < COPY && samePoint(pool[i], issue)) continue;
      if (best.some((j) => Math.abs(scores[j] - scores[i]) < COPY && samePoint(pool[j], pool[i]))) continue;
      let at = best.length === k ? k - 1 : best.length;
      while (at > 0 && scores[best[at - 1]] < scores[i]) {
        best[at] = best[at - 1];
        at--;
      }
      best[at] = i;
    }
    if (!best.length) return issue;
    const terms = new Map(Object.entries(issue.vector));
    const embedding = issue.embedding.length ? [...issue.embedding] : [];
    for (const i of best) {
      const w = scores[i];
      for (const [t, x] of Object.entries(pool[i].vector)) terms.set(t, (terms.get(t) ?? 0) + w * x);
      if (embedding.length) pool[i].embedding.forEach((e, d) => (embedding[d] += w * e));
    }
    const strongest = [...terms].sort((a, c) => c[1] - a[1] || (a[0] < c[0] ? -1 : 1)).slice(0, VECTOR_TERMS);
    const length = Math.sqrt(dot(issue.embedding, issue.embedding));
    return {
      vector: normalize(Object.fromEntries(strongest)),
      embedding: embedding.length ? unit(embedding).map((e) => e * length) : [],
    };
  }
}

/** What clustering reads of a cluster: the sums of its members' vectors and embeddings, and their number. */
export interface ClusterPoint {
  centroid: Record<string, number>;
  embedding: number[];
  issuesCount: number;
}

/**
 * How similar an issue is to a cluster's centroid: term overlap and meaning, weighted (the meaning at the
 * issue's coverage: its embedding's length).
 */
export function similarityTo(issue: IssuePoint, cluster: ClusterPoint, p: ClusteringParameters): number {
  const norm = Math.sqrt(dot(cluster.embedding, cluster.embedding));
  const meaning = issue.embedding.length && norm > 0 ? dot(issue.embedding, cluster.embedding) / norm : 0;
  return p.termWeight * cosine(issue.vector, cluster.centroid) + (1 - p.termWeight) * meaning;
}

/** The average similarity of two clusters' members, pair by pair (from their sums: the vectors are unit length). */
export function linkage(a: ClusterPoint, b: ClusterPoint, p: ClusteringParameters): number {
  const pairs = a.issuesCount * b.issuesCount;
  if (pairs <= 0) return -Infinity;
  return (p.termWeight * sparseDot(a.centroid, b.centroid) + (1 - p.termWeight) * dot(a.embedding, b.embedding)) / pairs;
}

/** A cluster's embedding sum with an issue's embedding added (sign 1) or taken out (-1). */
export function moveEmbedding(sum: number[], embedding: number[], sign: 1 | -1): number[] {
  if (!embedding.length) return sum;
  const base = sum.length ? sum : new Array<number>(embedding.length).fill(0);
  return base.map((x, d) => x + sign * embedding[d]);
}

/**
 * A cluster as the agglomerative pass reads it many times: its terms as ids (numbered per pass) and weights, its
 * embedding typed.
 */
interface Packed {
  ids: Int32Array;
  values: Float64Array;
  embedding: Float64Array | null;
  count: number;
}

function pack(c: ClusterPoint, termIds: Map<string, number>): Packed {
  const keys = Object.keys(c.centroid);
  const id = (t: string) => {
    let i = termIds.get(t);
    if (i === undefined) termIds.set(t, (i = termIds.size));
    return i;
  };
  return {
    ids: Int32Array.from(keys, id),
    values: Float64Array.from(keys, (k) => c.centroid[k]),
    embedding: c.embedding.length ? Float64Array.from(c.embedding) : null,
    count: c.issuesCount,
  };
}

/** The dot product of `e` and `f` from `at` (four sums at once: about twice as fast as one). */
function typedDot(e: Float64Array, f: Float64Array, at = 0, n = Math.min(e.length, f.length - at)): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < n; d += 4) {
    s0 += e[d] * f[at + d];
    s1 += e[d + 1] * f[at + d + 1];
    s2 += e[d + 2] * f[at + d + 2];
    s3 += e[d + 3] * f[at + d + 3];
  }
  for (; d < n; d++) s0 += e[d] * f[at + d];
  return s0 + s1 + s2 + s3;
}

/**
 * `linkage` of one packed cluster against others: its terms are spread once into a dense array by id (`spread`),
 * then each other cluster's terms are looked up there by index (`against`) — no hashing per pair.
 */
class Linkage {
  private dense = new Float64Array(0);
  private fixed: Packed | null = null;
  constructor(private readonly termWeight: number) {}

  spread(a: Packed, terms: number): void {
    if (this.dense.length < terms) this.dense = new Float64Array(Math.max(terms, this.dense.length * 2));
    if (this.fixed) for (let k = 0; k < this.fixed.ids.length; k++) this.dense[this.fixed.ids[k]] = 0;
    for (let k = 0; k < a.ids.length; k++) this.dense[a.ids[k]] = a.values[k];
    this.fixed = a;
  }

  against(b: Packed): number {
    const a = this.fixed!;
    const pairs = a.count * b.count;
    if (pairs <= 0) return -Infinity;
    let terms = 0;
    for (let k = 0; k < b.ids.length; k++) terms += this.dense[b.ids[k]] * b.values[k];
    let meaning = 0;
    const e = a.embedding;
    const f = b.embedding;
    if (e && f) meaning = typedDot(e, f);
    return (this.termWeight * terms + (1 - this.termWeight) * meaning) / pairs;
  }
}

/**
 * The agglomerative pass: while two clusters' average similarity reaches `merge`, the most similar two become
 * one (the later into the earlier, so a cluster that existed before the batch keeps its identity). Returns the
 * merges in order as [from, into] indexes of `clusters`, which it updates (sums added, counts added; a
 * merged-away cluster's count becomes 0). Each cluster keeps its best partner, recomputed only when that
 * partner changed; only pairs with a cluster the batch touched are compared (`touched`; all without).
 */
export function mergeClusters(clusters: ClusterPoint[], p: ClusteringParameters, touched?: ReadonlySet<number>): [number, number][] {
  return finish(merging(clusters, p, touched));
}

/** `mergeClusters` step by step: a step per cluster compared with the others, then per merge. */
export function* merging(
  clusters: ClusterPoint[],
  p: ClusteringParameters,
  touched?: ReadonlySet<number>,
): Generator<void, [number, number][]> {
  if (!Number.isFinite(p.merge)) return [];
  const n = clusters.length;
  const termIds = new Map<string, number>();
  const packed = clusters.map((c) => pack(c, termIds));
  const linkage = new Linkage(p.termWeight);
  const alive = clusters.map((c) => c.issuesCount > 0);
  const fresh = clusters.map((_, i) => !touched || touched.has(i));
  const partner = new Int32Array(n).fill(-1);
  const score = new Float64Array(n).fill(-Infinity);
  const offer = (i: number, j: number, s: number) => {
    if (s > score[i]) {
      score[i] = s;
      partner[i] = j;
    }
  };
  // Every pair once.
  for (let i = 0; i < n; i++) {
    if (!alive[i]) continue;
    linkage.spread(packed[i], termIds.size);
    for (let j = i + 1; j < n; j++) {
      if (!alive[j] || (!fresh[i] && !fresh[j])) continue;
      const s = linkage.against(packed[j]);
      offer(i, j, s);
      offer(j, i, s);
    }
    yield;
  }
  const refresh = (i: number) => {
    partner[i] = -1;
    score[i] = -Infinity;
    linkage.spread(packed[i], termIds.size);
    for (let j = 0; j < n; j++) if (j !== i && alive[j] && (fresh[i] || fresh[j])) offer(i, j, linkage.against(packed[j]));
  };
  const merges: [number, number][] = [];
  for (;;) {
    let top = -1;
    for (let i = 0; i < n; i++) if (alive[i] && partner[i] >= 0 && (top < 0 || score[i] > score[top])) top = i;
    if (top < 0 || score[top] < p.merge) return merges;
    const into = Math.min(top, partner[top]);
    const from = Math.max(top, partner[top]);
    const a = clusters[into];
    const b = clusters[from];
    a.centroid = moveCentroid(a.centroid, b.centroid, 1);
    a.embedding = b.embedding.length ? moveEmbedding(a.embedding, b.embedding, 1) : a.embedding;
    a.issuesCount += b.issuesCount;
    b.issuesCount = 0;
    packed[into] = pack(a, termIds);
    packed[from].count = 0;
    alive[from] = false;
    fresh[into] = true;
    merges.push([from, into]);
    yield;
    // Those whose best partner changed look again; the merged cluster is compared with every other once (its
    // own best partner, and it may now be theirs).
    for (let i = 0; i < n; i++) if (alive[i] && i !== into && (partner[i] === into || partner[i] === from)) refresh(i);
    partner[into] = -1;
    score[into] = -Infinity;
    linkage.spread(packed[into], termIds.size);
    for (let i = 0; i < n; i++) {
      if (!alive[i] || i === into) continue;
      const s = linkage.against(packed[i]);
      offer(i, into, s);
      offer(into, i, s);
    }
  }
}

export function tfidf(terms: string[], df: (term: string) => number, documents: number): Record<string, number> {
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  const weights = [...tf].map(([t, n]) => [t, (1 + Math.log(n)) * Math.log((1 + documents) / (1 + df(t)) + 1)] as const);
  weights.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return normalize(Object.fromEntries(weights.slice(0, VECTOR_TERMS)));
}

export function normalize(v: Record<string, number>): Record<string, number> {
  const norm = Math.sqrt(Object.values(v).reduce((s, x) => s + x * x, 0));
  if (norm === 0) return {};
  return Object.fromEntries(Object.entries(v).map(([t, x]) => [t, x / norm]));
}

export function cosine(a: Record<string, number>, b: Record<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of Object.entries(a)) {
    na += x * x;
    const y = b[t];
    if (y !== undefined) dot += x * y;
  }
  for (const y of Object.values(b)) nb += y * y;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The centroid with `v` added (sign 1) or taken out (sign -1), cut to its strongest terms. */
export function moveCentroid(centroid: Record<string, number>, v: Record<string, number>, sign: 1 | -1): Record<string, number> {
  const next = { ...centroid };
  for (const [t, x] of Object.entries(v)) {
    const y = (next[t] ?? 0) + sign * x;
    if (y > 1e-9) next[t] = y;
    else delete next[t];
  }
  return Object.fromEntries(
    Object.entries(next)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, CENTROID_TERMS),
  );
}

/** The most similar cluster when it is similar enough (`join`), else null (a new cluster is due). */
export function nearestCluster<C extends { centroid: Record<string, number>; embedding?: number[]; issuesCount?: number }>(
  v: Record<string, number> | IssuePoint,
  clusters: C[],
  p: ClusteringParameters = TERMS_ONLY,
): { cluster: C; similarity: number } | null {
  const issue: IssuePoint =
    'vector' in v && typeof v.vector === 'object' ? (v as IssuePoint) : { vector: v as Record<string, number>, embedding: [] };
  let best: { cluster: C; similarity: number } | null = null;
  for (const cluster of clusters) {
    const similarity = similarityTo(
      issue,
      { centroid: cluster.centroid, embedding: cluster.embedding ?? [], issuesCount: cluster.issuesCount ?? 1 },
      p,
    );
    if (!best || similarity > best.similarity) best = { cluster, similarity };
  }
  return best && best.similarity >= (p.join ?? p.merge) ? best : null;
}

/**
 * One batch of issues into clusters: each issue starts a cluster (or, with a `join` bar, first joins the most
 * similar cluster when it reaches it, in order); then the agglomerative pass merges clusters (old and new)
 * while their average similarity reaches `merge`. `clusters` are updated in place (sums and counts); the answer
 * says which cluster each issue went to (an index of `clusters`, new ones appended) and the merges ([from, into]
 * indexes, in order: an issue or cluster merged away belongs to `into`, transitively).
 */
export function clusterBatch(
  issues: IssuePoint[],
  clusters: ClusterPoint[],
  p: ClusteringParameters,
): { assigned: number[]; merges: [number, number][] } {
  return finish(clustering(issues, clusters, p));
}

/** `clusterBatch` step by step (the merge pass's steps). */
export function* clustering(
  issues: IssuePoint[],
  clusters: ClusterPoint[],
  p: ClusteringParameters,
): Generator<void, { assigned: number[]; merges: [number, number][] }> {
  // The centroids' lengths, kept per cluster (only the cluster an issue joins changes): similarityTo without
  // recomputing them for every pair.
  const lengths = clusters.map((c) => ({ terms: norm(c.centroid), meaning: Math.sqrt(dot(c.embedding, c.embedding)) }));
  const assigned = issues.map((issue) => {
    let best = -1;
    let score = -Infinity;
    const issueTerms = norm(issue.vector);
    if (p.join !== undefined)
      clusters.forEach((c, i) => {
        if (c.issuesCount <= 0) return;
        const l = lengths[i];
        const terms = issueTerms > 0 && l.terms > 0 ? sparseDot(issue.vector, c.centroid) / (issueTerms * l.terms) : 0;
        const meaning = issue.embedding.length && l.meaning > 0 ? dot(issue.embedding, c.embedding) / l.meaning : 0;
        const s = p.termWeight * terms + (1 - p.termWeight) * meaning;
        if (s > score) {
          score = s;
          best = i;
        }
      });
    if (best < 0 || p.join === undefined || score < p.join) {
      clusters.push({ centroid: {}, embedding: [], issuesCount: 0 });
      lengths.push({ terms: 0, meaning: 0 });
      best = clusters.length - 1;
    }
    const c = clusters[best];
    c.centroid = moveCentroid(c.centroid, issue.vector, 1);
    c.embedding = moveEmbedding(c.embedding, issue.embedding, 1);
    c.issuesCount += 1;
    lengths[best] = { terms: norm(c.centroid), meaning: Math.sqrt(dot(c.embedding, c.embedding)) };
    return best;
  });
  return { assigned, merges: yield* merging(clusters, p, new Set(assigned)) };
}

/** Where each index ends up after the merges ([from, into], in order). */
export function mergedInto(merges: [number, number][]): (index: number) => number {
  const into = new Map<number, number>();
  for (const [from, to] of merges) into.set(from, to);
  return (index) => {
    let at = index;
    for (let next = into.get(at); next !== undefined; next = into.get(at)) at = next;
    return at;
  };
}

const ICONS: [RegExp, string][] = [
  [/^(login|log|sso|saml|sign|signin|password|auth|okta|idp|identiti|assert)/, 'lock'],
  [/^(bill|invoic|charg|refund|payment|pay|subscript|card|seat|vat)/, 'credit-card'],
  [/^(sync|git|github|gitlab|repositori|commit|branch|push)/, 'code-branch'],
  [/^(pdf|export|print|download)/, 'file-pdf'],
  [/^(search|index|result|keyword|find)/, 'magnifying-glass'],
  [/^(domain|dns|ssl|certif|https|hostnam|cname|subdomain)/, 'globe'],
];

/** An icon name (≤ 50) for a cluster from its strongest terms. */
export function iconFor(centroid: Record<string, number>): string {
  const top = Object.entries(centroid)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([t]) => t);
  for (const term of top) for (const [pattern, icon] of ICONS) if (pattern.test(term)) return icon;
  return 'circle-question';
}
