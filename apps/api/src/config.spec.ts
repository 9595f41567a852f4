import { BOOTSTRAP_TOKEN_MIN_LENGTH, bootstrapTokenWeakness, ConfigError, loadConfig } from './config';

/**
 * QUIRE_BOOTSTRAP_TOKEN becomes an admin's API token: what can never be a token stops every start; a weak one
 * is named here and refused by the first start (test/e2e/jobs-and-bootstrap.e2e-spec.ts, and the server
 * process in test/process/server-and-cli.e2e-spec.ts).
 */
describe('QUIRE_BOOTSTRAP_TOKEN', () => {
  const load = (token: string) => () => loadConfig({ QUIRE_BOOTSTRAP_TOKEN: token });

  it('is weak when shorter than 32 characters: the message gives the length and what to do', () => {
    const short = 'Xk9#pL2$vQ7@mN4!rT8%wZ1^bY6&cH3'; // 31 characters, all distinct enough
    expect(short).toHaveLength(BOOTSTRAP_TOKEN_MIN_LENGTH - 1);
    expect(bootstrapTokenWeakness(short)).toMatch(
      /^QUIRE_BOOTSTRAP_TOKEN is too weak: 31 characters, at least 32 are needed; generate one with `openssl rand/,
    );
    // The 20-character tokens accepted before are weak now.
    expect(bootstrapTokenWeakness('a1b2c3d4e5f6g7h8i9j0')).toMatch(/too weak: 20 characters/);
  });

  it('is weak with little variety, however long', () => {
    expect(bootstrapTokenWeakness('a'.repeat(64))).toMatch(/fewer than 10 distinct characters/);
    expect(bootstrapTokenWeakness('0123'.repeat(10))).toMatch(/fewer than 10 distinct characters/);
  });

  it('stops every start when it can never be a token: white space, control or non-ASCII characters, over 200 characters', () => {
    expect(load('correct horse battery staple and more words')).toThrow(ConfigError);
    expect(load('correct horse battery staple and more words')).toThrow(/printable ASCII without white space/);
    expect(load(`${'k9Lm3Qx7Zp'.repeat(3)}\u0000xy`)).toThrow(/printable ASCII/);
    expect(load(`${'k9Lm3Qx7Zp'.repeat(3)}éé`)).toThrow(/printable ASCII/);
    expect(load('k9Lm3Qx7Zp'.repeat(21))).toThrow(/at most 200 characters/);
    // A weak one loads (the first start refuses it; a database set up before does not use it).
    expect(loadConfig({ QUIRE_BOOTSTRAP_TOKEN: 'short-but-printable' }).bootstrapToken).toBe('short-but-printable');
  });

  it('is strong at 32 characters with variety; unset, Quire generates one', () => {
    const ok = 'Xk9#pL2$vQ7@mN4!rT8%wZ1^bY6&cH3*';
    expect(ok).toHaveLength(BOOTSTRAP_TOKEN_MIN_LENGTH);
    expect(bootstrapTokenWeakness(ok)).toBeNull();
    expect(bootstrapTokenWeakness('qr_kill_during_merges_0123456789abcdef')).toBeNull();
    expect(loadConfig({ QUIRE_BOOTSTRAP_TOKEN: ok }).bootstrapToken).toBe(ok);
    expect(loadConfig({}).bootstrapToken).toBeNull();
    expect(loadConfig({ QUIRE_BOOTSTRAP_TOKEN: '' }).bootstrapToken).toBeNull();
  });
});

describe('QUIRE_GIT_HOSTS', () => {
  it('names the kind of Git hosts for edit links; a wrong entry stops the start with what is wrong', () => {
    expect([...loadConfig({ QUIRE_GIT_HOSTS: 'git.example.com=gitea' }).gitHosts]).toEqual([['git.example.com', 'gitea']]);
    expect(loadConfig({}).gitHosts.size).toBe(0);
    expect(() => loadConfig({ QUIRE_GIT_HOSTS: 'git.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_GIT_HOSTS: 'git.example.com=cvs' })).toThrow(/QUIRE_GIT_HOSTS: "git.example.com=cvs"/);
  });
});

describe('QUIRE_SMTP_URL and QUIRE_SMTP_FROM', () => {
  it('takes smtp: and smtps: URLs and an address or "Name <address>"; anything else stops the start', () => {
    expect(loadConfig({}).smtp).toEqual({ url: null, from: 'Quire <quire@localhost>' });
    expect(
      loadConfig({ QUIRE_SMTP_URL: 'smtps://user:pass@mail.example.com:465', QUIRE_SMTP_FROM: 'Docs <docs@example.com>' }).smtp,
    ).toEqual({
      url: 'smtps://user:pass@mail.example.com:465',
      from: 'Docs <docs@example.com>',
    });
    expect(loadConfig({ QUIRE_SMTP_FROM: 'docs@example.com' }).smtp.from).toBe('docs@example.com');
    expect(() => loadConfig({ QUIRE_SMTP_URL: 'http://mail.example.com' })).toThrow(/QUIRE_SMTP_URL must use smtp: or smtps:/);
    expect(() => loadConfig({ QUIRE_SMTP_FROM: 'not an address' })).toThrow(/QUIRE_SMTP_FROM/);
    expect(() => loadConfig({ QUIRE_SMTP_FROM: 'Docs\r\nBcc: x@example.com <docs@example.com>' })).toThrow(/QUIRE_SMTP_FROM/);
  });

  it('bounds the topics worker’s heap at 2,048 MB unless told; a size out of range stops the start', () => {
    expect(loadConfig({}).insights.topicsMemoryMb).toBe(2048);
    expect(loadConfig({ QUIRE_INSIGHTS_TOPICS_MEMORY_MB: '512' }).insights.topicsMemoryMb).toBe(512);
    for (const wrong of ['64', '1.5', 'lots', '-1', '2000000'])
      expect(() => loadConfig({ QUIRE_INSIGHTS_TOPICS_MEMORY_MB: wrong })).toThrow(
        /QUIRE_INSIGHTS_TOPICS_MEMORY_MB must be an integer from 128/,
      );
  });
});
