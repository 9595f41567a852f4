export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

/**
 * Port: background jobs on PostgreSQL (pg-boss in the app), safe with several API containers — each
 * job goes to exactly one worker. A context registers its handlers when its module starts and sends
 * jobs from its use cases. Work that must not be lost is also recorded in the context's own rows
 * (e.g. `processing_state = 'pending'`) and swept by a scheduled job: a job is a nudge, not the truth.
 */
export abstract class JobQueue {
  /** Sends a job once the current unit of work commits (at once outside one; never on rollback). */
  abstract send(queue: string, data: Record<string, unknown>, singletonKey?: string): void;
  /** Works the queue's jobs in this process (when this process runs jobs: QUIRE_JOBS=on). */
  abstract work(queue: string, handler: JobHandler): void;
  /** Sends a job to the queue on this cron schedule (once across all processes). */
  abstract schedule(queue: string, cron: string): void;
}
