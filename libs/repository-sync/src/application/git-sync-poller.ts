import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock, JobQueue } from '@app/shared-kernel';
import { GitSyncSettings } from './git-sync-settings';
import { GIT_SYNC_POLL_QUEUE, GitSyncQueue } from './git-sync-queue';
import { GitRemote, GitSyncRepository } from '../domain/git-sync';

/** Connected branches polled for commits pushed without a webhook (QUIRE_GIT_POLL_SECONDS; every minute, a bounded number). */
@Injectable()
export class GitSyncPoller implements OnModuleInit {
  private readonly logger = new Logger('GitSync');

  constructor(
    private readonly repo: GitSyncRepository,
    private readonly remote: GitRemote,
    private readonly queue: GitSyncQueue,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly settings: GitSyncSettings,
  ) {}

  onModuleInit(): void {
    this.jobs.work(GIT_SYNC_POLL_QUEUE, async () => {
      await this.poll();
    });
    if (this.settings.pollMs > 0) this.jobs.schedule(GIT_SYNC_POLL_QUEUE, '* * * * *');
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
      await this.queue.importOf(connection, this.clock.now());
      queued += 1;
    }
    return queued;
  }
}
