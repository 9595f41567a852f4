import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, DomainEvent, DomainEvents } from '@app/shared-kernel';
import { GitSyncQueue } from './git-sync-queue';
import { GitSyncRunner } from './git-sync-runner';
import { GitSyncRepository } from '../domain/git-sync';

/**
 * A connected space exports after every merge into main (the commit message is the change request's subject,
 * the author the person who merged), except the merges an import makes.
 */
@Injectable()
export class MergeExports implements OnModuleInit {
  constructor(
    private readonly repo: GitSyncRepository,
    private readonly queue: GitSyncQueue,
    private readonly runner: GitSyncRunner,
    private readonly clock: Clock,
    private readonly bus: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.bus.addRecorder((event) => this.afterMerge(event));
  }

  /** A recorder: a merge into a connected space queues an export, in the merge's unit of work. */
  private async afterMerge(event: DomainEvent): Promise<void> {
    if (event.type !== 'change-request.status-changed' || event.data.to !== 'merged' || !event.actor) return;
    const changeRequest = event.data.changeRequestId as string;
    if (this.runner.isImporting(changeRequest)) return;
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
    await this.queue.queue(connection, 'export', event.occurredAt, event.actor, changeRequest);
  }
}
