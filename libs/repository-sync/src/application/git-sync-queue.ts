import { Injectable } from '@nestjs/common';
import { IdGenerator, JobQueue } from '@app/shared-kernel';
import { GitSyncConnection, GitSyncDirection, GitSyncOperation, GitSyncRepository } from '../domain/git-sync';

export const GIT_SYNC_QUEUE = 'git-sync';
export const GIT_SYNC_SWEEP_QUEUE = 'git-sync-sweep';
export const GIT_SYNC_POLL_QUEUE = 'git-sync-poll';

/** Operations waiting their turn: recorded (in the caller's unit of work), then their space's job sent. */
@Injectable()
export class GitSyncQueue {
  constructor(
    private readonly repo: GitSyncRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
  ) {}

  /** An operation recorded and its space's job sent. */
  async enqueue(operation: GitSyncOperation): Promise<void> {
    await this.repo.enqueue(operation);
    this.jobs.send(GIT_SYNC_QUEUE, { spaceId: operation.spaceId });
  }

  /** An import of the connection's branch, as the person who connected the space. */
  importOf(connection: GitSyncConnection, requestedAt: Date): Promise<void> {
    return this.queue(connection, 'import', requestedAt, connection.connectedBy, null);
  }

  /** An operation on the connection's remote and branch, queued (after the unit of work commits, its job sent). */
  async queue(
    connection: GitSyncConnection,
    direction: GitSyncDirection,
    requestedAt: Date,
    requestedBy: string,
    changeRequest: string | null,
  ): Promise<void> {
    await this.enqueue(
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
  }

  /** A new operation, waiting its turn. */
  newOperation(o: Omit<GitSyncOperation, 'id' | 'state' | 'attempts' | 'startedAt' | 'endedAt' | 'error' | 'commit'>): GitSyncOperation {
    return { ...o, id: this.ids.next(), state: 'pending', attempts: 0, startedAt: null, endedAt: null, error: null, commit: null };
  }

  /** The same operation again under a new id (an export that found the branch moved queues an import). */
  again(op: GitSyncOperation, changes: Partial<GitSyncOperation>): GitSyncOperation {
    return { ...op, ...changes, id: this.ids.next() };
  }
}
