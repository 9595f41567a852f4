import { Injectable } from '@nestjs/common';
import {
  centered,
  CLUSTERING,
  clustering,
  mergedInto,
  TERMS_ONLY,
  TextAnalyzer,
  textEmbedding,
  tfidf,
  widening,
  type ClusterPoint,
} from '../domain/clustering';
import { stepwise } from './conversation-processing.service';

/**
 * The conversations' clustering algorithm (docs/conversations-clustering.md) for another context's texts, in one
 * batch: TF-IDF over the texts given, word vectors weighted by rarity with the batch's mean taken out, two rounds
 * of neighbour expansion, average linkage. Site insights group what visitors search for and ask with it.
 * Each text's cluster, as an index (texts in one cluster share it); without word vectors, term overlap alone.
 */
@Injectable()
export class TextClustering {
  constructor(private readonly analyzer: TextAnalyzer) {}

  async cluster(texts: readonly string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    const vectors = await this.analyzer.vectors();
    const params = vectors ? CLUSTERING : TERMS_ONLY;
    const analyzed = [];
    for (const [i, text] of texts.entries()) {
      analyzed.push(await this.analyzer.analyze(text));
      // A turn for the event loop every 20 texts, as processing gives.
      if (i % 20 === 19) await new Promise((r) => setImmediate(r));
    }
    const df = new Map<string, number>();
    for (const a of analyzed) for (const t of new Set(a.terms)) df.set(t, (df.get(t) ?? 0) + 1);
    const terms = analyzed.map((a) => tfidf(a.terms, (t) => df.get(t) ?? 1, texts.length));
    const raw = vectors ? analyzed.map((a, i) => textEmbedding(a.terms, a.words, terms[i], vectors)) : analyzed.map(() => null);
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
