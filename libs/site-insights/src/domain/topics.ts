import { createHash } from 'node:crypto';

/** What visitors looked for and did not find: a search with no result or a question, as typed (lower case, trimmed). */
export interface LookedFor {
  text: string;
  kind: 'search' | 'ask';
  count: number;
}

/** A page visitors opened next (within 30 minutes, in the same session) after looking for `text`. */
export interface NextPage {
  text: string;
  space: string;
  page: string;
  urlPath: string;
  count: number;
}

/** One topic: queries the clustering grouped, with their counts and where visitors went next. */
export interface Topic {
  /** Stable while the topic holds the same queries: a hash of them. */
  id: string;
  /** Its most frequent query. */
  label: string;
  count: number;
  queries: LookedFor[];
  pages: { space: string; page: string; urlPath: string; count: number }[];
}

/** At most this many distinct queries are grouped (the most frequent). */
export const TOPIC_QUERIES_MAX = 2000;

/** Topics from the queries and their clusters (`clusterOf[i]` is query i's), the largest first. */
export function buildTopics(queries: LookedFor[], clusterOf: number[], next: NextPage[]): Topic[] {
  const groups = new Map<number, LookedFor[]>();
  queries.forEach((q, i) => groups.set(clusterOf[i], [...(groups.get(clusterOf[i]) ?? []), q]));
  const nextOf = new Map<string, NextPage[]>();
  for (const n of next) nextOf.set(n.text, [...(nextOf.get(n.text) ?? []), n]);
  const topics = [...groups.values()].map((members): Topic => {
    const sorted = [...members].sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
    const pages = new Map<string, Topic['pages'][number]>();
    for (const m of sorted)
      for (const n of nextOf.get(m.text) ?? []) {
        const key = `${n.space} ${n.page}`;
        const seen = pages.get(key);
        pages.set(key, { space: n.space, page: n.page, urlPath: seen?.urlPath ?? n.urlPath, count: (seen?.count ?? 0) + n.count });
      }
    return {
      id: topicId(sorted),
      label: sorted[0].text,
      count: sorted.reduce((s, m) => s + m.count, 0),
      queries: sorted,
      pages: [...pages.values()].sort((a, b) => b.count - a.count || a.urlPath.localeCompare(b.urlPath)),
    };
  });
  return topics.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

export function topicId(queries: LookedFor[]): string {
  const texts = queries.map((q) => `${q.kind}:${q.text}`).sort();
  return createHash('sha256').update(texts.join('\n')).digest('base64url').slice(0, 16);
}

/** A change request's description for a topic: what visitors looked for, as markdown. */
export function topicDescription(topic: Topic, range: string): string {
  const lines = [
    `Visitors of the site looked for this and did not find it (site insights, ${range}): ${topic.count} time${topic.count === 1 ? '' : 's'}.`,
    '',
    ...topic.queries.map((q) => `- ${q.kind === 'ask' ? 'Asked' : 'Searched'} “${escapeMarkdown(q.text)}” (${q.count}×)`),
  ];
  if (topic.pages.length)
    lines.push('', 'Pages they opened next:', '', ...topic.pages.slice(0, 10).map((p) => `- \`${p.urlPath}\` (${p.count}×)`));
  return lines.join('\n');
}

const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
