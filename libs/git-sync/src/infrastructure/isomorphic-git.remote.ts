import { Injectable } from '@nestjs/common';
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import git, { type GitAuth, type GitHttpRequest, type GitHttpResponse, type HttpClient } from 'isomorphic-git';
import { HostResolver, safeGet, SafeGetError } from '@app/shared-kernel';
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

/**
 * Git remotes through isomorphic-git (pure JavaScript, the smart HTTP protocol), its HTTP requests made by the
 * kernel's one outbound client (`safeGet`): every address checked (private and loopback ones only for hosts
 * of QUIRE_GIT_URL_ALLOWLIST), the connection pinned to it, bounded in time and size. Each operation works in
 * a temporary folder (a shallow clone of the one branch), removed afterwards.
 */
@Injectable()
export class IsomorphicGitRemote extends GitRemote {
  constructor(
    private readonly settings: GitSyncSettings,
    private readonly resolver: HostResolver,
  ) {
    super();
  }

  private http(): HttpClient {
    const allowed = (host: string) => this.settings.allowlist.includes(host.toLowerCase());
    return {
      request: async (req: GitHttpRequest): Promise<GitHttpResponse> => {
        const chunks: Buffer[] = [];
        if (req.body) for await (const chunk of req.body) chunks.push(Buffer.from(chunk));
        const method = (req.method ?? 'GET').toUpperCase();
        if (method !== 'GET' && method !== 'POST') throw new GitRemoteError(`Git over HTTP uses GET and POST (not ${method})`);
        const res = await safeGet(req.url, {
          method,
          headers: req.headers ?? {},
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
          maxBytes: this.settings.maxBytes,
          timeoutMs: this.settings.timeoutMs,
          maxRedirects: 3,
          hostAllowed: () => true,
          privateAllowed: allowed,
          resolve: (host) => this.resolver.lookup(host),
        });
        return {
          url: res.url,
          method,
          statusCode: res.status,
          statusMessage: String(res.status),
          headers: res.contentType ? { 'content-type': res.contentType } : {},
          body: once(new Uint8Array(res.bytes)),
        };
      },
    };
  }

  private auth(remote: GitRemoteAccess) {
    const onAuth = (): GitAuth => {
      if (!remote.credentials) return { cancel: true };
      const at = remote.credentials.indexOf(':');
      return at < 0
        ? { username: remote.credentials, password: '' }
        : { username: remote.credentials.slice(0, at), password: remote.credentials.slice(at + 1) };
    };
    // Credentials are offered once; a refusal of them is final (no prompt to loop on).
    return { onAuth, onAuthFailure: (): GitAuth => ({ cancel: true }) };
  }

  /** The refs of the remote (refs/heads/…) and their commits; a clear error for what goes wrong. */
  private async refs(remote: GitRemoteAccess, forPush: boolean): Promise<Map<string, string>> {
    const info = await this.attempt(() => git.getRemoteInfo2({ http: this.http(), url: remote.url, forPush, ...this.auth(remote) }));
    return new Map((info.refs ?? []).map((r) => [r.ref, r.oid]));
  }

  private async attempt<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw explain(e);
    }
  }

  private async checkout(remote: GitRemoteAccess, ref: string, dir: string): Promise<GitCommitInfo> {
    await this.attempt(() =>
      git.clone({
        fs,
        http: this.http(),
        dir,
        url: remote.url,
        ref: branchOf(ref),
        singleBranch: true,
        depth: 1,
        noTags: true,
        ...this.auth(remote),
      }),
    );
    const [head] = await git.log({ fs, dir, depth: 1 });
    return { oid: head.oid, message: head.commit.message.trim() };
  }

  async head(remote: GitRemoteAccess, ref: string): Promise<string | null> {
    return (await this.refs(remote, false)).get(ref) ?? null;
  }

  async read(remote: GitRemoteAccess, ref: string): Promise<GitCheckout | null> {
    if (!(await this.refs(remote, false)).has(ref)) return null;
    const dir = mkdtempSync(join(tmpdir(), 'quire-git-read-'));
    try {
      const commit = await this.checkout(remote, ref, dir);
      // The files are read now: the folder goes away with this call.
      const folder = repositoryFolder(dir);
      const bytes = new Map(folder.paths().map((p) => [p, folder.bytes(p)!]));
      return {
        commit,
        files: {
          paths: () => [...bytes.keys()],
          read: (p) => bytes.get(p)?.toString('utf8') ?? null,
          bytes: (p) => bytes.get(p) ?? null,
        },
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async write(remote: GitRemoteAccess, ref: string, change: GitWrite): Promise<GitCommitInfo> {
    const dir = mkdtempSync(join(tmpdir(), 'quire-git-write-'));
    try {
      const head = (await this.refs(remote, true)).get(ref);
      const exists = head !== undefined;
      if (change.expect !== null && head !== change.expect)
        throw new GitRemoteMovedError(
          `The branch ${ref} moved since the last sync (it is at ${head ?? 'nothing'}): its changes are imported first`,
        );
      let current: GitCommitInfo | null = null;
      if (exists) current = await this.checkout(remote, ref, dir);
      else await git.init({ fs, dir, defaultBranch: branchOf(ref) });
      const root = resolve(dir);
      const present = exists ? repositoryFolder(dir).paths() : [];
      for (const path of change.remove(present)) {
        rmSync(join(dir, path), { force: true });
        await git.remove({ fs, dir, filepath: path });
      }
      for (const [path, content] of change.write) {
        const full = resolve(root, path);
        if (!full.startsWith(root + sep) || path.split('/').includes('.git'))
          throw new GitRemoteError(`${path} would leave the repository`);
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
        await git.add({ fs, dir, filepath: path });
      }
      const changed = (await git.statusMatrix({ fs, dir })).some(([, head, workdir, stage]) => head !== workdir || workdir !== stage);
      if (!changed && current) return current;
      const author = {
        name: change.author.name,
        email: change.author.email,
        timestamp: Math.floor(change.at.getTime() / 1000),
        timezoneOffset: 0,
      };
      const oid = await git.commit({ fs, dir, message: change.message, author, committer: author });
      const pushed = await this.attempt(() =>
        git.push({ fs, http: this.http(), dir, url: remote.url, ref: branchOf(ref), remoteRef: ref, ...this.auth(remote) }),
      );
      if (!pushed.ok) throw new GitRemoteError(`The remote refused the push: ${pushed.error ?? 'no reason given'}`);
      return { oid, message: change.message };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** One chunk as the async iterator isomorphic-git reads bodies from. */
function once(chunk: Uint8Array): AsyncIterableIterator<Uint8Array> {
  return [chunk][Symbol.iterator]() as unknown as AsyncIterableIterator<Uint8Array>;
}

/** `refs/heads/main` → `main`. */
function branchOf(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/** What went wrong with a remote, said for the person who reads `git/info`. */
function explain(e: unknown): Error {
  if (e instanceof GitRemoteError) return e;
  if (e instanceof SafeGetError) return new GitRemoteError(`The remote could not be reached: its URL ${e.message}`);
  const err = e as { code?: string; data?: { statusCode?: number }; message?: string };
  const status = err.data?.statusCode;
  if (err.code === 'HttpError' && (status === 401 || status === 403))
    return new GitRemoteError(`The remote refused the credentials (HTTP ${status}): check the user and password or token`);
  if (err.code === 'UserCanceledError')
    return new GitRemoteError(
      'The remote refused the credentials (or asks for some and none were given): check the user and password or token',
    );
  if (err.code === 'PushRejectedError')
    return new GitRemoteError('The remote moved since it was read (the push was not a fast-forward): import its changes first');
  if (err.code === 'HttpError') return new GitRemoteError(`The remote answered HTTP ${status ?? '?'}: is the URL a Git repository?`);
  if (err.code === 'SmartHttpError') return new GitRemoteError('The URL does not answer as a Git repository (smart HTTP)');
  return new GitRemoteError(`Git failed: ${err.message ?? String(e)}`);
}
