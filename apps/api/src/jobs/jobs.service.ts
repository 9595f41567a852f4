import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { SpacesService } from '@app/spaces-and-content';
import type { QuireConfig } from '../config';
import { DATABASE_URL, QUIRE_CONFIG } from '../tokens';

export const PURGE_SPACES_QUEUE = 'purge-deleted-spaces';

/**
 * Background jobs on PostgreSQL (pg-boss): safe with several API containers, since pg-boss
 * hands each scheduled job to exactly one worker. Turned off with QUIRE_JOBS=off.
 */
@Injectable()
export class JobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private boss: PgBoss | null = null;

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    private readonly spaces: SpacesService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.jobs) return;
    const boss = new PgBoss({ connectionString: this.databaseUrl, application_name: 'quire-jobs', max: 4 });
    boss.on('error', (e) => this.logger.error(e instanceof Error ? e.message : String(e)));
    await boss.start();
    await boss.createQueue(PURGE_SPACES_QUEUE);
    // Every 15 minutes: spaces deleted 7 days ago or more are removed for good.
    await boss.schedule(PURGE_SPACES_QUEUE, '*/15 * * * *');
    await boss.work(PURGE_SPACES_QUEUE, async () => {
      const purged = await this.spaces.purgeExpired();
      if (purged) this.logger.log(`purged ${purged} deleted space(s)`);
    });
    this.boss = boss;
  }

  /** Queues a purge now (the CLI and tests use it); returns the job id. */
  async enqueuePurge(): Promise<string | null> {
    if (!this.boss) throw new Error('Jobs are off (QUIRE_JOBS=off)');
    return this.boss.send(PURGE_SPACES_QUEUE, {});
  }

  async onApplicationShutdown(): Promise<void> {
    await this.boss?.stop({ graceful: true, timeout: 10_000, wait: true });
    this.boss = null;
  }
}
