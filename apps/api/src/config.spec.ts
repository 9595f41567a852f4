import { BOOTSTRAP_TOKEN_MIN_LENGTH, ConfigError, loadConfig } from './config';

/** QUIRE_BOOTSTRAP_TOKEN becomes an admin's API token: a weak one stops the start with a clear message. */
describe('QUIRE_BOOTSTRAP_TOKEN', () => {
  const load = (token: string) => () => loadConfig({ QUIRE_BOOTSTRAP_TOKEN: token });

  it('is refused when shorter than 32 characters, with the length and what to do', () => {
    const short = 'Xk9#pL2$vQ7@mN4!rT8%wZ1^bY6&cH3'; // 31 characters, all distinct enough
    expect(short).toHaveLength(BOOTSTRAP_TOKEN_MIN_LENGTH - 1);
    expect(load(short)).toThrow(ConfigError);
    expect(load(short)).toThrow(
      /QUIRE_BOOTSTRAP_TOKEN is too weak: 31 characters, at least 32 are needed; generate one with `openssl rand/,
    );
    // The 20-character tokens accepted before are refused now.
    expect(load('a1b2c3d4e5f6g7h8i9j0')).toThrow(/too weak: 20 characters/);
  });

  it('is refused with white space, control characters or non-ASCII, and when it has little variety', () => {
    expect(load('correct horse battery staple and more words')).toThrow(/printable ASCII without white space/);
    expect(load(`${'k9Lm3Qx7Zp'.repeat(3)}\u0000xy`)).toThrow(/printable ASCII/);
    expect(load(`${'k9Lm3Qx7Zp'.repeat(3)}éé`)).toThrow(/printable ASCII/);
    expect(load('a'.repeat(64))).toThrow(/fewer than 10 distinct characters/);
    expect(load('0123'.repeat(10))).toThrow(/fewer than 10 distinct characters/);
  });

  it('is taken when at least 32 characters with variety; unset, Quire generates one', () => {
    const ok = 'Xk9#pL2$vQ7@mN4!rT8%wZ1^bY6&cH3*';
    expect(ok).toHaveLength(BOOTSTRAP_TOKEN_MIN_LENGTH);
    expect(loadConfig({ QUIRE_BOOTSTRAP_TOKEN: ok }).bootstrapToken).toBe(ok);
    expect(loadConfig({ QUIRE_BOOTSTRAP_TOKEN: 'qr_kill_during_merges_0123456789abcdef' }).bootstrapToken).toBe(
      'qr_kill_during_merges_0123456789abcdef',
    );
    expect(loadConfig({}).bootstrapToken).toBeNull();
    expect(loadConfig({ QUIRE_BOOTSTRAP_TOKEN: '' }).bootstrapToken).toBeNull();
  });
});
