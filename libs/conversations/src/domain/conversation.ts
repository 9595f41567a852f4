import { InvalidInputError, Page, PageRequest } from '@app/shared-kernel';

/** What one ingested conversation may hold (400 beyond). */
export const LIMITS = {
  id: 200,
  subject: 1_000,
  parts: 200,
  partType: 50,
  body: 20_000,
  totalBody: 200_000,
  attributes: 50,
  attributeKey: 100,
  attributeValue: 1_000,
  url: 2_048,
  batch: 500,
};

export interface ConversationPart {
  type: string;
  role: string;
  body: string;
}

export interface ConversationInput {
  id: string;
  subject?: string;
  metadata?: { url?: string; attributes?: Record<string, unknown>; createdAt?: string };
  parts: ConversationPart[];
}

export interface Conversation {
  id: string;
  organizationId: string;
  subject: string;
  /** `metadata.attributes.source`, else the host of `metadata.url`, else `api`. */
  source: string;
  url: string | null;
  attributes: Record<string, string>;
  parts: ConversationPart[];
  createdAt: Date;
  ingestedAt: Date;
  processedAt: Date | null;
}

export interface ConversationIssue {
  id: string;
  organizationId: string;
  conversationId: string;
  clusterId: string;
  title: string;
  summary: string;
  source: string;
  /** The issue's TF-IDF vector (L2-normalized), kept to move its cluster's centroid when it leaves. */
  vector: Record<string, number>;
  createdAt: Date;
  ingestedAt: Date;
}

export interface IssuesCluster {
  id: string;
  organizationId: string;
  label: string;
  summary: string;
  icon: string;
  /** Sum of the member vectors, cut to the strongest terms. */
  centroid: Record<string, number>;
  /** How close the current representative (label, summary) is to the centroid. */
  bestSimilarity: number;
  issuesCount: number;
  lastIssueAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A conversation as given, checked: every string bounded, no empty parts, a real date. */
export function checkConversation(
  input: ConversationInput,
  now: Date,
  where = 'conversation',
): Omit<Conversation, 'organizationId' | 'ingestedAt' | 'processedAt'> {
  const id = input.id;
  if (typeof id !== 'string' || id.length < 1 || id.length > LIMITS.id || /[\s/]/.test(id))
    throw new InvalidInputError(`${where}.id must be 1 to ${LIMITS.id} characters, without blanks or slashes`);
  const subject = input.subject ?? '';
  if (subject.length > LIMITS.subject) throw new InvalidInputError(`${where}.subject must be at most ${LIMITS.subject} characters`);
  if (!Array.isArray(input.parts) || input.parts.length === 0 || input.parts.length > LIMITS.parts)
    throw new InvalidInputError(`${where}.parts must hold 1 to ${LIMITS.parts} parts`);
  let total = 0;
  input.parts.forEach((p, i) => {
    if (p.body.length > LIMITS.body) throw new InvalidInputError(`${where}.parts[${i}].body must be at most ${LIMITS.body} characters`);
    total += p.body.length;
  });
  if (total > LIMITS.totalBody) throw new InvalidInputError(`${where}.parts: at most ${LIMITS.totalBody} characters of bodies in all`);
  const attributes: Record<string, string> = {};
  const given = input.metadata?.attributes ?? {};
  if (Object.keys(given).length > LIMITS.attributes)
    throw new InvalidInputError(`${where}.metadata.attributes: at most ${LIMITS.attributes}`);
  for (const [k, v] of Object.entries(given)) {
    if (k.length > LIMITS.attributeKey || typeof v !== 'string' || v.length > LIMITS.attributeValue)
      throw new InvalidInputError(
        `${where}.metadata.attributes: keys of at most ${LIMITS.attributeKey} characters, string values of at most ${LIMITS.attributeValue}`,
      );
    attributes[k] = v;
  }
  let url: string | null = null;
  if (input.metadata?.url !== undefined) {
    url = input.metadata.url;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidInputError(`${where}.metadata.url is not a URL`);
    }
    if (url.length > LIMITS.url || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
      throw new InvalidInputError(`${where}.metadata.url must be an http(s) URL of at most ${LIMITS.url} characters`);
  }
  let createdAt = now;
  if (input.metadata?.createdAt !== undefined) {
    createdAt = new Date(input.metadata.createdAt);
    if (Number.isNaN(createdAt.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(input.metadata.createdAt))
      throw new InvalidInputError(`${where}.metadata.createdAt must be an ISO date-time`);
  }
  const source = (attributes.source ?? (url ? new URL(url).hostname : 'api')).slice(0, 100) || 'api';
  return { id, subject, source, url, attributes, parts: input.parts.map((p) => ({ type: p.type, role: p.role, body: p.body })), createdAt };
}

// ---------------------------------------------------------------------------------------------
// Extraction: the deterministic default (a language model may rewrite title and summary later)

const TITLE_MAX = 120;
const SUMMARY_MAX = 500;

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, at > max / 2 ? at : max - 1)}…`;
}

/** What the customer wrote (their parts; everything when no part is marked as theirs). */
export function customerText(c: Pick<Conversation, 'parts'>): string {
  const theirs = c.parts.filter((p) => p.role === 'user' || p.role === 'customer' || p.role === 'contact');
  return (theirs.length ? theirs : c.parts).map((p) => p.body).join('\n');
}

/** Title: the subject, else the customer's first sentence; summary: their first two sentences. */
export function extractIssue(c: Pick<Conversation, 'subject' | 'parts'>): { title: string; summary: string; text: string } {
  const text = customerText(c);
  const said = sentences(text);
  const title = cut(c.subject.trim() || said[0] || 'Untitled conversation', TITLE_MAX);
  const summary = cut(said.slice(0, 2).join(' ') || title, SUMMARY_MAX);
  return { title, summary, text: `${c.subject}\n${text}` };
}

/**
 * Port (optional): a language model that words an issue's title and summary from the conversation
 * (an OpenAI-compatible chat completions API when configured). The deterministic extractor always runs
 * first; a writer only rewords, and a failed or unusable answer leaves the extracted wording.
 */
export abstract class IssueWriter {
  abstract write(conversation: { subject: string; text: string }): Promise<unknown>;
}

/** A writer's answer as an issue's wording, bounded like extracted ones; null when it is not `{title, summary}` text. */
export function writtenIssue(answer: unknown): { title: string; summary: string } | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const { title, summary } = answer as Record<string, unknown>;
  if (typeof title !== 'string' || typeof summary !== 'string') return null;
  const clean = (s: string) =>
    s
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const t = clean(title);
  const m = clean(summary);
  if (!t || !m) return null;
  return { title: cut(t, TITLE_MAX), summary: cut(m, SUMMARY_MAX) };
}

// ---------------------------------------------------------------------------------------------
// Clustering: TF-IDF vectors, cosine similarity, leader clustering with running centroids

/** Two issues at least this similar (cosine of TF-IDF vectors) belong together. */
export const SIMILARITY_THRESHOLD = 0.2;
export const CENTROID_TERMS = 64;
export const VECTOR_TERMS = 48;

/** Port: the terms of a text (tokenized, stop words out, stemmed) — wink-nlp in the infrastructure. */
export abstract class TextAnalyzer {
  abstract terms(text: string): Promise<string[]>;
}

export function tfidf(terms: string[], df: (term: string) => number, documents: number): Record<string, number> {
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  const weights = [...tf].map(([t, n]) => [t, (1 + Math.log(n)) * Math.log((1 + documents) / (1 + df(t)) + 1)] as const);
  weights.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return normalize(Object.fromEntries(weights.slice(0, VECTOR_TERMS)));
}

export function normalize(v: Record<string, number>): Record<string, number> {
  const norm = Math.sqrt(Object.values(v).reduce((s, x) => s + x * x, 0));
  if (norm === 0) return {};
  return Object.fromEntries(Object.entries(v).map(([t, x]) => [t, x / norm]));
}

export function cosine(a: Record<string, number>, b: Record<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of Object.entries(a)) {
    na += x * x;
    const y = b[t];
    if (y !== undefined) dot += x * y;
  }
  for (const y of Object.values(b)) nb += y * y;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The centroid with `v` added (sign 1) or taken out (sign -1), cut to its strongest terms. */
export function moveCentroid(centroid: Record<string, number>, v: Record<string, number>, sign: 1 | -1): Record<string, number> {
  const next = { ...centroid };
  for (const [t, x] of Object.entries(v)) {
    const y = (next[t] ?? 0) + sign * x;
    if (y > 1e-9) next[t] = y;
    else delete next[t];
  }
  return Object.fromEntries(
    Object.entries(next)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, CENTROID_TERMS),
  );
}

/** The most similar cluster when it is similar enough, else null (a new cluster is due). */
export function nearestCluster<C extends { centroid: Record<string, number> }>(
  v: Record<string, number>,
  clusters: C[],
): { cluster: C; similarity: number } | null {
  let best: { cluster: C; similarity: number } | null = null;
  for (const cluster of clusters) {
    const similarity = cosine(v, cluster.centroid);
    if (!best || similarity > best.similarity) best = { cluster, similarity };
  }
  return best && best.similarity >= SIMILARITY_THRESHOLD ? best : null;
}

const ICONS: [RegExp, string][] = [
  [/^(login|log|sso|saml|sign|signin|password|auth|okta|idp|identiti|assert)/, 'lock'],
  [/^(bill|invoic|charg|refund|payment|pay|subscript|card|seat|vat)/, 'credit-card'],
  [/^(sync|git|github|gitlab|repositori|commit|branch|push)/, 'code-branch'],
  [/^(pdf|export|print|download)/, 'file-pdf'],
  [/^(search|index|result|keyword|find)/, 'magnifying-glass'],
  [/^(domain|dns|ssl|certif|https|hostnam|cname|subdomain)/, 'globe'],
];

/** An icon name (≤ 50) for a cluster from its strongest terms. */
export function iconFor(centroid: Record<string, number>): string {
  const top = Object.entries(centroid)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([t]) => t);
  for (const term of top) for (const [pattern, icon] of ICONS) if (pattern.test(term)) return icon;
  return 'circle-question';
}

/** `weeklyPulse`: exactly 13 weekly counts, oldest first, the last week ending now. */
export function weeklyPulse(dates: Date[], now: Date): number[] {
  const week = 7 * 24 * 60 * 60 * 1000;
  const pulse = new Array<number>(13).fill(0);
  for (const d of dates) {
    const age = Math.floor((now.getTime() - d.getTime()) / week);
    if (age >= 0 && age < 13) pulse[12 - age] += 1;
  }
  return pulse;
}

export const CLUSTER_ORDER_BY = ['updatedAt', 'createdAt', 'issues'] as const;
export type ClusterOrderBy = (typeof CLUSTER_ORDER_BY)[number];
/** `active`: an issue in the last 28 days; `inactive`: none. */
export const CLUSTER_STATUSES = ['active', 'inactive'] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];
export const ACTIVE_DAYS = 28;

export interface ClusterFacts {
  pulseDates: Date[];
  sources: Record<string, number>;
  conversations: number;
}

export abstract class ConversationRepository {
  /** Inserts or replaces conversations (by organization and id); a replaced one waits to be processed again. */
  abstract upsert(conversations: Conversation[]): Promise<void>;
  abstract find(organizationId: string, id: string): Promise<Conversation | null>;
  abstract list(organizationId: string, source: string | undefined, page: PageRequest): Promise<Page<Conversation>>;
  abstract findMany(organizationId: string, ids: string[]): Promise<Conversation[]>;
  /** Unprocessed conversations of the organization, oldest ingest first. */
  abstract unprocessed(organizationId: string, limit: number): Promise<Conversation[]>;
  /** Organizations with conversations waiting since before `before`. */
  abstract waitingOrganizations(before: Date): Promise<string[]>;
  /** Serializes processing of one organization (inside a unit of work). */
  abstract lockOrganization(organizationId: string): Promise<void>;
  /** Marks these contents processed (a conversation re-ingested since it was read stays waiting). */
  abstract markProcessed(organizationId: string, conversations: { id: string; ingestedAt: Date }[], at: Date): Promise<void>;

  abstract documentCount(organizationId: string): Promise<number>;
  abstract documentFrequencies(organizationId: string, terms: string[]): Promise<Map<string, number>>;
  abstract addDocumentFrequencies(organizationId: string, counts: Map<string, number>): Promise<void>;

  abstract issuesOf(organizationId: string, conversationIds: string[]): Promise<ConversationIssue[]>;
  abstract deleteIssues(ids: string[]): Promise<void>;
  abstract insertIssues(issues: ConversationIssue[]): Promise<void>;
  abstract listIssues(
    organizationId: string,
    filter: { cluster?: string; conversation?: string },
    page: PageRequest,
  ): Promise<Page<ConversationIssue>>;
  abstract findIssue(organizationId: string, id: string): Promise<ConversationIssue | null>;

  abstract clusters(organizationId: string): Promise<IssuesCluster[]>;
  abstract findCluster(organizationId: string, id: string): Promise<IssuesCluster | null>;
  abstract saveClusters(clusters: IssuesCluster[]): Promise<void>;
  abstract deleteClusters(ids: string[]): Promise<void>;
  abstract listClusters(
    organizationId: string,
    q: { orderBy: ClusterOrderBy; order: 'asc' | 'desc'; status?: ClusterStatus; activeSince: Date },
    page: PageRequest,
  ): Promise<Page<IssuesCluster>>;
  abstract clusterFacts(clusterIds: string[], since: Date): Promise<Map<string, ClusterFacts>>;
  /**
   * Rewords an issue (unless it changed since), and its cluster's label and summary when they were that
   * issue's words; moves the organization's version when something changed.
   */
  abstract rewordIssue(issue: ConversationIssue, to: { title: string; summary: string }): Promise<boolean>;
  /** Moves the organization's version (inside the processing run's unit of work). */
  abstract bumpVersion(organizationId: string): Promise<void>;
  /** The organization's version: equal versions, equal issues and clusters. */
  abstract version(organizationId: string): Promise<number>;
}

export interface ClusterTaskCounts {
  backlog: number;
  started: number;
  completed: number;
  cancelled: number;
}

/** Port: the tasks (change requests) linked to clusters, counted by state. */
export abstract class ClusterTasks {
  abstract counts(organizationId: string, clusterIds: string[]): Promise<Map<string, ClusterTaskCounts>>;
}
