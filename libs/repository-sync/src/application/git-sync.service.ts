import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { Actor, checkOutboundHost, Clock, InvalidInputError, NotFoundError, roleAtLeast, UnauthenticatedError } from '@app/shared-kernel';
import { requireRole, SpacesService } from '@app/spaces-and-content';
import { IdentityService } from '@app/organizations-and-teams';
import { GitSyncSettings } from './git-sync-settings';
import { GitSyncQueue } from './git-sync-queue';
import {
  GitRemote,
  GitRemoteError,
  GitSyncConnection,
  GitSyncDirection,
  GitSyncRepository,
  type GitRemoteAccess,
} from '../domain/git-sync';
import { webhookSigned } from '../domain/webhook-signature';

export interface GitOperationInput {
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  force?: boolean;
  standalone?: boolean;
  timestamp?: string;
  commitMessage?: string;
}

/**
 * Git Sync's intake (the official `POST /spaces/{id}/git/import`, `…/git/export`, `GET …/git/info`, and the Git
 * host's push webhook). A request checks the caller and the remote's URL, records the operation and the space's
 * connection, and answers at once (204); the space's operations then run one at a time in the order of their
 * `timestamp`, as background jobs (GitSyncRunner). Branches are also polled (GitSyncPoller), and a merge into a
 * connected space queues an export (MergeExports).
 */
@Injectable()
export class GitSyncService {
  constructor(
    private readonly repo: GitSyncRepository,
    private readonly queue: GitSyncQueue,
    private readonly clock: Clock,
    private readonly spaces: SpacesService,
    private readonly settings: GitSyncSettings,
    private readonly remote: GitRemote,
    private readonly identity: IdentityService,
  ) {}

  /**
   * One file written to the branch now, as its own commit by the caller (a site's configuration, written
   * back); answers the commit the branch is at afterwards (its head when the file was already so). The URL is
   * checked as an export's is; a remote that refuses or fails is a 400 saying why.
   */
  async writeFile(actor: Actor, url: string, ref: string, path: string, text: string, message: string): Promise<string> {
    const remote = this.checkUrl(url);
    checkRef(ref);
    const user = await this.identity.getUser(actor.userId);
    try {
      const commit = await this.remote.write(remote, ref, {
        write: new Map([[path, text]]),
        remove: () => [],
        message,
        author: { name: user?.displayName || user?.email || 'Quire', email: user?.email ?? 'quire@localhost' },
        at: this.clock.now(),
        expect: null,
      });
      return commit.oid;
    } catch (e) {
      if (e instanceof GitRemoteError) throw new InvalidInputError(`The repository could not be written: ${e.message}`);
      throw e;
    }
  }

  /** Where a space is connected (its URL without credentials, branch and folder), or null. */
  async connectionOf(spaceId: string): Promise<{ url: string; ref: string; directory: string } | null> {
    const c = await this.repo.connection(spaceId);
    return c ? { url: c.remote.url, ref: c.ref, directory: c.projectDirectory } : null;
  }

  /**
   * The first of `paths` the branch holds, read now (a site's configuration, before its spaces are connected):
   * its path, text and the commit. Null when it holds none of them, or the branch does not exist. The URL is
   * checked as an import's is; a remote that refuses or fails is a 400 saying why.
   */
  async readFirst(url: string, ref: string, paths: readonly string[]): Promise<{ path: string; text: string; commit: string } | null> {
    const remote = this.checkUrl(url);
    checkRef(ref);
    try {
      const found = await this.remote.read(remote, ref, (checkout) => {
        for (const path of paths) {
          const text = checkout.files.read(path);
          if (text !== null) return Promise.resolve({ path, text, commit: checkout.commit.oid });
        }
        return Promise.resolve(null);
      });
      return found ?? null;
    } catch (e) {
      if (e instanceof GitRemoteError) throw new InvalidInputError(`The repository could not be read: ${e.message}`);
      throw e;
    }
  }

  /**
   * The first of `paths` on the branch a space is connected to, read with the connection's own credentials
   * (a site whose structure comes from that repository, re-read after a push); null when the space is not
   * connected, or the branch holds none of them. A remote that fails throws.
   */
  async readFirstOnBranchOf(
    spaceId: string,
    paths: readonly string[],
  ): Promise<{ url: string; ref: string; path: string; text: string; commit: string } | null> {
    const c = await this.repo.connection(spaceId);
    if (!c) return null;
    const found = await this.remote.read(c.remote, c.ref, (checkout) => {
      for (const path of paths) {
        const text = checkout.files.read(path);
        if (text !== null) return Promise.resolve({ path, text, commit: checkout.commit.oid });
      }
      return Promise.resolve(null);
    });
    return found ? { url: c.remote.url, ref: c.ref, ...found } : null;
  }

  /**
   * Connects a space to a folder of the repository and branch another space is connected to (its credentials
   * with it, never shown) and imports it, as `request` does; false when that space is not connected.
   */
  async connectLike(actor: Actor, spaceId: string, like: string, directory: string): Promise<boolean> {
    const c = await this.repo.connection(like);
    if (!c) return false;
    const url = new URL(c.remote.url);
    if (c.remote.credentials) {
      const at = c.remote.credentials.indexOf(':');
      url.username = encodeURIComponent(at < 0 ? c.remote.credentials : c.remote.credentials.slice(0, at));
      url.password = at < 0 ? '' : encodeURIComponent(c.remote.credentials.slice(at + 1));
    }
    await this.request(actor, spaceId, 'import', { url: url.toString(), ref: c.ref, repoProjectDirectory: directory });
    return true;
  }

  async request(actor: Actor, spaceId: string, direction: GitSyncDirection, input: GitOperationInput): Promise<void> {
    const { space, role } = await this.spaces.getLive(actor, spaceId);
    requireRole(role, 'edit', 'Git Sync');
    const remote = this.checkUrl(input.url);
    checkRef(input.ref);
    const projectDirectory = checkProjectDirectory(input.repoProjectDirectory);
    const now = this.clock.now();
    const requestedAt = input.timestamp ? new Date(input.timestamp) : now;
    const operation = this.queue.newOperation({
      spaceId: space.id,
      organizationId: space.organizationId,
      direction,
      remote,
      ref: input.ref,
      projectDirectory,
      commitMessage: input.commitMessage ?? null,
      force: input.force === true,
      standalone: input.standalone === true,
      requestedAt,
      requestedBy: actor.userId,
      changeRequest: null,
    });
    const previous = await this.repo.connection(space.id);
    const sameRemote = previous && previous.remote.url === remote.url && previous.ref === input.ref;
    await this.repo.saveConnection({
      spaceId: space.id,
      organizationId: space.organizationId,
      remote: { url: remote.url, credentials: remote.credentials ?? (sameRemote ? previous.remote.credentials : null) },
      ref: input.ref,
      projectDirectory,
      lastCommit: sameRemote ? previous.lastCommit : null,
      lastRevision: sameRemote ? previous.lastRevision : null,
      connectedBy: actor.userId,
      webhookSecret: previous?.webhookSecret ?? randomBytes(24).toString('base64url'),
      polledAt: sameRemote ? previous.polledAt : null,
      operation: { state: 'running', direction, startedAt: now, endedAt: null, error: null },
      updatedAt: now,
    });
    if (remote.credentials === null && sameRemote) operation.remote = previous.remote;
    await this.queue.enqueue(operation);
  }

  /**
   * The official GitSyncState of the space (read access); 404 when no Git provider is set up. `editor`: the
   * caller may edit (and so may see the push webhook's secret).
   */
  async info(actor: Actor, spaceId: string): Promise<{ connection: GitSyncConnection; editor: boolean }> {
    const { space, role } = await this.spaces.getLive(actor, spaceId);
    const connection = await this.repo.connection(space.id);
    if (!connection) throw new NotFoundError('Git Sync configuration of space', spaceId);
    return { connection, editor: roleAtLeast(role, 'edit') };
  }

  /**
   * A push webhook from the Git host (GitHub, Gitea: an HMAC-SHA256 of the body under the space's webhook
   * secret; GitLab: the secret itself as its token). A push to the connected branch queues an import, run as
   * the person who connected the space; other refs and events are ignored.
   */
  async pushed(
    spaceId: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer | undefined,
  ): Promise<'queued' | 'ignored'> {
    const connection = await this.repo.connection(spaceId);
    if (!connection) throw new NotFoundError('Git Sync configuration of space', spaceId);
    const header = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const raw = body ?? Buffer.alloc(0);
    if (!webhookSigned(header, raw, connection.webhookSecret))
      throw new UnauthenticatedError("The webhook's signature or token does not match the space's webhook secret");
    let payload: { ref?: unknown; after?: unknown; checkout_sha?: unknown };
    try {
      payload = JSON.parse(raw.toString('utf8')) as typeof payload;
    } catch {
      throw new InvalidInputError('The webhook body is not JSON');
    }
    const event = header('x-github-event') ?? header('x-gitea-event') ?? header('x-gitlab-event');
    if (event !== undefined && !/^(push|Push Hook)$/.test(event)) return 'ignored';
    if (!payload || typeof payload !== 'object' || payload.ref !== connection.ref) return 'ignored';
    const after =
      typeof payload.after === 'string' ? payload.after : typeof payload.checkout_sha === 'string' ? payload.checkout_sha : null;
    if (after !== null && after === connection.lastCommit) return 'ignored';
    await this.queue.importOf(connection, this.clock.now());
    return 'queued';
  }

  /**
   * An http(s) URL, its credentials taken out (they are kept sealed, never in the URL): plain http and private,
   * loopback or link-local addresses only for hosts of QUIRE_GIT_URL_ALLOWLIST (a host name is checked again,
   * with what it resolves to, when the remote is reached).
   */
  private checkUrl(raw: string): GitRemoteAccess {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new InvalidInputError('url: not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InvalidInputError('url: a Git remote over http(s)');
    checkOutboundHost(url, this.settings.allowlist, 'QUIRE_GIT_URL_ALLOWLIST');
    const credentials = url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : null;
    url.username = '';
    url.password = '';
    url.hash = '';
    return { url: url.toString(), credentials };
  }

  /** `quire secrets:rotate`: Git credentials and webhook secrets sealed again under the current key. */
  resealSecrets(): Promise<number> {
    return this.repo.resealSecrets();
  }
}

/** The official `repoProjectDirectory`: a folder inside the repository ('' for its top). */
function checkProjectDirectory(raw: string | undefined): string {
  if (raw === undefined) return '';
  const p = posix.normalize(raw.replace(/\\/g, '/').replace(/^\/+/, '')).replace(/\/+$/, '');
  if (p === '..' || p.startsWith('../') || p.split('/').includes('.git'))
    throw new InvalidInputError('repoProjectDirectory: a folder inside the repository');
  return p === '.' ? '' : p;
}

function checkRef(ref: string): void {
  if (typeof ref !== 'string' || !/^refs\/heads\/[^\s~^:?*[\\]+$/.test(ref) || ref.includes('..'))
    throw new InvalidInputError('ref: a branch, in the format "refs/heads/main"');
}
