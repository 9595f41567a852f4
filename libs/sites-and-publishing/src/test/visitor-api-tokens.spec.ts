import { FixedClock, InvalidInputError } from '@app/shared-kernel';
import { VISITOR_API_TOKEN_MAX, VisitorApiTokens } from '../application/visitor-api-tokens';

/** A site visitor's API token: sealed (nobody reads or changes what it holds), an hour long, bounded in size. */
describe('visitor API tokens', () => {
  const secret = 'a'.repeat(40);
  const clock = new FixedClock(new Date('2026-11-30T10:00:00Z'));
  const tokens = new VisitorApiTokens({ signingSecret: secret, ttlMs: 0 }, clock);
  const visitor = { shareKey: 'share-key-1', token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', claims: { beta: true } };

  it('opens what it sealed, for an hour, and hides what it holds', () => {
    clock.set('2026-11-30T10:00:00Z');
    const token = tokens.issue('site_1', visitor);
    expect(token).toMatch(/^qv1\.[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token.slice(4), 'base64url').toString('latin1')).not.toContain('share-key-1');
    expect(tokens.open(token)).toEqual({
      siteId: 'site_1',
      expires: Date.parse('2026-11-30T11:00:00Z'),
      credentials: { ...visitor, preview: undefined },
    });
    // Two tokens for the same visitor differ (a fresh nonce each), and both open.
    expect(tokens.issue('site_1', visitor)).not.toBe(token);
    clock.advance(60 * 60_000 - 1000);
    expect(tokens.open(token)?.siteId).toBe('site_1');
    clock.advance(1000);
    expect(tokens.open(token)).toBeNull();
  });

  it('refuses a token changed anywhere, sealed under another secret, or not one at all', () => {
    clock.set('2026-11-30T10:00:00Z');
    const token = tokens.issue('site_1', visitor);
    for (let at = 4; at < token.length; at += 7) {
      const changed = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
      expect([at, tokens.open(changed)]).toEqual([at, null]);
    }
    expect(tokens.open(token.slice(0, -2))).toBeNull();
    const other = new VisitorApiTokens({ signingSecret: 'b'.repeat(40), ttlMs: 0 }, clock);
    expect(other.open(token)).toBeNull();
    for (const bad of ['', 'qv1.', 'qv1.!!!', 'qv1.AAAA', `qv1.${'A'.repeat(VISITOR_API_TOKEN_MAX)}`, token.replace('qv1.', 'qv2.')])
      expect(tokens.open(bad)).toBeNull();
  });

  it('refuses to seal a visitor too large to carry in a request header (400)', () => {
    expect(() => tokens.issue('site_1', { ...visitor, claims: { note: '€'.repeat(4000) } })).toThrow(InvalidInputError);
    expect(tokens.issue('site_1', { ...visitor, claims: { note: '€'.repeat(2000) } }).length).toBeLessThanOrEqual(VISITOR_API_TOKEN_MAX);
  });
});
