import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tables of operations README.md and docs/operations.md show, generated from the document the API serves
 * (`/docs-json`) and the official ones (@gitbook/api 0.202.0, and 0.167.0 for the operations it dropped): what
 * Quire implements, its extensions, and each official operation it does not implement with the reason.
 * test/e2e/operations-table.e2e-spec.ts fails when the files drift; `npm run gen:operations` rewrites them.
 */
interface Doc {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; summary?: string; deprecated?: boolean }>>;
}
interface Op {
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
}

const HOSTED = "GitBook's hosted business";
const AGENTS =
  "GitBook's hosted AI agent products (findings, questions, channels, styleguides, agent settings); Quire's answers are `~ask` and the site's MCP server (docs/ai-access.md)";

/** Why an official operation is not implemented: by operationId first, then by its official tag. */
const WHY_BY_ID: Record<string, string> = {
  createUserNotificationsToken: "GitBook's push notification service",
  updateOrganizationMemberLastSeenAt: "not yet: Quire does not record members' activity (a member's `lastSeenAt` is left out)",
  getOrganizationAIUsage: `${HOSTED} (billing of AI usage)`,
  prewarmSiteSearch: "GitBook's hosted search cache: Quire's search index is kept current by merges and needs no warming",
  submitSiteAgentFeedback: 'not yet under this newer path: the same feedback is taken by `submitAgentFeedbackToSite` (docs/insights.md)',
  listSiteVisitorSegments: 'not yet: Quire counts no visitor segments (docs/insights.md says what it keeps)',
  installIntegrationOnSpace: "GitBook's integrations marketplace and its runtime: Quire has none (webhooks and this API take their place)",
  listOrganizationStyleguides: AGENTS,
  listStyleguideTemplates: AGENTS,
  listOrganizationAgentConversations: AGENTS,
  provisionOrganizationAgentConversation: AGENTS,
  updateOrganizationAgentConversation: AGENTS,
  deleteOrganizationAgentConversation: AGENTS,
  createSiteStyleguideById: AGENTS,
  createSiteStyleguideRun: AGENTS,
  listSiteStyleguideRuns: AGENTS,
};
const WHY_BY_TAG: Record<string, string> = {
  integrations: "GitBook's integrations marketplace and its runtime: Quire has none (webhooks and this API take their place)",
  'space-integrations': "GitBook's integrations marketplace and its runtime: Quire has none (webhooks and this API take their place)",
  'change-request-conversations': "GitBook's AI agent on change requests (hosted)",
  billing: `${HOSTED} (billing)`,
  'site-ads': `${HOSTED} (ads on sites)`,
  git: "GitHub and GitLab app installations of GitBook's hosted Git Sync: Quire's Git Sync takes a repository URL and a token (docs/moving-docs-in-and-out.md)",
  imports:
    "GitBook's hosted importers (Confluence, Notion and others); Quire imports Git repositories and GitBook exports (docs/moving-docs-in-and-out.md)",
  subdomains: "GitBook's hosted subdomains (gitbook.io): a Quire site is served on the organization's hostnames (docs/published-sites.md)",
  'organization-ask': "not yet: the organization-wide assistant; a site's `~ask` answers with citations (docs/ai-access.md)",
  'site-context': AGENTS,
  'site-questions': AGENTS,
  'site-ai': AGENTS,
  'site-agent-settings': AGENTS,
  'site-mcp-servers': AGENTS,
  'site-channels': AGENTS,
};

function operations(doc: Doc, prefix = ''): Map<string, Op> {
  const out = new Map<string, Op>();
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      if (!op?.operationId) continue;
      out.set(op.operationId, {
        id: op.operationId,
        method: method.toUpperCase(),
        path: path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path,
        tag: op.tags?.[0] ?? '(no tag)',
        summary: (op.summary ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim(),
      });
    }
  return out;
}

const officialDoc = (pkg: string): Doc =>
  JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'spec', 'openapi.json'), 'utf8')) as Doc;

export interface OperationsTables {
  /** The README section (between its markers). */
  readme: string;
  /** docs/operations.md, whole. */
  full: string;
  /** Official operations not implemented and with no reason here (must be empty). */
  unexplained: string[];
}

export function operationsTables(served: Doc): OperationsTables {
  const mine = operations(served, '/v1');
  const official = operations(officialDoc('@gitbook/api'));
  const older = operations(officialDoc('gitbook-api-0167'));
  const implemented = [...mine.values()].filter((o) => official.has(o.id));
  const fromOlder = [...mine.values()].filter((o) => !official.has(o.id) && older.has(o.id));
  const extensions = [...mine.values()].filter((o) => !official.has(o.id) && !older.has(o.id));
  const missing = [...official.values()].filter((o) => !mine.has(o.id));
  const why = (o: Op) => WHY_BY_ID[o.id] ?? WHY_BY_TAG[o.tag];
  const unexplained = missing.filter((o) => !why(o)).map((o) => o.id);

  const byTag = new Map<string, { done: number; not: number }>();
  for (const o of official.values()) {
    const row = byTag.get(o.tag) ?? { done: 0, not: 0 };
    if (mine.has(o.id)) row.done += 1;
    else row.not += 1;
    byTag.set(o.tag, row);
  }
  const reasons = new Map<string, Op[]>();
  for (const o of missing) reasons.set(why(o) ?? '(no reason given)', [...(reasons.get(why(o) ?? '(no reason given)') ?? []), o]);
  const sortOps = (ops: Op[]) => [...ops].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const row = (o: Op) => `| \`${o.method} ${o.path}\` | \`${o.id}\` | ${o.summary} |`;

  const readme = [
    `Generated from the document the API serves (\`npm run gen:operations\`; a test fails when it drifts): of the ${official.size} operations of the official GitBook API (\`@gitbook/api\` 0.202.0), Quire implements **${implemented.length}**, as the official document defines them; it also serves ${fromOlder.length} official operations that 0.202.0 dropped (from 0.167.0) and **${extensions.length} Quire extensions**. docs/operations.md lists every one; the ${missing.length} not implemented are there with the reason.`,
    '',
    '| official tag | implemented | not implemented |',
    '|---|---|---|',
    ...[...byTag.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([tag, r]) => `| ${tag} | ${r.done} | ${r.not || ''} |`),
    '',
    '| not implemented, because | operations |',
    '|---|---|',
    ...[...reasons.entries()]
      .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
      .map(([reason, ops]) => `| ${reason} | ${ops.length} |`),
  ].join('\n');

  const full = [
    '# Operations',
    '',
    '<!-- Generated by `npm run gen:operations` from the served document (test/support/operations-table.ts); do not edit. -->',
    '',
    readme,
    '',
    `## Implemented official operations (${implemented.length})`,
    '',
    '| operation | operationId | summary |',
    '|---|---|---|',
    ...sortOps(implemented).map(row),
    '',
    `## Official operations of 0.167.0 that 0.202.0 dropped (${fromOlder.length})`,
    '',
    '| operation | operationId | summary |',
    '|---|---|---|',
    ...sortOps(fromOlder).map(row),
    '',
    `## Quire extensions (${extensions.length})`,
    '',
    '| operation | operationId | summary |',
    '|---|---|---|',
    ...sortOps(extensions).map(row),
    '',
    `## Official operations not implemented (${missing.length})`,
    '',
    '| operation | operationId | why not |',
    '|---|---|---|',
    ...sortOps(missing).map((o) => `| \`${o.method} ${o.path}\` | \`${o.id}\` | ${why(o) ?? '(no reason given)'} |`),
    '',
  ].join('\n');
  return { readme, full, unexplained };
}

export const README_START = '<!-- operations:start -->';
export const README_END = '<!-- operations:end -->';

/** README.md with its operations section replaced by `section`. */
export function withOperations(readme: string, section: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} section`);
  return `${readme.slice(0, start + README_START.length)}\n${section}\n${readme.slice(end)}`;
}
