import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock, JobQueue } from '@app/shared-kernel';
import { FileStorage, UnreferencedContent } from '../domain/content/files';

export const COLLECT_QUEUE = 'collect-unreferenced';

/** How long a body or file's bytes stay after nothing references them, and how many go per run. */
export abstract class CollectorSettings {
  abstract readonly graceMs: number;
  abstract readonly batch: number;
}

export interface Collected {
  marked: { documents: number; files: number };
  removed: { documents: number; files: number };
}

/**
 * Reclaims page bodies and file bytes that no revision references any more (a purged space's, a failed
 * write's), a grace period after they were first found so: hourly, once across processes (pg-boss), at most
 * `batch` of each marked and removed per run. What it may remove and why it is safe against concurrent
 * writers: docs/deployment.md.
 */
@Injectable()
export class Collector implements OnModuleInit {
  private readonly logger = new Logger('Collector');

  constructor(
    private readonly content: UnreferencedContent,
    private readonly storage: FileStorage,
    private readonly settings: CollectorSettings,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.work(COLLECT_QUEUE, async () => {
      const { removed } = await this.collect();
      if (removed.documents || removed.files) this.logger.log(`removed ${removed.documents} page bodies and ${removed.files} files' bytes`);
    });
    this.jobs.schedule(COLLECT_QUEUE, '41 * * * *');
  }

  /** One run: marks what nothing references now, removes what was marked a grace period ago and still is. */
  async collect(): Promise<Collected> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.settings.graceMs);
    const removed = {
      documents: await this.content.sweepDocuments(cutoff, this.settings.batch),
      files: await this.content.sweepFiles(cutoff, this.settings.batch, (organizationId, hash) =>
        this.storage.delete(organizationId, hash),
      ),
    };
    const marked = await this.content.mark(now, this.settings.batch);
    return { marked, removed };
  }
}
