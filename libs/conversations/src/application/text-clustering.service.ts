import { Injectable } from '@nestjs/common';
import { stepwise, timeSlices } from '@app/shared-kernel';
import {
  centered,
  CLUSTERING,
  clustering,
  mergedInto,
  normalize,
  TERMS_ONLY,
  TextAnalyzer,
  textEmbedding,
  tfidf,
  widening,
  type ClusterPoint,
} from '../domain/clustering';

/**
 * The conversations' clustering algorithm (docs/conversations-clustering.md) for another context's texts, in one
 * batch: TF-IDF over the texts given, word vectors weighted by rarity with the batch's mean taken out, two rounds
 * of neighbour expansion, average linkage. Site insights group what visitors search for and ask with it.
 * Each text's cluster, as an index (texts in one cluster share it); without word vectors, term overlap alone.
 *
 * A short text says little by itself: `context` may give each text terms from elsewhere (site insights give the
 * passages and pages a query leads to, as `passage …`, `page …` and `group …`), weighted. They join the text's
 * TF-IDF terms at `CONTEXT_WEIGHT` of them (each at unit length, then the whole again), before the neighbour
 * expansion; two queries that share no word but lead to the same pages then share terms. docs/insights.md has
 * the figures.
 */
@Injectable()
export class TextClustering {
  constructor(private readonly analyzer: TextAnalyzer) {}

  /** A text's terms as clustering reads them (tokenized, stop words out, stemmed): what a caller's context is looked up with. */
  terms(text: string): Promise<string[]> {
    return this.analyzer.terms(text);
  }

  async cluster(texts: readonly string[], context: readonly Readonly<Record<string, number>>[] = []): Promise<number[]> {
    if (texts.length === 0) return [];
    const vectors = await this.analyzer.vectors();
    const params = vectors ? CLUSTERING : TERMS_ONLY;
    const analyzed = [];
    // Requests get a turn between texts, once a slice.
    const slice = timeSlices();
    for (const text of texts) {
      await slice();
      analyzed.push(await this.analyzer.analyze(text));
    }
    const df = new Map<string, number>();
    for (const a of analyzed) for (const t of new Set(a.terms)) df.set(t, (df.get(t) ?? 0) + 1);
    const own = analyzed.map((a) => tfidf(a.terms, (t) => df.get(t) ?? 1, texts.length));
    // The meaning is the text's own words'; the context joins its terms.
    const terms = own.map((v, i) => withContext(v, context[i]));
    const raw = vectors ? analyzed.map((a, i) => textEmbedding(a.terms, a.words, own[i], vectors)) : analyzed.map(() => null);
    const mean = new Array<number>(vectors?.dims ?? 0).fill(0);
    for (const e of raw) if (e) e.embedding.forEach((x, d) => (mean[d] += x / raw.length));
    // In steps, as processing runs them: the event loop gets a turn every 15 ms (2,000 queries hold it for about a second).
    const points = await stepwise(
      widening(
        terms.map((v, i) => ({ vector: v, embedding: raw[i] ? centered(raw[i], mean) : [] })),
        [],
        params,
      ),
    );
    const clusters: ClusterPoint[] = [];
    const { assigned, merges } = await stepwise(clustering(points, clusters, params));
    const final = mergedInto(merges);
    return assigned.map((c) => final(c));
  }
}

/** How much a text's context weighs against its own terms (both at unit length): chosen on two corpora of visitor queries (docs/insights.md). */
export const CONTEXT_WEIGHT = 1;

function withContext(terms: Record<string, number>, context: Readonly<Record<string, number>> | undefined): Record<string, number> {
  const extra = normalize(Object.fromEntries(Object.entries(context ?? {}).filter(([, w]) => Number.isFinite(w) && w > 0)));
  if (Object.keys(extra).length === 0) return terms;
  const merged = { ...terms };
  for (const [t, w] of Object.entries(extra)) merged[t] = (merged[t] ?? 0) + CONTEXT_WEIGHT * w;
  return normalize(merged);
}
