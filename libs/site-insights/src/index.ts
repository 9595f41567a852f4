// The public surface of the site-insights context. Other contexts import only this file.
export { SiteInsightsModule } from './site-insights.module';
export { SiteInsightsService, InsightsSettings, INSIGHTS_PURGE_QUEUE, TooManyEvents } from './application/site-insights.service';
export type { AgentFeedbackReceipt } from './application/site-insights.service';
export { TopicsEngine, TopicsIndexLost, TopicsUnavailable } from './application/topics-engine';
