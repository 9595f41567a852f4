import { Injectable } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { HostResolver } from '@app/shared-kernel';
import { GitSyncSettings } from '../application/git-sync-settings';
import {
  GitCheckout,
  GitCommitInfo,
  GitRemote,
  GitRemoteAccess,
  GitRemoteError,
  GitRemoteMovedError,
  type GitWrite,
} from '../domain/git-sync';
import { repositoryFolder } from '../application/repository-folder';
import { startOutboundProxy, type OutboundProxy } from './outbound-proxy';

/**
 * The credential helper git asks (`get`) when a remote wants credentials: it answers only for the remote's own
 * origin (scheme, host and port), so a redirect to another origin is never given them. They come from the
 * environment of the one git process, never from its arguments (visible to every user of the machine).
 */
const CREDENTIAL_HELPER =
  '!f() { test "$1" = get || exit 0; h=; p=; while IFS= read -r l; do case "$l" in host=*) h="${l#host=}";; protocol=*) p="${l#protocol=}";; esac; done; ' +
  'if [ "$p://$h" = "$QUIRE_GIT_ORIGIN" ]; then printf "username=%s\\npassword=%s\\n" "$QUIRE_GIT_USERNAME" "$QUIRE_GIT_PASSWORD"; fi; }; f';

/** The most of git's error output kept to explain a failure. */
const STDERR_KEPT = 8192;

/**
 * Git remotes through the `git` command (Debian's git, installed beside Node in the image): a clone streams its
 * packfile to disk and checks it out there, so an import holds one file in memory at a time, not the repository.
 * git's HTTP goes through an outbound proxy on loopback (`startOutboundProxy`) that applies the kernel's rule to
 * every host it is sent to (redirects included): public addresses only unless the host is in
 * QUIRE_GIT_URL_ALLOWLIST, the connection pinned to the checked address, the bytes counted. git runs with no
 * system or user configuration, http(s) as its only protocols, no prompt, credentials from a helper that answers
 * the remote's origin only. Each operation works in a temporary folder (a shallow clone of the one branch),
 * removed afterwards.
 */
@Injectable()
export class GitCliRemote extends GitRemote {
  constructor(
    private readonly settings: GitSyncSettings,
    private readonly resolver: HostResolver,
  ) {
    super();
  }

  async head(remote: GitRemoteAccess, ref: string): Promise<string | null> {
    return (await this.refs(remote)).get(ref) ?? null;
  }

  async read<T>(remote: GitRemoteAccess, ref: string, use: (checkout: GitCheckout) => Promise<T>): Promise<T | null> {
    if (!(await this.refs(remote)).has(ref)) return null;
    const dir = mkdtempSync(join(tmpdir(), 'quire-git-read-'));
    try {
      const commit = await this.checkout(remote, ref, join(dir, 'work'));
      const folder = repositoryFolder(join(dir, 'work'));
      return await use({ commit, files: folder });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async write(remote: GitRemoteAccess, ref: string, change: GitWrite): Promise<GitCommitInfo> {
    const dir = mkdtempSync(join(tmpdir(), 'quire-git-write-'));
    const work = join(dir, 'work');
    try {
      const head = (await this.refs(remote)).get(ref);
      const exists = head !== undefined;
      if (change.expect !== null && head !== change.expect)
        throw new GitRemoteMovedError(
          `The branch ${ref} moved since the last sync (it is at ${head ?? 'nothing'}): its changes are imported first`,
        );
      let current: GitCommitInfo | null = null;
      if (exists) current = await this.checkout(remote, ref, work);
      else {
        mkdirSync(work);
        await this.git(remote, ['init', '--quiet', `--initial-branch=${branchOf(ref)}`], work);
      }
      const root = resolve(work);
      const present = exists ? repositoryFolder(work).paths() : [];
      for (const path of change.remove(present)) rmSync(join(work, path), { force: true });
      for (const [path, content] of change.write) {
        const full = resolve(root, path);
        if (!full.startsWith(root + sep) || path.split('/').includes('.git'))
          throw new GitRemoteError(`${path} would leave the repository`);
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
      await this.git(remote, ['add', '--all', '.'], work);
      const status = await this.git(remote, ['status', '--porcelain'], work);
      if (!status.trim() && current) return current;
      const who = { name: change.author.name, email: change.author.email, date: `${Math.floor(change.at.getTime() / 1000)} +0000` };
      await this.git(remote, ['commit', '--quiet', '--no-verify', '--allow-empty', '-F', '-'], work, {
        input: change.message,
        env: {
          GIT_AUTHOR_NAME: who.name,
          GIT_AUTHOR_EMAIL: who.email,
          GIT_AUTHOR_DATE: who.date,
          GIT_COMMITTER_NAME: who.name,
          GIT_COMMITTER_EMAIL: who.email,
          GIT_COMMITTER_DATE: who.date,
        },
      });
      const oid = (await this.git(remote, ['rev-parse', 'HEAD'], work)).trim();
      await this.network(remote, ['push', '--quiet', '--no-verify', remote.url, `HEAD:${ref}`], work);
      return { oid, message: change.message };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The refs of the remote (refs/heads/…) and their commits. */
  private async refs(remote: GitRemoteAccess): Promise<Map<string, string>> {
    const out = await this.network(remote, ['ls-remote', '--heads', remote.url], tmpdir());
    return new Map(
      out
        .split('\n')
        .map((line) => line.split('\t'))
        .filter((p) => p.length === 2)
        .map(([oid, name]) => [name, oid]),
    );
  }

  /** A shallow clone of the one branch into `dir`; answers the commit checked out. */
  private async checkout(remote: GitRemoteAccess, ref: string, dir: string): Promise<GitCommitInfo> {
    await this.network(
      remote,
      ['clone', '--quiet', '--depth', '1', '--single-branch', '--no-tags', '--branch', branchOf(ref), remote.url, dir],
      tmpdir(),
    );
    const out = await this.git(remote, ['log', '-1', '--format=%H%x00%B'], dir);
    const at = out.indexOf('\0');
    return { oid: out.slice(0, at), message: out.slice(at + 1).trim() };
  }

  /** git talking to the remote: through a proxy of its own, for this one command. */
  private async network(remote: GitRemoteAccess, args: string[], cwd: string): Promise<string> {
    const allowed = (host: string) => this.settings.allowlist.includes(host.toLowerCase());
    const proxy = await startOutboundProxy({
      privateAllowed: allowed,
      resolve: (host) => this.resolver.lookup(host),
      maxBytes: this.settings.maxBytes,
    });
    try {
      return await this.git(remote, args, cwd, { proxy });
    } finally {
      await proxy.close();
    }
  }

  private git(
    remote: GitRemoteAccess,
    args: string[],
    cwd: string,
    options: { proxy?: OutboundProxy; input?: string; env?: Record<string, string> } = {},
  ): Promise<string> {
    const url = new URL(remote.url);
    const at = remote.credentials?.indexOf(':') ?? -1;
    const [username, password] = !remote.credentials
      ? ['', '']
      : at < 0
        ? [remote.credentials, '']
        : [remote.credentials.slice(0, at), remote.credentials.slice(at + 1)];
    const config: [string, string][] = [
      ['protocol.allow', 'never'],
      ['protocol.http.allow', 'always'],
      ['protocol.https.allow', 'always'],
      ['http.proxy', options.proxy?.url ?? 'http://127.0.0.1:9'],
      ['http.proxyAuthMethod', 'basic'],
      ['credential.helper', ''],
      ['credential.helper', remote.credentials ? CREDENTIAL_HELPER : ''],
      ['core.hooksPath', '/dev/null'],
      // A link the repository holds is checked out as a plain file: nothing read or written follows it out.
      ['core.symlinks', 'false'],
      ['core.fsmonitor', 'false'],
      ['gc.auto', '0'],
      ['advice.detachedHead', 'false'],
      ['init.defaultBranch', 'main'],
      ['user.name', 'Quire'],
      ['user.email', 'quire@localhost'],
    ];
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: cwd,
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_COUNT: String(config.length),
      QUIRE_GIT_ORIGIN: `${url.protocol.slice(0, -1)}://${url.host}`,
      QUIRE_GIT_USERNAME: username,
      QUIRE_GIT_PASSWORD: password,
      ...options.env,
    };
    config.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    return new Promise((resolveRun, reject) => {
      const input = options.input;
      const child = spawn('git', args, { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let err = '';
      let killed: string | null = null;
      const started = Date.now();
      const watchdog = setInterval(() => {
        const proxy = options.proxy;
        const idle = proxy && proxy.open() > 0 && Date.now() - proxy.lastActivity() > this.settings.timeoutMs;
        if (idle || Date.now() - started > this.settings.operationTimeoutMs) {
          killed = 'The remote did not answer in time';
          child.kill('SIGKILL');
        }
      }, 1000);
      child.stdout!.on('data', (c: Buffer) => out.push(c));
      child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-STDERR_KEPT)));
      child.on('error', (e) => {
        clearInterval(watchdog);
        reject(new GitRemoteError(`git could not be run: ${e.message}`));
      });
      child.on('close', (code) => {
        clearInterval(watchdog);
        if (code === 0) resolveRun(Buffer.concat(out).toString('utf8'));
        else reject(explain(killed, err, options.proxy?.refusal() ?? null, password));
      });
      if (child.stdin) {
        // git may exit before it reads (an error): its closed input is not ours to report.
        child.stdin.on('error', () => undefined);
        child.stdin.end(input);
      }
    });
  }
}

/** `refs/heads/main` → `main`. */
function branchOf(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/** What went wrong with a remote, said for the person who reads `git/info` (never the password). */
function explain(killed: string | null, stderr: string, refusal: string | null, password: string): GitRemoteError {
  if (killed) return new GitRemoteError(killed);
  if (refusal && !refusal.startsWith('could not be reached'))
    return new GitRemoteError(`The remote could not be reached: its URL ${refusal}`);
  if (/Authentication failed|could not read (Username|Password)|terminal prompts disabled/i.test(stderr))
    return new GitRemoteError(
      'The remote refused the credentials (or asks for some and none were given): check the user and password or token',
    );
  if (/\[rejected\]|non-fast-forward|fetch first|failed to push/i.test(stderr))
    return new GitRemoteError('The remote moved since it was read (the push was not a fast-forward): import its changes first');
  if (/repository '.*' not found/.test(stderr)) return new GitRemoteError('The remote answered HTTP 404: is the URL a Git repository?');
  const status = /returned error: (\d{3})|HTTP code (\d{3})/.exec(stderr);
  if (status) return new GitRemoteError(`The remote answered HTTP ${status[1] ?? status[2]}: is the URL a Git repository?`);
  if (refusal) return new GitRemoteError(`The remote ${refusal}`);
  if (/not valid: is this a git repository|not a git repository|unexpected (content-type|end)|bad line length/i.test(stderr))
    return new GitRemoteError('The URL does not answer as a Git repository (smart HTTP)');
  const last = stderr.trim().split('\n').pop() ?? '';
  const said = password ? last.split(password).join('***') : last;
  return new GitRemoteError(`Git failed: ${said.replace(/^fatal: /, '') || 'no reason given'}`);
}
