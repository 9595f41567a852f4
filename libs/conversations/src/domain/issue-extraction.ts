import { Conversation } from './conversation';

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

/**
 * What clustering reads of a conversation: its subject and every part, the customer's and the agents' (an agent's
 * reply often names the problem in the product's words — "rate limit" where the customer wrote "429"). Titles
 * and summaries stay the customer's words (`extractIssue`).
 */
export function clusteringText(c: Pick<Conversation, 'subject' | 'parts'>): string {
  return [c.subject, ...c.parts.map((p) => p.body)].join('\n');
}

/** Title: the subject, else the customer's first sentence; summary: their first two sentences. */
export function extractIssue(c: Pick<Conversation, 'subject' | 'parts'>): { title: string; summary: string } {
  const said = sentences(customerText(c));
  const title = cut(c.subject.trim() || said[0] || 'Untitled conversation', TITLE_MAX);
  const summary = cut(said.slice(0, 2).join(' ') || title, SUMMARY_MAX);
  return { title, summary };
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
