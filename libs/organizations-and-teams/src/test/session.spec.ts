import { renewedExpiry, type Session } from '../domain/session';

const DAY = 86_400_000;
const session = (method: Session['method'], createdAt: number): Session => ({
  id: 's',
  userId: 'u',
  hash: 'h',
  createdAt: new Date(createdAt),
  lastSeenAt: new Date(createdAt),
  expiresAt: new Date(createdAt + 14 * DAY),
  revokedAt: null,
  userAgent: null,
  method,
  scope: method === 'sso' ? 'org' : null,
});

describe('renewedExpiry: how long a session in use lives on', () => {
  it('a password or link session: 14 days after each use, however old', () => {
    for (const method of ['password', 'link'] as const)
      expect(renewedExpiry(session(method, 0), new Date(100 * DAY), 14 * DAY, 30 * DAY).getTime()).toBe(114 * DAY);
  });

  it('an SSO session: 14 days after use, but never past 30 days after it began (the SSO token’s lifetime)', () => {
    expect(renewedExpiry(session('sso', 0), new Date(5 * DAY), 14 * DAY, 30 * DAY).getTime()).toBe(19 * DAY);
    expect(renewedExpiry(session('sso', 0), new Date(20 * DAY), 14 * DAY, 30 * DAY).getTime()).toBe(30 * DAY);
    expect(renewedExpiry(session('sso', 0), new Date(29 * DAY), 14 * DAY, 30 * DAY).getTime()).toBe(30 * DAY);
  });
});
