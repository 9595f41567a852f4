import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { JobHandler, JobQueue, UnitOfWork } from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import type { QuireConfig } from '../config';
import { DATABASE_URL, QUIRE_CONFIG } from '../tokens';

export const PURGE_SPACES_QUEUE = 'purge-deleted-spaces';

/**
 * Background jobs on PostgreSQL (pg-boss): safe with several API containers, since pg-boss
 * hands each job to exactly one worker. Turned off with QUIRE_JOBS=off: such a process neither works
 * nor sends jobs (what it leaves pending is swept up by a process that runs them). The JobQueue port
 * of the contexts.
 */
@Injectable()
export class JobsService extends JobQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private boss: PgBoss | null = null;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly schedules = new Map<string, string>();

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    private readonly spaces: SpacesService,
    private readonly uow: UnitOfWork,
  ) {
    super();
    this.work(PURGE_SPACES_QUEUE, async () => {
      const purged = await this.spaces.purgeExpired();
      if (purged) this.logger.log(`purged ${purged} deleted space(s)`);
    });
    // Every 15 minutes: spaces deleted 7 days ago or more are removed for good.
    this.schedule(PURGE_SPACES_QUEUE, '*/15 * * * *');
  }

  work(queue: string, handler: JobHandler): void {
    if (this.handlers.has(queue)) throw new Error(`a handler for ${queue} is registered already`);
    this.handlers.set(queue, handler);
  }

  schedule(queue: string, cron: string): void {
    this.schedules.set(queue, cron);
  }

  send(queue: string, data: Record<string, unknown>, singletonKey?: string): void {
    this.uow.afterCommit(() => {
      const boss = this.boss;
      if (!boss) return;
      boss
        .send(queue, data, singletonKey ? { singletonKey } : {})
        .catch((e: unknown) => this.logger.error(`could not send a ${queue} job: ${e instanceof Error ? e.message : String(e)}`));
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.jobs) return;
    const boss = new PgBoss({ connectionString: this.databaseUrl, application_name: 'quire-jobs', max: 4 });
    boss.on('error', (e) => this.logger.error(e instanceof Error ? e.message : String(e)));
    await boss.start();
    await this.declareQueues(boss);
    for (const [queue, handler] of this.handlers) {
      await boss.work(queue, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) await handler((job.data ?? {}) as Record<string, unknown>);
      });
    }
    this.boss = boss;
  }

  /**
   * Creates the missing queues and (re)writes the schedules, one process at a time: pg-boss's
   * create_queue attaches a partition to the job table, and two containers starting together on a
   * fresh database deadlock doing it at once (seen in test/process/api-processes.e2e-spec.ts).
   */
  private async declareQueues(boss: PgBoss): Promise<void> {
    const lock = new Client({ connectionString: this.databaseUrl, application_name: 'quire-jobs-setup' });
    await lock.connect();
    try {
      await lock.query(`SELECT pg_advisory_lock(hashtext('quire:job-queues'))`);
      const existing = new Set((await boss.getQueues()).map((q) => q.name));
      for (const queue of new Set([...this.handlers.keys(), ...this.schedules.keys()])) {
        if (!existing.has(queue)) await boss.createQueue(queue);
      }
      for (const [queue, cron] of this.schedules) await boss.schedule(queue, cron);
    } finally {
      await lock.end(); // ends the session, and with it the lock
    }
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
