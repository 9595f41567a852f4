import { useState } from 'react';
import type { SiteInsightsQueryEventsAggregation } from '@gitbook/api';
import { api, call, messageOf } from '../api';
import { Link } from '../router';
import { Loading, useLoad } from './organizations';
import { ErrorText } from '../ui';

/** The ranges the screen offers (official SiteInsightsQueryRangePreset). */
const RANGES = [
  ['last7Days', 'Last 7 days'],
  ['last30Days', 'Last 30 days'],
  ['last3Months', 'Last 3 months'],
  ['lastYear', 'Last year'],
] as const;
type Range = (typeof RANGES)[number][0];

interface Topic {
  id: string;
  label: string;
  count: number;
  queries: { text: string; kind: 'search' | 'ask'; count: number }[];
  pages: { space: string; page: string; urlPath: string; count: number }[];
}

type Row = (string | number)[];
interface Table {
  title: string;
  head: string[];
  rows: Row[];
  empty: string;
}

/** A CSV file of a table (RFC 4180: quotes doubled, fields quoted when needed). */
function csvOf(table: Table): string {
  const field = (v: string | number) => {
    // A visitor's words starting like a formula are kept as text by a spreadsheet (CSV injection).
    const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [table.head, ...table.rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A site's insights (its `urls.app` + `/insights`): page views over time, the pages read most, what visitors
 * searched for (and did not find), the feedback they left, and the topics of what they did not find, each from
 * the official aggregateSiteEvents (topics: Quire's extension), each table downloadable as CSV. Members with the
 * site's read role see it.
 */
export function Insights(props: { org: string; site: string }) {
  const [range, setRange] = useState<Range>('last30Days');
  const { data, error } = useLoad(async () => {
    const aggregate = async (query: Omit<SiteInsightsQueryEventsAggregation, 'range'>) =>
      (await api.orgs.aggregateSiteEvents(props.org, props.site, { range, ...query } as SiteInsightsQueryEventsAggregation)).data.columns;
    const type = (t: string) => ({ column: 'eventType', values: [t] }) as never;
    const top = (column: string, where: never[]) =>
      aggregate({ where, groupBy: [{ column }] as never, order: { by: { column: 'eventsCount' }, direction: 'desc' } as never, limit: 10 });
    const [site, totals, views, pages, searches, unfound, comments, spaces] = await Promise.all([
      api.orgs.getSiteById(props.org, props.site),
      aggregate({
        groupBy: [{ column: 'eventType' }] as never,
        select: [{ column: 'eventType' }, { column: 'eventsCount' }, { column: 'visitorsCount' }] as never,
      }),
      aggregate({ where: [type('page_view')], groupBy: [{ column: 'datetime', interval: 'day' }] as never }),
      top('urlPath', [type('page_view')]),
      top('eventSearchQuery', [type('search_type_query')]),
      top('eventSearchQuery', [type('search_type_query'), { column: 'eventSearchResultsCount', values: [0] } as never]),
      // The feedback as the site stored it (each given through the page, rate-limited), not the events that report it.
      call<{ items: { createdAt: string; rating: string; comment?: string; page: { path: string } }[] }>(
        'GET',
        `/orgs/${props.org}/sites/${props.site}/page-feedback?commented=true&limit=50`,
      ),
      api.orgs.listSiteSpaces(props.org, props.site, { limit: 100 }).catch(() => null),
    ]);
    const values = (columns: { column: string; values: unknown[] }[], name: string) => columns.find((c) => c.column === name)?.values ?? [];
    const count = (t: string) => {
      const i = values(totals, 'eventType').indexOf(t);
      return i === -1 ? 0 : Number(values(totals, 'eventsCount')[i]);
    };
    const rows = (columns: { column: string; values: unknown[] }[]) =>
      (columns[0]?.values ?? []).map((_, i) => columns.map((c) => c.values[i] as string | number));
    return {
      title: site.data.title,
      views: rows(views as never) as [string, number][],
      totals: {
        views: count('page_view'),
        searches: count('search_type_query'),
        feedback: count('page_post_feedback'),
        questions: count('ask_question'),
      },
      tables: [
        { title: 'Top pages', head: ['Page', 'Views'], rows: rows(pages as never), empty: 'No page views in this range.' },
        { title: 'Top searches', head: ['Search', 'Times'], rows: rows(searches as never), empty: 'No searches in this range.' },
        {
          title: 'Searches with no result',
          head: ['Search', 'Times'],
          rows: rows(unfound as never),
          empty: 'Every search found something in this range.',
        },
        {
          title: 'Latest feedback with comments',
          head: ['When (UTC)', 'Page', 'Rating', 'Comment'],
          rows: comments.items.map((f) => [f.createdAt.slice(0, 16).replace('T', ' '), f.page.path, f.rating, f.comment ?? '']),
          empty: 'No comment yet.',
        },
      ] satisfies Table[],
      spaces: (spaces?.data.items ?? []).map((s) => ({ id: s.space.id, title: s.space.title })),
    };
  }, [props.org, props.site, range]);
  // Apart from the rest: the first read of a large site's topics indexes its pages (up to a minute for 2,000 pages,
  // docs/insights.md), and the counts should not wait for it.
  const topics = useLoad(
    async () =>
      (await call<{ items: Topic[] }>('GET', `/orgs/${props.org}/sites/${props.site}/insights/topics?range=${range}&limit=50`)).items,
    [props.org, props.site, range],
  );

  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${props.org}/sites`}>Sites</Link> · <Link to={`/o/${props.org}/sites/${props.site}`}>{data?.title ?? 'Site'}</Link>
      </p>
      <h1 tabIndex={-1}>Insights{data ? `: ${data.title}` : ''}</h1>
      <p>
        <label htmlFor="insights-range">Range </label>
        <select id="insights-range" value={range} onChange={(e) => setRange(e.target.value as Range)}>
          {RANGES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </p>
      {data ? (
        <>
          <ul className="insights-totals" aria-label="Totals">
            <li>
              <strong>{data.totals.views}</strong> page views
            </li>
            <li>
              <strong>{data.totals.searches}</strong> searches
            </li>
            <li>
              <strong>{data.totals.questions}</strong> questions
            </li>
            <li>
              <strong>{data.totals.feedback}</strong> ratings
            </li>
          </ul>
          <ViewsChart views={data.views} />
          <div className="insights-tables">
            {data.tables.map((t) => (
              <TableSection key={t.title} table={t} />
            ))}
          </div>
          {topics.data ? (
            <Topics org={props.org} site={props.site} range={range} topics={topics.data} spaces={data.spaces} />
          ) : (
            <section aria-labelledby="topics-title">
              <h2 id="topics-title">Topics visitors did not find</h2>
              {topics.error ? (
                <p className="error" role="alert">
                  {topics.error}
                </p>
              ) : (
                <p role="status">Grouping what visitors did not find…</p>
              )}
            </section>
          )}
        </>
      ) : (
        <Loading error={error} />
      )}
    </>
  );
}

/** Page views per day as bars (an image with its summary for screen readers; the numbers are in the CSV and on hover). */
function ViewsChart(props: { views: [string, number][] }) {
  const { views } = props;
  const total = views.reduce((s, [, n]) => s + n, 0);
  const most = views.reduce<[string, number] | null>((m, v) => (!m || v[1] > m[1] ? v : m), null);
  const max = Math.max(1, ...views.map(([, n]) => n));
  // At least a month of slots: a range with few days draws narrow bars, not one wall.
  const width = Math.max(30, views.length) * 24;
  const table: Table = {
    title: 'Page views per day',
    head: ['Day (UTC)', 'Views'],
    rows: views.map(([d, n]) => [d.slice(0, 10), n]),
    empty: '',
  };
  return (
    <section className="insights-chart" aria-labelledby="views-title">
      <h2 id="views-title">Page views over time</h2>
      {views.length ? (
        <>
          <svg
            role="img"
            aria-label={`Page views per day: ${total} in all over ${views.length} day${views.length === 1 ? '' : 's'}${most ? `, most on ${most[0].slice(0, 10)} (${most[1]})` : ''}.`}
            viewBox={`0 0 ${width} 100`}
            preserveAspectRatio="none"
          >
            {views.map(([day, n], i) => (
              <rect key={day} className="bar" x={i * 24 + 4} width={16} y={100 - (n / max) * 96} height={(n / max) * 96}>
                <title>{`${day.slice(0, 10)}: ${n}`}</title>
              </rect>
            ))}
          </svg>
          <button type="button" className="link-button" onClick={() => download('page-views.csv', csvOf(table))}>
            Download CSV
          </button>
        </>
      ) : (
        <p>No page views in this range.</p>
      )}
    </section>
  );
}

function TableSection(props: { table: Table }) {
  const { table } = props;
  const id = `t-${table.title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{table.title}</h2>
      {table.rows.length ? (
        <>
          {/* Scrolls sideways on a narrow screen: reachable by the keyboard. */}
          <div className="table-scroll" tabIndex={0} role="region" aria-label={table.title}>
            <table>
              <thead>
                <tr>
                  {table.head.map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((r, i) => (
                  <tr key={i}>
                    {r.map((v, j) => (
                      <td key={j} className={typeof v === 'number' ? 'number' : undefined}>
                        {v === null ? '—' : String(v)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button type="button" className="link-button" onClick={() => download(`${id.slice(2)}.csv`, csvOf(table))}>
            Download CSV
          </button>
        </>
      ) : (
        <p>{table.empty}</p>
      )}
    </section>
  );
}

/** The topics of what visitors did not find, each able to open a change request on one of the site's spaces. */
function Topics(props: { org: string; site: string; range: Range; topics: Topic[]; spaces: { id: string; title: string }[] }) {
  const [opened, setOpened] = useState<Record<string, { url: string; number: number } | string>>({});
  const open = async (topic: Topic, spaceId: string) => {
    try {
      const cr = await call<{ number: number; urls: { app: string } }>(
        'POST',
        `/orgs/${props.org}/sites/${props.site}/insights/topics/${topic.id}/change-requests`,
        { spaceId, range: props.range },
      );
      setOpened((o) => ({ ...o, [topic.id]: { url: cr.urls.app, number: cr.number } }));
    } catch (e) {
      setOpened((o) => ({ ...o, [topic.id]: messageOf(e) }));
    }
  };
  return (
    <section aria-labelledby="topics-title">
      <h2 id="topics-title">Topics visitors did not find</h2>
      {props.topics.length ? (
        <ol className="insights-topics">
          {props.topics.map((t) => {
            const done = opened[t.id];
            return (
              <li key={t.id}>
                <p>
                  <strong>{t.label}</strong> <span className="meta">{t.count === 1 ? 'once' : `${t.count} times`}</span>
                </p>
                <p className="meta">
                  {t.queries.map((q) => `${q.kind === 'ask' ? 'asked' : 'searched'} “${q.text}” (${q.count})`).join(' · ')}
                </p>
                {t.pages.length ? <p className="meta">Opened next: {t.pages.map((p) => `${p.urlPath} (${p.count})`).join(', ')}</p> : null}
                {typeof done === 'object' ? (
                  <p role="status">
                    <a href={done.url}>Change request #{done.number}</a> opened.
                  </p>
                ) : props.spaces.length ? (
                  <form
                    className="inline-form"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const spaceId = new FormData(e.currentTarget).get('space') as string;
                      void open(t, spaceId);
                    }}
                  >
                    <label htmlFor={`space-${t.id}`}>Space </label>
                    <select id={`space-${t.id}`} name="space">
                      {props.spaces.map((s) => (
                        <option key={s.id} value={s.id}>
                          {s.title}
                        </option>
                      ))}
                    </select>{' '}
                    <button type="submit">Open a change request</button>
                    <ErrorText message={typeof done === 'string' ? done : null} />
                  </form>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : (
        <p>Nothing went unfound in this range.</p>
      )}
    </section>
  );
}
