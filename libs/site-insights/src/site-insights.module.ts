import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger, Module } from '@nestjs/common';
import { SitesAndPublishingModule } from '@app/sites-and-publishing';
import { ConversationsModule, TextClustering } from '@app/conversations';
import { ReviewAndCommentsModule } from '@app/review-and-comments';
import { InsightsSettings, SiteInsightsService } from './application/site-insights.service';
import { AgentFeedbackStore, DailySalts, InsightsEventStore } from './domain/insights-ports';
import { InsightsController } from './http/insights.controller';
import { SqlAgentFeedbackStore, SqlDailySalts, SqlInsightsEventStore } from './infrastructure/insights.repository';
import { LocalTopicsEngine, TopicsEngine } from './application/topics-engine';
import { WorkerTopicsEngine } from './infrastructure/worker-topics-engine';

/**
 * Where topics are computed: in a worker thread when the worker's script is built next to this module (the built
 * server, `dist/`), else in the caller's thread (the sources under Jest, which run no TypeScript in a worker).
 */
export function topicsEngine(clustering: TextClustering, settings: InsightsSettings): TopicsEngine {
  // The sources under Jest are ES modules: no __dirname, and no worker to run.
  if (typeof __dirname !== 'string') return new LocalTopicsEngine(clustering);
  const worker = join(__dirname, 'infrastructure', 'topics.worker.js');
  if (existsSync(worker)) return new WorkerTopicsEngine(worker, settings.topicsMemoryMb);
  new Logger('SiteInsights').warn(`No topics worker at ${worker}: topics are computed in the API's thread`);
  return new LocalTopicsEngine(clustering);
}

/**
 * Site insights: what a site's visitors read, search for and do not find, and what agents say of it
 * (docs/insights.md). The app gives InsightsSettings.
 */
@Module({
  imports: [SitesAndPublishingModule, ConversationsModule, ReviewAndCommentsModule],
  controllers: [InsightsController],
  providers: [
    SiteInsightsService,
    { provide: InsightsEventStore, useClass: SqlInsightsEventStore },
    { provide: DailySalts, useClass: SqlDailySalts },
    { provide: AgentFeedbackStore, useClass: SqlAgentFeedbackStore },
    { provide: TopicsEngine, useFactory: topicsEngine, inject: [TextClustering, InsightsSettings] },
  ],
  exports: [SiteInsightsService],
})
export class SiteInsightsModule {}
