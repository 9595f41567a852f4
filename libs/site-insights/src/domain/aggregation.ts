import { InvalidInputError } from '@app/shared-kernel';
import { checkOfficial } from './insights-event';

/** A column of the official SiteInsightsQueryEventsColumn (or one of Quire's two additions, docs/insights.md). */
export interface Column {
  column: string;
  /** `datetime`: the bucket (hour, day, week, month; a day unless said). */
  interval?: 'hour' | 'day' | 'week' | 'month';
  /** `visitorClaim`: which claim. */
  claim?: string;
  /** `visitorGeoPoint`: its precision. */
  precision?: number;
}

export type Operator = 'in' | 'notIn' | 'greaterThan' | 'greaterThanOrEqual' | 'lessThan' | 'lessThanOrEqual';

export interface Filter {
  column: Column;
  values: unknown[];
  operator: Operator;
}

/** A checked aggregateSiteEvents query, its range resolved against the clock. */
export interface AggregationPlan {
  /** The answer's columns, in this order. */
  select: Column[];
  groupBy: Column[];
  /** Filters on the events (WHERE) and on the aggregates (HAVING). */
  where: Filter[];
  having: Filter[];
  order: { by: Column; direction: 'asc' | 'desc' } | null;
  from: Date;
  to: Date;
  limit: number;
}

/** Columns that count (or sum up) the events of a group rather than name one. */
export const AGGREGATE_COLUMNS = new Set(['eventsCount', 'sessionsCount', 'visitorsCount', 'pageFeedbackRating', 'askResponseRating']);
/** The aggregates a HAVING filter may compare. */
const NUMERIC_AGGREGATES = new Set(['eventsCount', 'sessionsCount', 'visitorsCount']);
/** The event columns whose values are ordered (greaterThan and the like apply). */
const ORDERED = new Set(['datetime', 'dayOfWeek', 'hourOfDay', 'eventAskResponseRating', 'eventSearchResultsCount']);

/** Quire's additions to the official columns: a search's number of results, whether a question was answered. */
export const EXTENSION_COLUMNS = ['eventSearchResultsCount', 'eventAskAnswered'] as const;

export const QUERY_LIMIT_MAX = 1000;

const keyOf = (c: Column) =>
  JSON.stringify([c.column, c.interval ?? (c.column === 'datetime' ? 'day' : null), c.claim ?? null, c.precision ?? null]);

interface OfficialQuery {
  select?: Column[];
  where?: (Column & { values: unknown[]; operator?: Operator })[];
  groupBy?: Column[];
  order?: { by: Column; direction: 'asc' | 'desc' };
  range: string | { from: string; to: string };
  limit?: number;
}

/** The official SiteInsightsQueryEventsAggregation, checked (400 on what cannot be answered) and resolved at `now`. */
export function planAggregation(body: unknown, now: Date): AggregationPlan {
  const query = checkOfficial<OfficialQuery>('SiteInsightsQueryEventsAggregation', body, 'query');
  const groupBy = (query.groupBy ?? []).map(normalized);
  const grouped = new Set(groupBy.map(keyOf));
  for (const c of groupBy)
    if (AGGREGATE_COLUMNS.has(c.column)) throw new InvalidInputError(`groupBy cannot hold ${c.column}: it counts the groups`);
  if (grouped.size !== groupBy.length) throw new InvalidInputError('groupBy names a column twice');
  const select = (query.select ?? [...groupBy, { column: 'eventsCount' }]).map(normalized);
  for (const c of select)
    if (!AGGREGATE_COLUMNS.has(c.column) && !grouped.has(keyOf(c)))
      throw new InvalidInputError(`select names ${c.column}, which is neither in groupBy nor a count`);
  const where: Filter[] = [];
  const having: Filter[] = [];
  for (const [i, f] of (query.where ?? []).entries()) {
    const { values, operator = 'in', ...column } = f;
    const filter: Filter = { column: normalized(column), values: checkedValues(column.column, values, i), operator };
    const comparison = operator !== 'in' && operator !== 'notIn';
    if (comparison && values.length !== 1) throw new InvalidInputError(`where[${i}]: ${operator} compares with exactly one value`);
    if (AGGREGATE_COLUMNS.has(filter.column.column)) {
      if (!NUMERIC_AGGREGATES.has(filter.column.column))
        throw new InvalidInputError(`where[${i}]: ${filter.column.column} cannot be filtered on`);
      having.push(filter);
    } else {
      if (comparison && !ORDERED.has(filter.column.column))
        throw new InvalidInputError(`where[${i}]: ${filter.column.column} has no order; use in or notIn`);
      where.push(filter);
    }
  }
  let order: AggregationPlan['order'] = null;
  if (query.order) {
    const by = normalized(query.order.by);
    if (!select.some((c) => keyOf(c) === keyOf(by))) throw new InvalidInputError('order.by must be one of the selected columns');
    if (by.column === 'pageFeedbackRating' || by.column === 'askResponseRating')
      throw new InvalidInputError(`order.by cannot be ${by.column}: it is not one number`);
    order = { by, direction: query.order.direction };
  }
  const { from, to } = rangeOf(query.range, now);
  return { select, groupBy, where, having, order, from, to, limit: query.limit ?? QUERY_LIMIT_MAX };
}

/** Columns whose values are integers (compared as SQL integers). */
const INTEGER_COLUMNS = new Set([
  'dayOfWeek',
  'hourOfDay',
  'eventAskResponseRating',
  'eventSearchResultsCount',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
]);
const INT_MAX = 2 ** 31 - 1;

/** A filter's values as the database compares them: whole numbers in range, dates it can read (as ISO text); else 400. */
function checkedValues(column: string, values: unknown[], i: number): unknown[] {
  if (INTEGER_COLUMNS.has(column))
    for (const v of values)
      if (v !== null && !(Number.isInteger(v) && Math.abs(v as number) <= INT_MAX))
        throw new InvalidInputError(`where[${i}]: ${column} compares with whole numbers up to ${INT_MAX}`);
  if (column === 'datetime')
    return values.map((v) => {
      const at = typeof v === 'string' ? new Date(v) : null;
      if (!at || Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999)
        throw new InvalidInputError(`where[${i}]: datetime compares with dates and times from year 1 to 9999`);
      return at.toISOString();
    });
  return values;
}

function normalized(c: Column): Column {
  const out: Column = { column: c.column };
  if (c.column === 'datetime') out.interval = c.interval ?? 'day';
  if (c.column === 'visitorClaim') out.claim = c.claim;
  if (c.column === 'visitorGeoPoint' && c.precision !== undefined) out.precision = c.precision;
  return out;
}

/** The official SiteInsightsQueryRangePreset. */
export const RANGE_PRESETS = ['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** The official SiteInsightsQueryRange: a preset counted back from now, or `from` before `to`. */
export function rangeOf(range: OfficialQuery['range'], now: Date): { from: Date; to: Date } {
  if (typeof range === 'object') {
    const from = new Date(range.from);
    const to = new Date(range.to);
    const readable = (d: Date) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999;
    if (!readable(from) || !readable(to))
      throw new InvalidInputError('range.from and range.to must be dates and times from year 1 to 9999');
    if (!(from.getTime() < to.getTime())) throw new InvalidInputError('range.from must be before range.to');
    return { from, to };
  }
  const from = new Date(now);
  if (range === 'last24Hours') from.setTime(now.getTime() - 24 * 3_600_000);
  else if (range === 'last7Days') from.setTime(now.getTime() - 7 * 86_400_000);
  else if (range === 'last30Days') from.setTime(now.getTime() - 30 * 86_400_000);
  else if (range === 'last3Months') from.setUTCMonth(from.getUTCMonth() - 3);
  else from.setUTCFullYear(from.getUTCFullYear() - 1);
  return { from, to: now };
}
