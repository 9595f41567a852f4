import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { posix } from 'node:path';
import { readGitbookRepository } from '@app/content-model';
import { IdentityService } from '@app/organizations-and-teams';
import { ChangeRequestsService } from '@app/review-and-comments';
import { Actor, Clock, ConflictError, DomainError, JobQueue, NotFoundError } from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import { RepositoryExport } from './repository-export';
import { RepositoryImport } from './repository-import';
import { GitSyncSettings } from './git-sync-settings';
import { GIT_SYNC_QUEUE, GIT_SYNC_SWEEP_QUEUE, GitSyncQueue } from './git-sync-queue';
import { GitSyncEvents } from './git-sync-events';
import {
  GitCheckout,
  GitRemote,
  GitRemoteError,
  GitRemoteMovedError,
  GitSyncConnection,
  GitSyncOperation,
  GitSyncRepository,
} from '../domain/git-sync';

/**
 * Runs each space's Git Sync operations, one at a time, in the order of their `timestamp` (a job per space, and a
 * sweep every minute that takes up what a lost job or a stopped process left).
 *
 * - **Import** reads the branch and brings its content in as a change request (RepositoryImport: pages matched by
 *   their files' paths keep their ids). When the space did not move since the last sync (or is empty, or
 *   `force`), the change request is merged at once, and the merge revision carries the commit (`git`). When
 *   both sides moved, it starts from the revision of the last sync and stays open: the three-way merge shows
 *   any conflict and neither side is overwritten. `standalone` leaves the change request open in any case.
 * - **Export** writes the space's main content as the repository's files (RepositoryExport: what the space did
 *   not change is written back as it was read), commits them on top of the branch and pushes. A branch that
 *   moved since the last sync is not overwritten: the export fails, saying so, and an import is queued.
 */
@Injectable()
export class GitSyncRunner implements OnModuleInit {
  private readonly logger = new Logger('GitSync');
  /** Change requests this process is merging for an import: their merge is not exported back (MergeExports). */
  private readonly importing = new Set<string>();

  constructor(
    private readonly repo: GitSyncRepository,
    private readonly remote: GitRemote,
    private readonly queue: GitSyncQueue,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly spaces: SpacesService,
    private readonly importer: RepositoryImport,
    private readonly exporter: RepositoryExport,
    private readonly changeRequests: ChangeRequestsService,
    private readonly identity: IdentityService,
    private readonly settings: GitSyncSettings,
    private readonly events: GitSyncEvents,
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
  }

  /** Whether this process is merging this change request for an import. */
  isImporting(changeRequestId: string): boolean {
    return this.importing.has(changeRequestId);
  }

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
      if (op.direction === 'import' && outcome.commit !== null)
        this.events.publish('git-sync.imported', op.organizationId, op.requestedBy, { spaceId: op.spaceId, commit: outcome.commit });
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
    const oid = await this.remote.read(op.remote, op.ref, (checkout) => this.importCheckout(op, checkout));
    if (oid === null) throw new GitRemoteError(`The remote has no branch ${op.ref}`);
    return oid;
  }

  /** The import of a checked-out commit (its files read from disk one at a time); answers the commit. */
  private async importCheckout(op: GitSyncOperation, checkout: GitCheckout): Promise<string> {
    const actor = this.actorOf(op);
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
        await this.queue.enqueue(this.queue.again(op, { direction: 'import', requestedAt: this.clock.now(), changeRequest: null }));
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
}
