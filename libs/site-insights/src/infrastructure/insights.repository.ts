import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Db } from '@app/persistence';
import type { AggregationPlan, Column, Filter } from '../domain/aggregation';
import type { InsightsEvent } from '../domain/insights-event';
import type { LookedFor, NextPage } from '../domain/topics';
import { AgentFeedback, AgentFeedbackStore, ColumnValues, DailySalts, InsightsEventStore } from '../domain/insights-ports';

/** How a column is read in SQL: its expression over `e` (an event row) and the SQL type its values compare as. */
interface ColumnSql {
  expr: (c: Column) => string;
  type: 'text' | 'int' | 'boolean' | 'jsonb' | 'timestamptz';
}

const text = (expr: string): ColumnSql => ({ expr: () => expr, type: 'text' });
const ofType = (field: string, types: string[]) => `CASE WHEN e.type IN (${types.map((t) => `'${t}'`).join(', ')}) THEN ${field} END`;
const FEEDBACK = ['page_post_feedback', 'page_post_feedback_comment'];
const SEARCHES = ['search_type_query', 'search_open_result', 'ask_question', 'ask_rate_response'];

/** Every official column (and Quire's two) as SQL; what Quire does not keep (places, claims) reads as null. */
const COLUMNS: Record<string, ColumnSql> = {
  // `interval` is one of the official schema's four words (checked): safe to write in the statement.
  datetime: { expr: (c) => `date_trunc('${c.interval ?? 'day'}', e.occurred_at, 'UTC')`, type: 'timestamptz' },
  dayOfWeek: { expr: () => `extract(isodow FROM e.occurred_at AT TIME ZONE 'UTC')::int`, type: 'int' },
  hourOfDay: { expr: () => `extract(hour FROM e.occurred_at AT TIME ZONE 'UTC')::int`, type: 'int' },
  url: text('e.url'),
  urlPath: text('e.url_path'),
  eventType: text('e.type'),
  siteSection: text('e.site_section'),
  siteSpace: text('e.site_space'),
  siteShareKey: text('e.site_share_key'),
  displayContext: text('e.display_context'),
  page: { expr: () => `CASE WHEN e.page IS NULL THEN NULL ELSE jsonb_build_object('page', e.page, 'space', e.space) END`, type: 'jsonb' },
  visitorGeoCountry: text('NULL::text'),
  visitorGeoPoint: { expr: () => 'NULL::jsonb', type: 'jsonb' },
  visitorDevice: text('e.device'),
  visitorBrowser: text('e.browser'),
  visitorOS: text('e.os'),
  visitorBot: text('e.bot'),
  visitorLanguage: text('e.language'),
  visitorAuthenticated: { expr: () => 'e.authenticated', type: 'boolean' },
  visitorClaimProperty: text('NULL::text'),
  visitorClaim: text('NULL::text'),
  eventLinkTargetValue: { expr: () => ofType(`e.data->'link'->'target'`, ['link_click']), type: 'jsonb' },
  eventLinkTargetKind: text(ofType(`e.data->'link'->'target'->>'kind'`, ['link_click'])),
  eventLinkTargetDomain: text('e.link_domain'),
  eventLinkPosition: text(ofType(`e.data->'link'->>'position'`, ['link_click'])),
  eventAPIOperationPath: text(ofType(`e.data->'operation'->>'path'`, ['api_client_request'])),
  eventAPIOperationMethod: text(ofType(`e.data->'operation'->>'method'`, ['api_client_request'])),
  eventLLMSVariant: text(ofType(`e.data->>'llmsVariant'`, ['llms_request'])),
  eventPageNotFoundType: text('NULL::text'),
  eventMarkdownSource: text(ofType(`e.data->>'markdownSource'`, ['page_markdown_request'])),
  eventSearchQuery: text(ofType(`e.data->>'query'`, SEARCHES)),
  eventSearchResultRecordId: text(ofType(`e.data->'result'->>'recordId'`, ['search_open_result'])),
  eventPageFeedbackRating: text(ofType(`e.data->'feedback'->>'rating'`, FEEDBACK)),
  eventPageFeedbackComment: text(ofType(`e.data->'feedback'->>'comment'`, ['page_post_feedback_comment'])),
  eventAskResponseRating: { expr: () => ofType(`(e.data->>'rating')::int`, ['ask_rate_response']), type: 'int' },
  eventAdDomain: text(ofType(`e.data->'ad'->>'domain'`, ['ad_click', 'ad_display'])),
  eventAdPlacement: text(ofType(`e.data->'ad'->>'placement'`, ['ad_click', 'ad_display'])),
  eventTrademarkPlacement: text(ofType(`e.data->>'placement'`, ['trademark_click'])),
  referrer: text('e.referrer'),
  referrerDomain: text('e.referrer_domain'),
  utmSource: text('e.utm_source'),
  utmMedium: text('e.utm_medium'),
  utmCampaign: text('e.utm_campaign'),
  utmTerm: text('e.utm_term'),
  utmContent: text('e.utm_content'),
  eventSearchResultsCount: { expr: () => ofType(`(e.data->>'resultsCount')::int`, ['search_type_query']), type: 'int' },
  eventAskAnswered: { expr: () => ofType(`(e.data->>'answered')::boolean`, ['ask_question']), type: 'boolean' },
};

const rated = (field: string, types: string[], value: string) =>
  `count(*) FILTER (WHERE e.type IN (${types.map((t) => `'${t}'`).join(', ')}) AND ${field} = '${value}')`;

/** The counts. */
const AGGREGATES: Record<string, string> = {
  eventsCount: 'count(*)::int',
  sessionsCount: 'count(DISTINCT e.session)::int',
  visitorsCount: 'count(DISTINCT e.visitor)::int',
  pageFeedbackRating: `jsonb_build_object(${['ok', 'good', 'bad'].map((r) => `'${r}', ${rated(`e.data->'feedback'->>'rating'`, ['page_post_feedback'], r)}`).join(', ')})`,
  askResponseRating: `jsonb_build_object('positive', ${rated(`e.data->>'rating'`, ['ask_rate_response'], '1')}, 'negative', ${rated(`e.data->>'rating'`, ['ask_rate_response'], '-1')})`,
};

/** A search with no result, or a question: what topics are made of. */
const UNFOUND = `((e.type = 'search_type_query' AND (e.data->>'resultsCount')::int = 0) OR e.type = 'ask_question')`;
const LOOKED_FOR = `lower(btrim(left(e.data->>'query', 500)))`;

const PURGE_BATCH = 10_000;

const OPERATORS: Record<string, string> = { greaterThan: '>', greaterThanOrEqual: '>=', lessThan: '<', lessThanOrEqual: '<=' };

interface EventRecord {
  organization_id: string;
  site_id: string;
  type: string;
  occurred_at: string;
  visitor: string;
  session: string;
  display_context: string;
  url: string;
  url_path: string;
  site_section: string | null;
  site_space: string | null;
  site_share_key: string | null;
  space: string | null;
  revision: string | null;
  page: string | null;
  referrer: string | null;
  referrer_domain: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  language: string | null;
  browser: string;
  device: string;
  os: string;
  bot: string | null;
  authenticated: boolean;
  link_domain: string | null;
  data: Record<string, unknown>;
}

const RECORD_COLUMNS =
  'organization_id text, site_id text, type text, occurred_at timestamptz, visitor text, session text, display_context text, url text, ' +
  'url_path text, site_section text, site_space text, site_share_key text, space text, revision text, page text, referrer text, ' +
  'referrer_domain text, utm_source text, utm_medium text, utm_campaign text, utm_term text, utm_content text, language text, ' +
  'browser text, device text, os text, bot text, authenticated boolean, link_domain text, data jsonb';
const NAMES = RECORD_COLUMNS.split(', ')
  .map((c) => c.split(' ')[0])
  .join(', ');

const toRecord = (e: InsightsEvent): EventRecord => ({
  organization_id: e.organizationId,
  site_id: e.siteId,
  type: e.type,
  occurred_at: e.occurredAt.toISOString(),
  visitor: e.visitor,
  session: e.session,
  display_context: e.displayContext,
  url: e.url,
  url_path: e.urlPath,
  site_section: e.siteSection,
  site_space: e.siteSpace,
  site_share_key: e.siteShareKey,
  space: e.space,
  revision: e.revision,
  page: e.page,
  referrer: e.referrer,
  referrer_domain: e.referrerDomain,
  utm_source: e.utm.source,
  utm_medium: e.utm.medium,
  utm_campaign: e.utm.campaign,
  utm_term: e.utm.term,
  utm_content: e.utm.content,
  language: e.language,
  browser: e.browser,
  device: e.device,
  os: e.os,
  bot: e.bot,
  authenticated: e.authenticated,
  link_domain: e.linkDomain,
  data: e.data,
});

@Injectable()
export class SqlInsightsEventStore extends InsightsEventStore {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(events: InsightsEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    // One parameter whatever the batch's size: the rows as a JSON array, read back as a record set.
    return this.db.execute(
      `INSERT INTO site_insights_events (${NAMES})
       SELECT ${NAMES} FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_COLUMNS})
       WHERE EXISTS (SELECT 1 FROM sites s WHERE s.id = x.site_id AND s.organization_id = x.organization_id)`,
      [JSON.stringify(events.map(toRecord))],
    );
  }

  async aggregate(organizationId: string, siteId: string, plan: AggregationPlan): Promise<ColumnValues[]> {
    const params: unknown[] = [organizationId, siteId, plan.from, plan.to];
    const param = (value: unknown, type: string) => {
      params.push(value);
      return `$${params.length}::${type}`;
    };
    const exprOf = (c: Column) => AGGREGATES[c.column] ?? COLUMNS[c.column].expr(c);
    const conditions = ['e.organization_id = $1', 'e.site_id = $2', 'e.occurred_at >= $3', 'e.occurred_at <= $4'];
    for (const f of plan.where)
      conditions.push(this.condition(f, COLUMNS[f.column.column].expr(f.column), COLUMNS[f.column.column].type, param));
    const having = plan.having.map((f) => this.condition(f, AGGREGATES[f.column.column], 'int', param));
    const grouped = plan.groupBy.map((c) => exprOf(c));
    const order = [
      ...(plan.order
        ? [`${plan.select.findIndex((c) => JSON.stringify(c) === JSON.stringify(plan.order!.by)) + 1} ${plan.order.direction}`]
        : []),
      ...grouped.map((g) => `${g} ASC NULLS FIRST`),
    ];
    const sql =
      `SELECT ${plan.select.map((c, i) => `${exprOf(c)} AS c${i}`).join(', ')} FROM site_insights_events e WHERE ${conditions.join(' AND ')}` +
      (grouped.length ? ` GROUP BY ${grouped.join(', ')}` : '') +
      (having.length ? ` HAVING ${having.join(' AND ')}` : '') +
      (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
      ` LIMIT ${param(plan.limit, 'int')}`;
    const rows: Record<string, unknown>[] = await this.db.query(sql, params);
    // The official SiteInsightsQueryEventsValues: the column's name (and a claim's), its values.
    return plan.select.map((c, i) => ({
      column: c.column,
      ...(c.column === 'visitorClaim' ? { claim: c.claim } : {}),
      values: rows.map((r) => {
        const v = r[`c${i}`];
        return v instanceof Date ? v.toISOString() : v;
      }),
    }));
  }

  /** One filter: `in`/`notIn` a list (null included when listed), or one comparison. */
  private condition(f: Filter, expr: string, type: string, param: (v: unknown, t: string) => string): string {
    const encode = (v: unknown) => (type === 'jsonb' ? JSON.stringify(v) : v);
    if (f.operator !== 'in' && f.operator !== 'notIn') return `${expr} ${OPERATORS[f.operator]} ${param(encode(f.values[0]), type)}`;
    const present = f.values.filter((v) => v !== null).map(encode);
    const parts = [`COALESCE(${expr} = ANY(${param(present, `${type}[]`)}), false)`];
    if (present.length !== f.values.length) parts.push(`${expr} IS NULL`);
    const matches = `(${parts.join(' OR ')})`;
    return f.operator === 'in' ? matches : `NOT ${matches}`;
  }

  async lookedFor(organizationId: string, siteId: string, from: Date, to: Date, limit: number): Promise<LookedFor[]> {
    const rows: { text: string; kind: 'search' | 'ask'; count: number }[] = await this.db.query(
      `SELECT ${LOOKED_FOR} AS text, CASE WHEN e.type = 'ask_question' THEN 'ask' ELSE 'search' END AS kind, count(*)::int AS count
       FROM site_insights_events e
       WHERE e.organization_id = $1 AND e.site_id = $2 AND e.occurred_at >= $3 AND e.occurred_at <= $4 AND ${UNFOUND}
       GROUP BY 1, 2 HAVING ${LOOKED_FOR} <> '' ORDER BY 3 DESC, 1, 2 LIMIT $5`,
      [organizationId, siteId, from, to, limit],
    );
    return rows;
  }

  async answeredQuestions(
    organizationId: string,
    siteId: string,
    from: Date,
    to: Date,
    within: { siteSpace?: string; space?: string },
    limit: number,
    minVisitors: number,
  ): Promise<{ question: string; count: number }[]> {
    return this.db.query(
      `SELECT mode() WITHIN GROUP (ORDER BY btrim(left(e.data->>'query', 500))) AS question, count(DISTINCT e.visitor)::int AS count
       FROM site_insights_events e
       WHERE e.organization_id = $1 AND e.site_id = $2 AND e.occurred_at >= $3 AND e.occurred_at <= $4
         AND e.type = 'ask_question' AND (e.data->>'answered')::boolean IS TRUE AND e.bot IS NULL
         AND ($5::text IS NULL OR e.site_space = $5) AND ($6::text IS NULL OR e.space = $6)
       GROUP BY ${LOOKED_FOR} HAVING ${LOOKED_FOR} <> '' AND count(DISTINCT e.visitor) >= $8 ORDER BY 2 DESC, 1 LIMIT $7`,
      [organizationId, siteId, from, to, within.siteSpace ?? null, within.space ?? null, limit, minVisitors],
    );
  }

  async nextPages(organizationId: string, siteId: string, from: Date, to: Date, texts: string[]): Promise<NextPage[]> {
    if (texts.length === 0) return [];
    return this.db.query(
      `SELECT q.text, n.space, n.page, min(n.url_path) AS "urlPath", count(*)::int AS count
       FROM (SELECT ${LOOKED_FOR} AS text, e.session, e.occurred_at FROM site_insights_events e
             WHERE e.organization_id = $1 AND e.site_id = $2 AND e.occurred_at >= $3 AND e.occurred_at <= $4 AND ${UNFOUND}
               AND ${LOOKED_FOR} = ANY($5::text[])) q
       CROSS JOIN LATERAL (
         SELECT v.space, v.page, v.url_path FROM site_insights_events v
         WHERE v.site_id = $2 AND v.session = q.session AND v.type = 'page_view' AND v.page IS NOT NULL AND v.space IS NOT NULL
           AND v.occurred_at >= q.occurred_at AND v.occurred_at <= q.occurred_at + interval '30 minutes'
         ORDER BY v.occurred_at LIMIT 1) n
       GROUP BY 1, 2, 3`,
      [organizationId, siteId, from, to, texts],
    );
  }

  /** In batches of PURGE_BATCH rows (one short statement each): a year's end never holds one long transaction. */
  async purgeBefore(before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const gone = await this.db.execute(
        'DELETE FROM site_insights_events WHERE seq IN (SELECT seq FROM site_insights_events WHERE occurred_at < $1 LIMIT $2)',
        [before, PURGE_BATCH],
      );
      total += gone;
      if (gone < PURGE_BATCH) return total;
    }
  }
}

@Injectable()
export class SqlDailySalts extends DailySalts {
  constructor(private readonly db: Db) {
    super();
  }

  async saltOf(day: string): Promise<Buffer> {
    // Two processes asking first at once: one insert wins, both read the same salt.
    await this.db.query('INSERT INTO site_insights_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING', [day, randomBytes(32)]);
    const rows: { salt: Buffer }[] = await this.db.query('SELECT salt FROM site_insights_salts WHERE day = $1', [day]);
    return rows[0].salt;
  }

  forgetBefore(day: string): Promise<number> {
    return this.db.execute('DELETE FROM site_insights_salts WHERE day < $1', [day]);
  }
}

@Injectable()
export class SqlAgentFeedbackStore extends AgentFeedbackStore {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(f: AgentFeedback): Promise<void> {
    await this.db.query(
      `INSERT INTO site_agent_feedback (id, organization_id, site_id, source, reported_by, subject, feedback, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [f.id, f.organizationId, f.siteId, f.source, f.reportedBy, f.subject, f.feedback, f.createdAt],
    );
  }

  purgeBefore(before: Date): Promise<number> {
    return this.db.execute('DELETE FROM site_agent_feedback WHERE created_at < $1', [before]);
  }
}
