import type { AggregationPlan } from './aggregation';
import type { LookedFor, NextPage } from './topics';
import type { InsightsEvent } from './insights-event';

/** One column of an aggregation's answer (the official SiteInsightsQueryEventsValues). */
export interface ColumnValues {
  column: string;
  claim?: string;
  values: unknown[];
}

/** Where events are kept and counted. */
export abstract class InsightsEventStore {
  /** Keeps the events, in one statement (those of a site deleted meanwhile are dropped). */
  abstract insert(events: InsightsEvent[]): Promise<number>;
  /** The plan's answer over the site's events. */
  abstract aggregate(organizationId: string, siteId: string, plan: AggregationPlan): Promise<ColumnValues[]>;
  /** Searches with no result and questions asked in the range, by distinct text (lower case, trimmed), the most frequent first. */
  abstract lookedFor(organizationId: string, siteId: string, from: Date, to: Date, limit: number): Promise<LookedFor[]>;
  /**
   * The questions visitors asked that were answered (`ask_question` with `answered: true`, bots left out) in the
   * window, asked by at least `minVisitors` distinct visitors, the most visitors first (the same question in any
   * case, with spaces at either end, is one; its most common wording), at most `limit`; within a site space or a
   * space when given.
   */
  abstract answeredQuestions(
    organizationId: string,
    siteId: string,
    from: Date,
    to: Date,
    within: { siteSpace?: string; space?: string },
    limit: number,
    minVisitors: number,
  ): Promise<{ question: string; count: number }[]>;
  /** For those of `texts`, the page each session opened next (within 30 minutes), counted by text and page. */
  abstract nextPages(organizationId: string, siteId: string, from: Date, to: Date, texts: string[]): Promise<NextPage[]>;
  /** Deletes the events that happened before `before`; how many went. */
  abstract purgeBefore(before: Date): Promise<number>;
}

/** The salts of visitor hashes: one per UTC day, the same in every process, deleted once its day is over. */
export abstract class DailySalts {
  /** The salt of `day` (`YYYY-MM-DD`, UTC), made by whichever process asks first. */
  abstract saltOf(day: string): Promise<Buffer>;
  /** Deletes the salts of the days before `day`; how many went. */
  abstract forgetBefore(day: string): Promise<number>;
}

/** Feedback an agent gave on a site (official AgentFeedbackInput), from the API or the site's MCP. */
export interface AgentFeedback {
  id: string;
  organizationId: string;
  siteId: string;
  source: 'api' | 'mcp';
  reportedBy: Record<string, unknown>;
  subject: Record<string, unknown>;
  feedback: Record<string, unknown>;
  createdAt: Date;
}

export abstract class AgentFeedbackStore {
  abstract insert(feedback: AgentFeedback): Promise<void>;
  /** Deletes the feedback given before `before` (the events' retention); how many went. */
  abstract purgeBefore(before: Date): Promise<number>;
}
