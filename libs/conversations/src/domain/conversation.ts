import { InvalidInputError } from '@app/shared-kernel';

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
  /** What processing counted of it last (absent before its first processing): taken out when it is counted anew. */
  counted?: Counted;
}

/** A conversation's share of its organization's document frequencies (its terms) and embedding sum (its embedding). */
export interface Counted {
  terms: string[];
  embedding: number[] | null;
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
  /** Its embedding (centered, unit length; empty without word vectors), kept likewise. */
  embedding: number[];
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
  /** Sum of the member embeddings. */
  embedding: number[];
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
