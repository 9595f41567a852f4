import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { posix } from 'node:path';
import { readGitbookRepository } from '@app/content-model';
import { IdentityService } from '@app/organizations-and-teams';
import { ChangeRequestsService, RepositoryImport } from '@app/review-and-comments';
import {
  Actor,
  Clock,
  ConflictError,
  DomainError,
  DomainEvent,
  DomainEvents,
  IdGenerator,
  InvalidInputError,
  checkOutboundHost,
  JobQueue,
  NotFoundError,
  roleAtLeast,
  UnauthenticatedError,
} from '@app/shared-kernel';
import { RepositoryExport, requireRole, SpacesService } from '@app/spaces-and-content';
import { GitSyncSettings } from './git-sync-settings';
import {
  GitRemote,
  GitRemoteError,
  GitRemoteMovedError,
  GitSyncConnection,
  GitSyncDirection,
  GitSyncOperation,
  GitSyncRepository,
  type GitRemoteAccess,
} from '../domain/git-sync';

export const GIT_SYNC_QUEUE = 'git-sync';
export const GIT_SYNC_SWEEP_QUEUE = 'git-sync-sweep';
export const GIT_SYNC_POLL_QUEUE = 'git-sync-poll';

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
 * Git Sync (the official `POST /spaces/{id}/git/import`, `…/git/export`, `GET …/git/info`). A request checks the
 * caller and the remote's URL, records the operation and the space's connection, and answers at once (204);
 * the space's operations then run one at a time in the order of their `timestamp`, as background jobs.
 *
 * - **Import** reads the branch and brings its content in as a change request (RepositoryImport: pages matched by
 *   their files' paths keep their ids). When the space did not move since the last sync (or is empty, or
 *   `force`), the change request is merged at once, and the merge revision carries the commit (`git`). When
 *   both sides moved, it starts from the revision of the last sync and stays open: the three-way merge shows
 *   any conflict and neither side is overwritten. `standalone` leaves the change request open in any case.
 * - **Export** writes the space's main content as the repository's files (RepositoryExport: what the space did
 *   not change is written back as it was read), commits them on top of the branch and pushes. A branch that
 *   moved since the last sync is not overwritten: the export fails, saying so, and an import is queued.
 * - A connected space exports after every merge into main (the commit message is the change request's
 *   subject, the author the person who merged), except the merges an import makes.
 */
@Injectable()
export class GitSyncService implements OnModuleInit {
  private readonly logger = new Logger('GitSync');
  /** Change requests this process is merging for an import: their merge is not exported back. */
  private readonly importing = new Set<string>();

  constructor(
    private readonly repo: GitSyncRepository,
    private readonly remote: GitRemote,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly spaces: SpacesService,
    private readonly importer: RepositoryImport,
    private readonly exporter: RepositoryExport,
    private readonly changeRequests: ChangeRequestsService,
    private readonly identity: IdentityService,
    private readonly settings: GitSyncSettings,
    private readonly bus: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.jobs.work(GIT_SYNC_QUEUE, async (data) => {
      if (typeof data.spaceId === 'string') await this.runSpace(data.spaceId);
    });
    this.jobs.work(GIT_SYNC_SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    // Every minute: operations a lost job or a stopped process left are taken up again.
    this.jobs.schedule(GIT_SYNC_SWEEP_QUEUE, '* * * * *');
    this.jobs.work(GIT_SYNC_POLL_QUEUE, async () => {
      await this.poll();
    });
    if (this.settings.pollMs > 0) this.jobs.schedule(GIT_SYNC_POLL_QUEUE, '* * * * *');
    this.bus.addRecorder((event) => this.afterMerge(event));
  }

  // ---------- requests ----------

  async request(actor: Actor, spaceId: string, direction: GitSyncDirection, input: GitOperationInput): Promise<void> {
    const { space, role } = await this.spaces.getLive(actor, spaceId);
    requireRole(role, 'edit', 'Git Sync');
    const remote = this.checkUrl(input.url);
    if (!/^refs\/heads\/[^\s~^:?*[\\]+$/.test(input.ref) || input.ref.includes('..'))
      throw new InvalidInputError('ref: a branch, in the format "refs/heads/main"');
    const projectDirectory = checkProjectDirectory(input.repoProjectDirectory);
    const now = this.clock.now();
    const requestedAt = input.timestamp ? new Date(input.timestamp) : now;
    const operation = this.newOperation({
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
    await this.repo.enqueue(operation);
    this.jobs.send(GIT_SYNC_QUEUE, { spaceId: space.id });
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
    const hmac = createHmac('sha256', connection.webhookSecret).update(raw).digest('hex');
    const github = header('x-hub-signature-256');
    const gitea = header('x-gitea-signature');
    const gitlab = header('x-gitlab-token');
    const signed =
      (github !== undefined && same(github, `sha256=${hmac}`)) ||
      (gitea !== undefined && same(gitea, hmac)) ||
      (gitlab !== undefined && same(gitlab, connection.webhookSecret));
    if (!signed) throw new UnauthenticatedError("The webhook's signature or token does not match the space's webhook secret");
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
    await this.queueImport(connection);
    return 'queued';
  }

  /**
   * Polls connected branches for new commits (QUIRE_GIT_POLL_SECONDS), a bounded number per run: a branch at
   * another commit than the last sync's, with nothing of its space waiting, gets an import queued.
   */
  async poll(limit = 50): Promise<number> {
    if (this.settings.pollMs <= 0) return 0;
    const now = this.clock.now();
    let queued = 0;
    for (const connection of await this.repo.toPoll(new Date(now.getTime() - this.settings.pollMs), limit)) {
      await this.repo.saveConnection({ ...connection, polledAt: now });
      let head: string | null;
      try {
        head = await this.remote.head(connection.remote, connection.ref);
      } catch (e) {
        this.logger.warn(`polling the branch of space ${connection.spaceId} failed: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      if (head === null || head === connection.lastCommit) continue;
      if ((await this.repo.spacesWithWork(new Date(0))).includes(connection.spaceId)) continue;
      await this.queueImport(connection);
      queued += 1;
    }
    return queued;
  }

  private queueImport(connection: GitSyncConnection): Promise<void> {
    return this.queue(connection, 'import', this.clock.now(), connection.connectedBy, null);
  }

  /** An operation on the connection's remote and branch, queued (after the unit of work commits, its job sent). */
  private async queue(
    connection: GitSyncConnection,
    direction: GitSyncDirection,
    requestedAt: Date,
    requestedBy: string,
    changeRequest: string | null,
  ): Promise<void> {
    await this.repo.enqueue(
      this.newOperation({
        spaceId: connection.spaceId,
        organizationId: connection.organizationId,
        direction,
        remote: connection.remote,
        ref: connection.ref,
        projectDirectory: connection.projectDirectory,
        commitMessage: null,
        force: false,
        standalone: false,
        requestedAt,
        requestedBy,
        changeRequest,
      }),
    );
    this.jobs.send(GIT_SYNC_QUEUE, { spaceId: connection.spaceId });
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

  /** A new operation, waiting its turn. */
  private newOperation(
    o: Omit<GitSyncOperation, 'id' | 'state' | 'attempts' | 'startedAt' | 'endedAt' | 'error' | 'commit'>,
  ): GitSyncOperation {
    return { ...o, id: this.ids.next(), state: 'pending', attempts: 0, startedAt: null, endedAt: null, error: null, commit: null };
  }

  /** `quire secrets:rotate`: Git credentials and webhook secrets sealed again under the current key. */
  resealSecrets(): Promise<number> {
    return this.repo.resealSecrets();
  }

  // ---------- running ----------

  /** Runs the space's waiting operations, one at a time, in order (the job's handler). */
  async runSpace(spaceId: string): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const op = await this.repo.claimNext(spaceId, now, new Date(now.getTime() - this.settings.operationTimeoutMs));
      if (!op) return;
      await this.setOperation(op, { state: 'running', startedAt: now, endedAt: null, error: null });
      let outcome: { state: 'success' | 'failure'; error: string | null; commit: string | null };
      try {
        const commit = op.direction === 'import' ? await this.runImport(op) : await this.runExport(op);
        outcome = { state: 'success', error: null, commit };
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        if (!(e instanceof GitRemoteError) && !(e instanceof DomainError))
          this.logger.error(`${op.direction} of space ${op.spaceId} failed: ${e instanceof Error ? e.stack : error}`);
        outcome = { state: 'failure', error, commit: null };
      }
      const endedAt = this.clock.now();
      await this.repo.finish(op.id, { ...outcome, endedAt });
      await this.setOperation(op, { state: outcome.state, startedAt: now, endedAt, error: outcome.error });
    }
  }

  /** Sends a job for every space with operations waiting (the scheduled sweep; also what a restart relies on). */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const spaces = await this.repo.spacesWithWork(new Date(now.getTime() - this.settings.operationTimeoutMs));
    for (const spaceId of spaces) await this.runSpace(spaceId);
    return spaces.length;
  }

  private async setOperation(
    op: GitSyncOperation,
    state: NonNullable<GitSyncConnection['operation']> extends infer O ? Omit<O, 'direction'> : never,
  ) {
    const connection = await this.repo.connection(op.spaceId);
    if (!connection) return;
    await this.repo.saveConnection({ ...connection, operation: { ...state, direction: op.direction }, updatedAt: this.clock.now() });
  }

  private actorOf(op: GitSyncOperation): Actor {
    return { userId: op.requestedBy, tokenId: 'git-sync' };
  }

  /** One import; answers the commit it brought in. */
  private async runImport(op: GitSyncOperation): Promise<string> {
    const actor = this.actorOf(op);
    const checkout = await this.remote.read(op.remote, op.ref);
    if (!checkout) throw new GitRemoteError(`The remote has no branch ${op.ref}`);
    const connection = await this.repo.connection(op.spaceId);
    const { space } = await this.spaces.getLive(actor, op.spaceId);
    if (!op.force && connection?.lastCommit === checkout.commit.oid) return checkout.commit.oid;
    // A commit an earlier import left in a change request still open is not brought in twice (a webhook or a
    // poll asking again while people review it).
    const held = await this.repo.changeRequestHolding(op.spaceId, checkout.commit.oid);
    if (held && !op.force) {
      const view = await this.changeRequests.view(actor, op.spaceId, held).catch((e: unknown) => {
        if (e instanceof NotFoundError) return null;
        throw e;
      });
      if (view?.changeRequest.status === 'open' || view?.changeRequest.status === 'draft')
        throw new ConflictError(
          `Change request #${view.changeRequest.number} already holds the repository's side of commit ${checkout.commit.oid.slice(0, 7)}; review and merge it`,
        );
    }
    const repo = readGitbookRepository(checkout.files, { projectDirectory: op.projectDirectory });
    const lastRevision = connection?.lastRevision ?? null;
    const spaceMoved = lastRevision !== null && lastRevision !== space.revision;
    const firstLine = checkout.commit.message.split('\n')[0].slice(0, 200);
    const result = await this.importer.import(
      actor,
      op.spaceId,
      repo,
      (p) => checkout.files.bytes(p),
      `Git: ${firstLine}`,
      spaceMoved && !op.force ? lastRevision : undefined,
    );
    const git = { oid: checkout.commit.oid, message: checkout.commit.message, createdByGitBook: false, ref: op.ref };
    if (!result.changeRequest) {
      await this.agree(op, checkout.commit.oid, space.revision);
      return checkout.commit.oid;
    }
    const cr = result.changeRequest.changeRequest;
    // Left open, the change request holds this commit: merging it later makes both sides agree on it.
    await this.repo.recordChangeRequest(op.id, cr.id, checkout.commit.oid);
    if (op.standalone) return checkout.commit.oid;
    if (spaceMoved && !op.force)
      throw new ConflictError(
        `Both the space and the repository changed since the last sync: change request #${cr.number} holds the repository's side; review and merge it`,
      );
    this.importing.add(cr.id);
    try {
      const merged = await this.changeRequests.merge(actor, op.spaceId, cr.id, git);
      await this.agree(op, checkout.commit.oid, merged.revision);
    } catch (e) {
      if (e instanceof ConflictError)
        throw new ConflictError(
          `The space changed while the repository was imported: change request #${cr.number} holds the repository's side`,
        );
      throw e;
    } finally {
      this.importing.delete(cr.id);
    }
    return checkout.commit.oid;
  }

  /** One export; answers the commit the branch is at afterwards. */
  private async runExport(op: GitSyncOperation): Promise<string> {
    const actor = this.actorOf(op);
    const connection = await this.repo.connection(op.spaceId);
    const before = await this.exporter.sourcesOf(op.spaceId);
    const out = await this.exporter.export(actor, op.spaceId);
    const prefix = (path: string) => (op.projectDirectory ? posix.join(op.projectDirectory, path) : path);
    const write = new Map<string, string | Buffer>([...out.text, ...out.assets].map(([p, c]) => [prefix(p), c]));
    // What Quire wrote or read before and no longer writes is removed; every other file of the repository stays.
    const managed = new Set(
      [
        ...[...(before?.pages.values() ?? []), ...(before?.reusable.values() ?? [])].map((p) => p.path),
        ...(before?.files.values() ?? []),
        before?.summary?.path ?? null,
        before?.variables?.path ?? null,
      ]
        .filter((p): p is string => p !== null)
        .map(prefix),
    );
    let message = op.commitMessage;
    if (!message && op.changeRequest) message = (await this.changeRequests.view(actor, op.spaceId, op.changeRequest)).changeRequest.subject;
    const user = await this.identity.getUser(op.requestedBy);
    let commit;
    try {
      commit = await this.remote.write(op.remote, op.ref, {
        write,
        remove: (present) => present.filter((p) => managed.has(p) && !write.has(p)),
        message: message || 'Update from Quire',
        author: { name: user.displayName || user.email, email: user.email },
        at: this.clock.now(),
        expect: connection?.lastCommit ?? null,
      });
    } catch (e) {
      // The branch moved since the last sync: its changes come in first (after this operation, in order).
      if (e instanceof GitRemoteMovedError) {
        await this.repo.enqueue({ ...op, id: this.ids.next(), direction: 'import', requestedAt: this.clock.now(), changeRequest: null });
        this.jobs.send(GIT_SYNC_QUEUE, { spaceId: op.spaceId });
      }
      throw e;
    }
    await this.exporter.keepSources(op.spaceId, out.written);
    await this.agree(op, commit.oid, out.revision);
    return commit.oid;
  }

  /** Both sides agree: the branch is at `commit`, the space at `revision`. */
  private async agree(op: GitSyncOperation, commit: string, revision: string): Promise<void> {
    const connection = await this.repo.connection(op.spaceId);
    if (!connection) return;
    await this.repo.saveConnection({ ...connection, lastCommit: commit, lastRevision: revision, updatedAt: this.clock.now() });
  }

  // ---------- after merges ----------

  /** A recorder: a merge into a connected space queues an export, in the merge's unit of work. */
  private async afterMerge(event: DomainEvent): Promise<void> {
    if (event.type !== 'change-request.status-changed' || event.data.to !== 'merged' || !event.actor) return;
    const changeRequest = event.data.changeRequestId as string;
    if (this.importing.has(changeRequest)) return;
    const spaceId = event.data.spaceId as string;
    let connection = await this.repo.connection(spaceId);
    if (!connection) return;
    // A change request an import left open (both sides had moved, or standalone): merged, the space holds that
    // commit's content, so the export goes on top of it.
    const imported = await this.repo.importOf(changeRequest);
    if (imported?.commit && imported.spaceId === spaceId) {
      connection = { ...connection, lastCommit: imported.commit, updatedAt: this.clock.now() };
      await this.repo.saveConnection(connection);
    }
    await this.queue(connection, 'export', event.occurredAt, event.actor, changeRequest);
  }
}

/** Equal strings, compared in constant time. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The official `repoProjectDirectory`: a folder inside the repository ('' for its top). */
function checkProjectDirectory(raw: string | undefined): string {
  if (raw === undefined) return '';
  const p = posix.normalize(raw.replace(/\\/g, '/').replace(/^\/+/, '')).replace(/\/+$/, '');
  if (p === '..' || p.startsWith('../') || p.split('/').includes('.git'))
    throw new InvalidInputError('repoProjectDirectory: a folder inside the repository');
  return p === '.' ? '' : p;
}
