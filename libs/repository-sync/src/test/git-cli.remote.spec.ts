import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostResolver } from '@app/shared-kernel';
import { GIT_PASSWORD, GIT_USER, startGitServer, type GitServer } from '../../../../test/support/git-server';
import { GitCliRemote } from '../infrastructure/git-cli.remote';
import type { GitSyncSettings } from '../application/git-sync-settings';
import type { GitCheckout } from '../domain/git-sync';

/** Names the system cannot resolve: that they are reached at all shows the connection went to the checked address. */
class Names extends HostResolver {
  constructor(private readonly table: Record<string, string[]>) {
    super();
  }
  async lookup(host: string): Promise<string[]> {
    return this.table[host] ?? [];
  }
}

const settings = (over: Partial<GitSyncSettings> = {}): GitSyncSettings => ({
  allowlist: ['127.0.0.1', 'git.internal.test'],
  maxBytes: 64 * 1024 * 1024,
  timeoutMs: 20_000,
  operationTimeoutMs: 60_000,
  pollMs: 0,
  hosts: new Map(),
  ...over,
});

const MAIN = 'refs/heads/main';

describe('GitCliRemote: the git command behind the outbound rule', () => {
  let git: GitServer;
  let source: string;
  let port: string;

  beforeAll(async () => {
    git = await startGitServer();
    source = mkdtempSync(join(tmpdir(), 'quire-git-src-'));
    mkdirSync(join(source, '.gitbook', 'assets'), { recursive: true });
    writeFileSync(join(source, 'README.md'), '# Hello\n');
    writeFileSync(join(source, '.gitbook', 'assets', 'blob.bin'), randomBytes(300_000));
    git.seed('docs', source);
    port = new URL(git.url('docs')).port;
  });
  afterAll(async () => {
    await git.close();
    rmSync(source, { recursive: true, force: true });
  });

  const remote = (host = '127.0.0.1', credentials: string | null = `${GIT_USER}:${GIT_PASSWORD}`) => ({
    url: `http://${host}:${port}/docs.git`,
    credentials,
  });

  it('reads a branch into a checkout whose files are read from disk, and removes it once used', async () => {
    const r = new GitCliRemote(settings(), new Names({ 'git.internal.test': ['127.0.0.1'] }));
    let seen: GitCheckout | null = null;
    const size = await r.read(remote('git.internal.test'), MAIN, async (c) => {
      seen = c;
      expect([...c.files.paths()].sort()).toEqual(['.gitbook/assets/blob.bin', 'README.md']);
      expect(c.files.read('README.md')).toBe('# Hello\n');
      return c.files.bytes('.gitbook/assets/blob.bin')!.length;
    });
    expect(size).toBe(300_000);
    expect(seen!.commit.oid).toBe(git.bare('docs', 'rev-parse', 'refs/heads/main'));
    expect(seen!.commit.message).toBe('Initial import');
    // The checkout is gone: its files can no longer be read.
    expect(() => seen!.files.bytes('README.md')).toThrow(/ENOENT/);
    expect(await r.read(remote('git.internal.test'), 'refs/heads/nope', async () => 1)).toBeNull();
  }, 60_000);

  it('a link the repository holds is a plain file: neither a read nor a push follows it out of the checkout', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'quire-git-outside-'));
    const secretFile = join(outside, 'secret.txt');
    writeFileSync(secretFile, 'not for the repository\n');
    const linked = mkdtempSync(join(tmpdir(), 'quire-git-linked-'));
    writeFileSync(join(linked, 'README.md'), '# Linked\n');
    symlinkSync(secretFile, join(linked, 'guide.md'));
    git.seed('linked', linked);
    try {
      const r = new GitCliRemote(settings(), new Names({}));
      const at = { url: `http://127.0.0.1:${port}/linked.git`, credentials: `${GIT_USER}:${GIT_PASSWORD}` };
      expect(await r.read(at, MAIN, async (c) => c.files.read('guide.md'))).toBe(secretFile);
      await r.write(at, MAIN, {
        write: new Map([['guide.md', '# Guide\n']]),
        remove: () => [],
        message: 'Guide from Quire',
        author: { name: 'Ada', email: 'ada@example.com' },
        at: new Date('2026-11-28T12:00:00Z'),
        expect: null,
      });
      expect(readFileSync(secretFile, 'utf8')).toBe('not for the repository\n');
      expect(git.bare('linked', 'show', 'HEAD:guide.md')).toBe('# Guide');
    } finally {
      rmSync(outside, { recursive: true, force: true });
      rmSync(linked, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a host that resolves to a private address unless it is allowlisted, before anything is sent', async () => {
    const r = new GitCliRemote(settings({ allowlist: [] }), new Names({ 'evil.example': ['127.0.0.1'] }));
    await expect(r.head(remote('evil.example'), MAIN)).rejects.toThrow(
      /could not be reached: its URL host "evil.example" resolves to a private/,
    );
    await expect(r.head(remote('unknown.example'), MAIN)).rejects.toThrow(/does not resolve/);
  }, 30_000);

  it('checks every host a redirect leads to, and gives the credentials to the first origin only', async () => {
    const seen: (string | undefined)[] = [];
    const target: Server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
    });
    await new Promise<void>((ok) => target.listen(0, '127.0.0.1', ok));
    const to = (host: string) => {
      const s = createServer((req, res) => {
        if (!req.headers.authorization) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
        res.writeHead(302, { location: `http://${host}:${(target.address() as AddressInfo).port}${req.url}` }).end();
      });
      return new Promise<Server>((ok) => s.listen(0, '127.0.0.1', () => ok(s)));
    };
    const toPrivate = await to('inside.example');
    const toAllowed = await to('127.0.0.1');
    try {
      const names = new Names({ 'git.internal.test': ['127.0.0.1'], 'inside.example': ['127.0.0.1'] });
      const r = new GitCliRemote(settings(), names);
      const at = (s: Server) => ({ url: `http://git.internal.test:${(s.address() as AddressInfo).port}/docs.git`, credentials: 'u:p4ss' });
      await expect(r.head(at(toPrivate), MAIN)).rejects.toThrow(/host "inside.example" resolves to a private/);
      expect(seen).toEqual([]);
      await expect(r.head(at(toAllowed), MAIN)).rejects.toThrow(/refused the credentials/);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((a) => a === undefined)).toBe(true);
    } finally {
      for (const s of [target, toPrivate, toAllowed]) await new Promise((ok) => s.close(ok));
    }
  }, 30_000);

  it('stops a remote that sends more than the most bytes allowed', async () => {
    const r = new GitCliRemote(settings({ maxBytes: 100_000 }), new Names({}));
    await expect(r.read(remote(), MAIN, async () => 'read')).rejects.toThrow(/more than 100000 bytes/);
  }, 30_000);

  it('says why: wrong credentials, no repository at the URL, a refused push', async () => {
    const r = new GitCliRemote(settings(), new Names({}));
    await expect(r.head(remote('127.0.0.1', `${GIT_USER}:wrong`), MAIN)).rejects.toThrow(/refused the credentials/);
    await expect(r.head(remote('127.0.0.1', null), MAIN)).rejects.toThrow(/refused the credentials/);
    const missing = { url: `http://127.0.0.1:${port}/nothing-here.git`, credentials: `${GIT_USER}:${GIT_PASSWORD}` };
    await expect(r.head(missing, MAIN)).rejects.toThrow(/answered HTTP 404|not answer as a Git repository/);
    const head = git.bare('docs', 'rev-parse', 'refs/heads/main');
    const at = new Date('2026-11-28T12:00:00Z');
    const written = await r.write(remote(), MAIN, {
      write: new Map([['faq.md', '# FAQ\n']]),
      remove: () => [],
      message: 'FAQ from Quire',
      author: { name: 'Ada', email: 'ada@example.com' },
      at,
      expect: head,
    });
    expect(git.bare('docs', 'log', '-1', '--format=%an <%ae> %at %s')).toBe(`Ada <ada@example.com> ${at.getTime() / 1000} FAQ from Quire`);
    expect(written.oid).toBe(git.bare('docs', 'rev-parse', 'refs/heads/main'));
    await expect(
      r.write(remote(), MAIN, {
        write: new Map([['x.md', 'x']]),
        remove: () => [],
        message: 'm',
        author: { name: 'A', email: 'a@b.c' },
        at,
        expect: head,
      }),
    ).rejects.toThrow(/moved since the last sync/);
  }, 60_000);
});
