import { FixedClock } from '@app/shared-kernel';
import {
  checkConversation,
  cosine,
  extractIssue,
  iconFor,
  moveCentroid,
  nearestCluster,
  normalize,
  tfidf,
  weeklyPulse,
} from '../domain/conversation';

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
