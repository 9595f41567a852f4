import { Module } from '@nestjs/common';
import { SitesAndPublishingModule } from '@app/sites-and-publishing';
import { ConversationsModule } from '@app/conversations';
import { ReviewAndCommentsModule } from '@app/review-and-comments';
import { SiteInsightsService } from './application/site-insights.service';
import { AgentFeedbackStore, DailySalts, InsightsEventStore } from './domain/insights-ports';
import { InsightsController } from './http/insights.controller';
import { SqlAgentFeedbackStore, SqlDailySalts, SqlInsightsEventStore } from './infrastructure/insights.repository';

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
  ],
  exports: [SiteInsightsService],
})
export class SiteInsightsModule {}
