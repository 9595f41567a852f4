import { FixedClock } from '@app/shared-kernel';
import { checkConversation } from '../domain/conversation';
import {
  CLUSTERING,
  clusterBatch,
  cosine,
  linkage,
  mergeClusters,
  mergedInto,
  textEmbedding,
  TERMS_ONLY,
  type ClusterPoint,
  type IssuePoint,
  type WordVectors,
  iconFor,
  moveCentroid,
  nearestCluster,
  normalize,
  tfidf,
  widen,
  widening,
  reclusterDue,
  REGROWTH_UNTIL,
  REFRESH_MS,
  CLUSTERING_ALGORITHM,
  clustering,
  VECTOR_TERMS,
} from '../domain/clustering';
import { extractIssue } from '../domain/issue-extraction';
import { weeklyPulse } from '../domain/cluster-list';

describe('conversation rules', () => {
  const now = new FixedClock(new Date('2026-03-01T10:00:00.000Z')).now();

  it('extracts a title and summary from what the customer said', () => {
    const parts = [
      { type: 'message', role: 'agent', body: 'Hi! How can I help?' },
      { type: 'message', role: 'user', body: 'The export hangs.   It worked yesterday! Any idea? Thanks.' },
    ];
    expect(extractIssue({ subject: '', parts })).toMatchObject({
      title: 'The export hangs.',
      summary: 'The export hangs. It worked yesterday!',
    });
    expect(extractIssue({ subject: 'PDF export', parts }).title).toBe('PDF export');
    const long = extractIssue({ subject: 'x'.repeat(300), parts });
    expect(long.title.length).toBeLessThanOrEqual(120);
    // no part marked as the customer's: everything counts
    expect(extractIssue({ subject: '', parts: [{ type: 'message', role: 'bot', body: 'Only a bot spoke.' }] }).title).toBe(
      'Only a bot spoke.',
    );
  });

  it('checks bounds and derives the source', () => {
    const base = { id: 'c1', parts: [{ type: 'message', role: 'user', body: 'x' }] };
    expect(checkConversation(base, now)).toMatchObject({ source: 'api', createdAt: now });
    expect(checkConversation({ ...base, metadata: { url: 'https://acme.zendesk.com/t/1' } }, now).source).toBe('acme.zendesk.com');
    expect(checkConversation({ ...base, metadata: { url: 'https://x.io', attributes: { source: 'intercom' } } }, now).source).toBe(
      'intercom',
    );
    expect(() => checkConversation({ ...base, metadata: { createdAt: '2026-02-30' } }, now)).toThrow(/createdAt/);
    expect(() => checkConversation({ ...base, id: 'a/b' }, now)).toThrow(/id/);
  });

  it('TF-IDF vectors are normalized, rare terms weigh more, cosine of equal vectors is 1', () => {
    const df = (t: string) => (t === 'common' ? 99 : 1);
    const v = tfidf(['common', 'rare', 'rare'], df, 100);
    expect(v.rare).toBeGreaterThan(v.common);
    expect(cosine(v, v)).toBeCloseTo(1);
    expect(cosine(v, {})).toBe(0);
    expect(Object.values(normalize({ a: 3, b: 4 }))).toEqual([0.6, 0.8]);
  });

  it('centroids move in and out; the nearest cluster must be similar enough', () => {
    const a = normalize({ saml: 1, login: 1 });
    const b = normalize({ invoic: 1, refund: 1 });
    let centroid = moveCentroid({}, a, 1);
    centroid = moveCentroid(centroid, a, 1);
    expect(centroid.saml).toBeCloseTo(2 * a.saml);
    centroid = moveCentroid(centroid, a, -1);
    expect(centroid.saml).toBeCloseTo(a.saml);
    expect(moveCentroid(centroid, a, -1)).toEqual({});
    const clusters = [{ centroid: a }, { centroid: b }];
    expect(nearestCluster(normalize({ saml: 1, login: 1, error: 1 }), clusters)?.cluster).toBe(clusters[0]);
    expect(nearestCluster(normalize({ webhook: 1 }), clusters)).toBeNull();
    expect(iconFor(b)).toBe('credit-card');
    expect(iconFor({ zzz: 1 })).toBe('circle-question');
  });

  // Three-dimensional word vectors, ranked by frequency: "the" is the most frequent word of English here.
  const words: Record<string, [number, number, number, number]> = {
    the: [1, 0, 0, 1],
    slow: [0, 1, 0, 60_000],
    laggy: [0, 0.8, 0.6, 90_000],
    invoice: [0, 0, 1, 20_000],
  };
  const vectors: WordVectors = {
    dims: 3,
    vector: (w) => (words[w] ? Int8Array.from(words[w].slice(0, 3), (x) => Math.round(x * 127)) : null),
    rank: (w) => words[w]?.[3] ?? null,
  };

  it('meaning: word vectors weighted by smooth inverse frequency, at the share of the TF-IDF weight the vectors know', () => {
    // "the" is so frequent that it barely counts: the direction is that of "slow".
    const e = textEmbedding(['the', 'slow'], ['the', 'slow'], { the: 1, slow: 1 }, vectors)!;
    expect(e.embedding[1]).toBeGreaterThan(0.99);
    expect(e.coverage).toBe(1);
    // An unknown word (a product name, a typo) lowers the coverage by its TF-IDF weight, not the direction.
    const f = textEmbedding(['slow', 'quirex'], ['slow', 'quirex'], { slow: 1, quirex: 3 }, vectors)!;
    expect(f.embedding[1]).toBeCloseTo(1, 2);
    expect(f.coverage).toBeCloseTo(0.25);
    expect(textEmbedding(['quirex'], ['quirex'], { quirex: 1 }, vectors)).toBeNull();
  });

  const point = (vector: Record<string, number>, embedding: number[]): IssuePoint => ({ vector: normalize(vector), embedding });
  const single = (p: IssuePoint): ClusterPoint => ({ centroid: { ...p.vector }, embedding: [...p.embedding], issuesCount: 1 });
  const similarity = (a: IssuePoint, b: IssuePoint) =>
    CLUSTERING.termWeight * cosine(a.vector, b.vector) +
    (1 - CLUSTERING.termWeight) * a.embedding.reduce((s, x, d) => s + x * b.embedding[d], 0);

  it("linkage is the average pairwise similarity, from the clusters' sums alone", () => {
    const ps = [point({ slow: 1, editor: 1 }, [0, 1, 0]), point({ laggy: 1, editor: 1 }, [0, 0.8, 0.6]), point({ invoic: 1 }, [0, 0, 1])];
    const a: ClusterPoint = { centroid: moveCentroid(ps[0].vector, ps[1].vector, 1), embedding: [0, 1.8, 0.6], issuesCount: 2 };
    const expected = (similarity(ps[0], ps[2]) + similarity(ps[1], ps[2])) / 2;
    expect(linkage(a, single(ps[2]), CLUSTERING)).toBeCloseTo(expected, 10);
    expect(linkage(a, { centroid: {}, embedding: [], issuesCount: 0 }, CLUSTERING)).toBe(-Infinity);
  });

  it('average linkage from single issues: the most similar merge first, down to the threshold; any order gives the same clusters', () => {
    const editor = [
      point({ slow: 1, editor: 1 }, [0, 1, 0]),
      point({ laggy: 1, editor: 1, type: 1 }, [-0.1, 0.9, 0]),
      point({ editor: 1, freez: 1 }, [0, 0.95, -0.1]),
    ];
    const billing = [point({ invoic: 1, twice: 1 }, [0, 0, 1]), point({ invoic: 1, refund: 1 }, [-0.1, 0, 0.9])];
    const lonely = point({ sitemap: 1 }, [1, 0, 0]);
    const all = [...editor, ...billing, lonely];
    const partition = (order: number[]) => {
      const { assigned, merges } = clusterBatch(
        order.map((i) => all[i]),
        [],
        CLUSTERING,
      );
      const final = mergedInto(merges);
      const groups = new Map<number, number[]>();
      order.forEach((i, k) => groups.set(final(assigned[k]), [...(groups.get(final(assigned[k])) ?? []), i].sort()));
      return [...groups.values()].sort((x, y) => x[0] - y[0]);
    };
    expect(partition([0, 1, 2, 3, 4, 5])).toEqual([[0, 1, 2], [3, 4], [5]]);
    expect(partition([5, 3, 1, 4, 0, 2])).toEqual([[0, 1, 2], [3, 4], [5]]);
    expect(partition([4, 2, 5, 0, 3, 1])).toEqual([[0, 1, 2], [3, 4], [5]]);
    // Nothing merges below the threshold.
    const { merges } = clusterBatch(all, [], { ...CLUSTERING, merge: 2 });
    expect(merges).toEqual([]);
  });

  it('an existing cluster absorbs a newer one and keeps its place; untouched existing clusters are not compared', () => {
    const old = [single(point({ invoic: 1, refund: 1 }, [0, 0, 1])), single(point({ invoic: 1, twice: 1 }, [0, 0, 1]))];
    // Two existing clusters that would merge, but neither is touched by the batch: they stay apart.
    expect(
      mergeClusters(
        old.map((c) => ({ ...c })),
        CLUSTERING,
        new Set(),
      ),
    ).toEqual([]);
    expect(
      mergeClusters(
        old.map((c) => ({ ...c })),
        CLUSTERING,
      ),
    ).toEqual([[1, 0]]);
    // A new issue about invoices goes into the older cluster (the lower index), which keeps its identity.
    const clusters = old.map((c) => ({ ...c }));
    const { assigned, merges } = clusterBatch([point({ invoic: 1, charg: 1 }, [0, 0.1, 0.9])], clusters, CLUSTERING);
    expect(assigned).toEqual([2]);
    expect(mergedInto(merges)(2)).toBe(0);
    expect(clusters[2].issuesCount).toBe(0);
  });

  it('widen: each issue becomes itself and its nearest neighbours, weighted by similarity; copies are skipped', () => {
    const length = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    const code = point({ 429: 1, error: 1 }, [0.6, 0.8, 0]);
    const words = point({ throttl: 1, request: 1 }, [0.8, 0.6, 0]);
    const bridge = point({ 429: 1, throttl: 1, limit: 1 }, [0.72, 0.69, 0]);
    const other = point({ invoic: 1, refund: 1 }, [0, 0, 0.5]);
    const p = { ...CLUSTERING, neighbours: 1, rounds: 1 };
    const [a, b, c, d] = widen([code, words, bridge, other], [], p);
    // Two issues that share no term meet through a neighbour they share.
    expect(cosine(a.vector, b.vector)).toBeGreaterThan(0.2);
    expect(cosine(code.vector, words.vector)).toBe(0);
    expect(Object.keys(a.vector)).toEqual(expect.arrayContaining(['limit', 'throttl']));
    // Unit length terms, the embedding at its own length (its coverage); an issue with no neighbour as it was.
    for (const x of [a, b, c]) expect(Math.sqrt(Object.values(x.vector).reduce((s, y) => s + y * y, 0))).toBeCloseTo(1, 10);
    expect(length(a.embedding)).toBeCloseTo(length(code.embedding), 10);
    expect(d).toEqual({ vector: other.vector, embedding: other.embedding });
    // Only the nearest one with neighbours: 1 (the bridge, not the other wording).
    expect(a.vector.request).toBeUndefined();
    // Any order: the same points.
    const [b2, d2, a2, c2] = widen([words, other, code, bridge], [], p);
    for (const [x, y] of [
      [a, a2],
      [b, b2],
      [c, c2],
      [d, d2],
    ])
      for (const t of Object.keys({ ...x.vector, ...y.vector })) expect(x.vector[t]).toBeCloseTo(y.vector[t], 12);
    // Copies of the issue, or of a neighbour already taken, do not take a place: with copies of `code` and of
    // `bridge` in the batch, `code` still gets the bridge and the other wording as its two neighbours.
    const [withCopies] = widen([code, { ...code }, bridge, { ...bridge }, words], [], { ...p, neighbours: 2 });
    expect(Object.keys(withCopies.vector)).toEqual(expect.arrayContaining(['limit', 'request']));
    // Earlier issues are neighbours too (and are not answered); without `neighbours`, the points as they are.
    const [alone] = widen([code], [bridge, other], p);
    expect(Object.keys(alone.vector)).toEqual(expect.arrayContaining(['limit', 'throttl']));
    expect(widen([code, words], [bridge], TERMS_ONLY)).toEqual([code, words]);
    // Without word vectors the embedding stays empty; the terms are cut to the strongest VECTOR_TERMS.
    const many = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 1 + i / n]));
    const [wide] = widen([point({ ...many(40, 'a'), shared: 1 }, []), point({ ...many(40, 'b'), shared: 1 }, [])], [], p);
    expect(wide.embedding).toEqual([]);
    expect(Object.keys(wide.vector)).toHaveLength(VECTOR_TERMS);
    // Two rounds: the widened points are widened again, so an issue reaches its neighbours' neighbours. `code`'s
    // nearest is the bridge, whose nearest is the other wording: its words reach `code` in the second round only.
    const [twice] = widen([code, words, bridge, other], [], { ...p, rounds: 2 });
    expect(twice.vector.request).toBeGreaterThan(0);
    expect(length(twice.embedding)).toBeCloseTo(length(code.embedding), 10);
  });

  it('in steps: widening yields once per issue and round, clustering once per cluster compared and per merge, to the same result', () => {
    const all = [
      point({ slow: 1, editor: 1 }, [0, 1, 0]),
      point({ laggy: 1, editor: 1, type: 1 }, [-0.1, 0.9, 0]),
      point({ invoic: 1, twice: 1 }, [0, 0, 1]),
      point({ invoic: 1, refund: 1 }, [-0.1, 0, 0.9]),
    ];
    const run = <T>(steps: Generator<void, T>) => {
      let count = 0;
      for (;;) {
        const step = steps.next();
        if (step.done) return { value: step.value, count };
        count += 1;
      }
    };
    const widened = run(widening(all, [], CLUSTERING));
    expect(widened.count).toBe(all.length * CLUSTERING.rounds!);
    expect(widened.value).toEqual(widen(all, [], CLUSTERING));
    const clusters: ClusterPoint[] = [];
    const stepped = run(clustering(widened.value, clusters, CLUSTERING));
    const direct = clusterBatch(widened.value, [], CLUSTERING);
    expect(stepped.value).toEqual(direct);
    expect(stepped.value.merges).toHaveLength(2);
    // Four clusters compared with the others, then two merges.
    expect(stepped.count).toBe(all.length + 2);
  });

  it('reclusterDue: after an algorithm change, each time the organization has doubled, and daily once grown by a tenth, below REGROWTH_UNTIL', () => {
    const at = new Date('2026-03-01T10:00:00Z');
    const later = (ms: number) => new Date(at.getTime() + ms);
    const state = { algorithm: CLUSTERING_ALGORITHM, clustered: 100, at };
    expect(reclusterDue(state, 199, true, at)).toBe(false);
    expect(reclusterDue(state, 200, true, at)).toBe(true);
    expect(reclusterDue({ ...state, algorithm: CLUSTERING_ALGORITHM - 1 }, 100, true, at)).toBe(true);
    // Nothing clustered yet: the first batch is placed as it comes (from scratch anyway).
    expect(reclusterDue({ algorithm: 0, clustered: 0, at: null }, 10, false, at)).toBe(false);
    // A day after, once grown by a tenth (not before the day, not below the tenth).
    expect(reclusterDue(state, 110, true, later(REFRESH_MS - 1))).toBe(false);
    expect(reclusterDue(state, 110, true, later(REFRESH_MS))).toBe(true);
    expect(reclusterDue(state, 109, true, later(10 * REFRESH_MS))).toBe(false);
    expect(reclusterDue({ ...state, at: null }, 110, true, at)).toBe(true);
    // Below REGROWTH_UNTIL conversations, however they came (a bulk import beyond it is placed batch by batch).
    expect(reclusterDue({ ...state, clustered: REGROWTH_UNTIL / 2 - 1 }, REGROWTH_UNTIL - 1, true, at)).toBe(true);
    expect(reclusterDue({ ...state, clustered: REGROWTH_UNTIL / 2 }, REGROWTH_UNTIL, true, at)).toBe(false);
    expect(reclusterDue(state, 100 * REGROWTH_UNTIL, true, later(REFRESH_MS))).toBe(false);
  });

  it('without word vectors: the leader step (cosine ≥ 0.2) and no merging', () => {
    const clusters: ClusterPoint[] = [];
    const { assigned, merges } = clusterBatch(
      [point({ saml: 1, login: 1 }, []), point({ saml: 1, login: 1, error: 1 }, []), point({ webhook: 1 }, [])],
      clusters,
      TERMS_ONLY,
    );
    expect(assigned).toEqual([0, 0, 1]);
    expect(merges).toEqual([]);
  });

  it('weeklyPulse: 13 weeks, oldest first, the last week ending now', () => {
    const day = 86_400_000;
    const pulse = weeklyPulse(
      [
        new Date(now.getTime() - day),
        new Date(now.getTime() - 8 * day),
        new Date(now.getTime() - 100 * day),
        new Date(now.getTime() + day),
      ],
      now,
    );
    expect(pulse).toHaveLength(13);
    expect(pulse[12]).toBe(1);
    expect(pulse[11]).toBe(1);
    expect(pulse.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
