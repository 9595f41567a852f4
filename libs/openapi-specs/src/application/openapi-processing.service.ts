import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Clock, IdGenerator, JobQueue, UnitOfWork } from '@app/shared-kernel';
import {
  ERRORS_KEPT,
  OpenApiSpec,
  OpenApiSpecRepository,
  ProcessingOutcome,
  SpecFetcher,
  SpecParser,
  SpecSource,
} from '../domain/openapi-spec';
import { OpenApiEvents } from './openapi-events';

export const PROCESS_QUEUE = 'openapi-process';
export const SWEEP_QUEUE = 'openapi-sweep';
/** A pending spec older than this whose job was lost (a process that ran no jobs, a crash) is sent again. */
export const PENDING_GRACE_MS = 60_000;
/** A run in progress for longer than this died with its process: the spec goes back to pending. */
export const STUCK_AFTER_MS = 10 * 60_000;

/**
 * Processing of OpenAPI sources in the background (jobs on PostgreSQL): claim the spec's current source
 * revision (pending → progress), read and parse it outside any transaction, then record the outcome
 * under the spec's row lock — only if the source did not change meanwhile (then the newer run's result
 * counts). A successful run whose content differs from the latest version creates one version; a
 * failed run creates none and records its errors. A sweep every minute sends the work lost jobs left.
 */
@Injectable()
export class OpenApiProcessing implements OnModuleInit {
  private readonly logger = new Logger('OpenApiProcessing');

  constructor(
    private readonly specs: OpenApiSpecRepository,
    private readonly fetcher: SpecFetcher,
    private readonly parser: SpecParser,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: OpenApiEvents,
  ) {}

  onModuleInit(): void {
    this.jobs.work(PROCESS_QUEUE, async (data) => {
      await this.process(String(data.specId), Number(data.sourceRevision));
    });
    this.jobs.work(SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    this.jobs.schedule(SWEEP_QUEUE, '* * * * *');
  }

  /** Asks for a run of this source revision once the current unit of work commits. */
  request(spec: OpenApiSpec): void {
    this.jobs.send(PROCESS_QUEUE, { specId: spec.id, sourceRevision: spec.sourceRevision }, `${spec.id}:${spec.sourceRevision}`);
  }

  async process(specId: string, sourceRevision: number): Promise<'processed' | 'skipped'> {
    if (!(await this.specs.claim(specId, sourceRevision, this.clock.now()))) return 'skipped';
    const spec = await this.specs.findById(specId);
    if (!spec) return 'skipped';
    const outcome = await this.run(spec.source);
    return this.uow.run(async () => {
      const current = await this.specs.lockById(specId);
      if (!current || current.sourceRevision !== sourceRevision) return 'skipped';
      const now = this.clock.now();
      const next: OpenApiSpec = { ...current, processingState: 'complete', lastProcessedAt: now };
      if (outcome.ok) {
        const latest = await this.specs.latestVersion(specId);
        if (!latest || latest.contentHash !== outcome.contentHash) {
          const id = this.ids.next();
          await this.specs.insertVersion({
            id,
            specId,
            organizationId: current.organizationId,
            createdAt: now,
            sourceUrl: outcome.sourceUrl,
            format: outcome.format,
            contentHash: outcome.contentHash,
            text: outcome.text,
          });
          next.lastVersionId = id;
        }
        Object.assign(next, { lastProcessErrorCode: null, lastProcessedErrors: [], lastProcessedErrorCount: 0 });
      } else {
        Object.assign(next, {
          lastProcessErrorCode: outcome.code,
          lastProcessedErrors: outcome.errors.slice(0, ERRORS_KEPT),
          lastProcessedErrorCount: outcome.errors.length,
        });
      }
      await this.specs.update(current, next);
      this.events.publish('openapi-spec.processed', current.organizationId, null, {
        specId,
        versionId: next.lastVersionId,
        errorCode: next.lastProcessErrorCode,
      });
      return 'processed';
    });
  }

  private async run(source: SpecSource): Promise<ProcessingOutcome> {
    let text: string;
    let sourceUrl: string | null = null;
    if (source.kind === 'url') {
      const fetched = await this.fetcher.fetch(source.url);
      if (!fetched.ok) return { ok: false, code: fetched.code, errors: [fetched.error] };
      text = fetched.text;
      sourceUrl = fetched.url;
    } else text = source.text;
    let parsed: Awaited<ReturnType<SpecParser['parse']>>;
    try {
      parsed = await this.parser.parse(text);
    } catch (e) {
      this.logger.error(`the parser failed: ${e instanceof Error ? e.message : String(e)}`);
      parsed = { ok: false, errors: [{ code: 'INVALID', message: 'The document could not be processed' }] };
    }
    if (!parsed.ok) return { ok: false, code: 'PARSE_ERROR', errors: parsed.errors };
    return { ok: true, text, format: parsed.format, sourceUrl, contentHash: createHash('sha256').update(text).digest('hex') };
  }

  /** Sends again what lost jobs left: pending specs past their grace, runs stuck in progress. */
  async sweep(): Promise<number> {
    const now = this.clock.now().getTime();
    const stale = await this.specs.stale(new Date(now - PENDING_GRACE_MS), new Date(now - STUCK_AFTER_MS), 100);
    for (const s of stale) this.jobs.send(PROCESS_QUEUE, { specId: s.id, sourceRevision: s.sourceRevision }, `${s.id}:${s.sourceRevision}`);
    return stale.length;
  }
}
