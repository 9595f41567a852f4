import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import { createHash } from 'node:crypto';
import { BoundedMap, InvalidInputError } from '@app/shared-kernel';
import { INSIGHTS_DEFINITIONS } from './insights-schema.generated';

/** At most this many events in one trackEventsInSiteById call. */
export const EVENTS_PER_REQUEST = 100;
/** One event, as JSON, is at most this long (the official schema bounds few of its strings). */
export const EVENT_MAX_BYTES = 8 * 1024;
/** The official bound: an event's own `timestamp` is within five minutes of the time it arrives. */
export const TIMESTAMP_SKEW_MS = 5 * 60_000;

/** The official SiteInsightsEventType (`page_view`, `search_type_query` …), as the extracted schema lists it. */
export type EventType = string;

export type OfficialSchema = 'SiteInsightsEvent' | 'SiteInsightsQueryEventsAggregation' | 'AgentFeedbackInput';

/**
 * The official definitions, with Quire's two query columns added as alternatives of SiteInsightsQueryEventsColumn
 * and SiteInsightsQueryEventsValues (docs/insights.md): `eventSearchResultsCount` (a search's number of results,
 * an integer or null) and `eventAskAnswered` (whether a question was answered, a boolean or null).
 */
export function insightsDefinitions(): Record<string, object> {
  const defs = structuredClone(INSIGHTS_DEFINITIONS) as Record<string, { oneOf: object[] }>;
  const extra: [string, object][] = [
    ['eventSearchResultsCount', { type: ['integer', 'null'] }],
    ['eventAskAnswered', { type: ['boolean', 'null'] }],
  ];
  for (const [name, item] of extra) {
    defs.SiteInsightsQueryEventsColumn.oneOf.push({
      type: 'object',
      required: ['column'],
      properties: { column: { type: 'string', enum: [name] } },
    });
    defs.SiteInsightsQueryEventsValues.oneOf.push({
      type: 'object',
      required: ['column', 'values'],
      properties: { column: { type: 'string', enum: [name] }, values: { type: 'array', items: item } },
    });
  }
  return defs;
}

let ajv: Ajv2020 | null = null;
const compiled = new Map<string, ValidateFunction>();

/** A validator of one official schema (compiled on first use, from the definitions extracted from @gitbook/api). */
export function officialValidator(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (validate) return validate;
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'quire:insights', definitions: insightsDefinitions() });
  }
  validate = ajv.compile({ $ref: `quire:insights#/definitions/${name}` });
  compiled.set(name, validate);
  return validate;
}

/**
 * Each event type's own official schema (`page_view` → SiteInsightsEventPageView …), read from the union's
 * alternatives: an event is checked against its type's alone, not the twenty of the `oneOf` (ingest's main cost).
 */
let byType: Map<string, string> | null = null;
function eventSchemaOf(type: unknown): string | undefined {
  if (!byType) {
    byType = new Map();
    const union = INSIGHTS_DEFINITIONS.SiteInsightsEvent as { oneOf: { $ref: string }[] };
    for (const { $ref } of union.oneOf) {
      const name = $ref.split('/').pop()!;
      const parts = (INSIGHTS_DEFINITIONS[name] as { allOf?: { properties?: { type?: { enum?: string[] } } }[] }).allOf ?? [];
      const value = parts.find((p) => p.properties?.type?.enum)?.properties?.type?.enum?.[0];
      if (value) byType.set(value, name);
    }
  }
  return typeof type === 'string' ? byType.get(type) : undefined;
}

/** The value, checked against the official schema: a 400 naming where it is wrong. */
export function checkOfficial<T>(name: OfficialSchema, value: unknown, at: string): T {
  // An event of a known type is checked against its type's schema (the same rules, one alternative).
  const own = name === 'SiteInsightsEvent' ? eventSchemaOf((value as { type?: unknown } | null)?.type) : undefined;
  const validate = officialValidator(own ?? name);
  if (!validate(value)) {
    // A oneOf's first error is rarely the useful one: the type names the alternative that was meant.
    const errors = validate.errors ?? [];
    const e = errors.find((x) => x.keyword !== 'oneOf' && x.keyword !== 'enum' && x.keyword !== 'const') ?? errors[0];
    throw new InvalidInputError(`${at}${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`);
  }
  return value as T;
}

/** The ids an event names of where it happened (official SiteInsightsEventLocation; null: none). */
export interface LocationIds {
  siteSection: string | null;
  siteSpace: string | null;
  siteShareKey: string | null;
  space: string | null;
  revision: string | null;
  page: string | null;
}

/** An event as the official SiteInsightsEvent has it (checked). */
export interface OfficialEvent {
  type: EventType;
  session: {
    visitorId?: string;
    sessionId?: string;
    ip?: string;
    userAgent: string;
    language: string | null;
    referrer: string | null;
    visitorAuthClaims?: Record<string, unknown>;
    cookies?: Record<string, string>;
    visitorAuthToken?: string | null;
  };
  location: LocationIds & { url: string; displayContext?: string };
  timestamp?: string;
  [key: string]: unknown;
}

/**
 * The events of a trackEventsInSiteById body, each checked against the official schema and bounded; every
 * one must pass, or none is kept (the 400 names the first that does not).
 */
export function checkEvents(body: unknown, now: Date): OfficialEvent[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new InvalidInputError('The body must be a JSON object');
  const events = (body as { events?: unknown }).events;
  if (!Array.isArray(events)) throw new InvalidInputError('events must be an array of SiteInsightsEvent');
  if (events.length > EVENTS_PER_REQUEST) throw new InvalidInputError(`events must hold at most ${EVENTS_PER_REQUEST} events`);
  return events.map((event: unknown, i) => {
    if (JSON.stringify(event ?? null).length > EVENT_MAX_BYTES)
      throw new InvalidInputError(`events[${i}] must be at most ${EVENT_MAX_BYTES} characters of JSON`);
    const checked = checkOfficial<OfficialEvent>('SiteInsightsEvent', event, `events[${i}]`);
    checkExtensions(checked, i);
    // What the schema's formats let through and a URL or a date cannot be read from ("http://x:99999/", a leap second).
    if (!URL.canParse(checked.location.url)) throw new InvalidInputError(`events[${i}].location.url must be a URL`);
    if (checked.timestamp !== undefined) {
      const at = Date.parse(checked.timestamp);
      if (Number.isNaN(at)) throw new InvalidInputError(`events[${i}].timestamp must be a date and time`);
      if (Math.abs(at - now.getTime()) > TIMESTAMP_SKEW_MS)
        throw new InvalidInputError(`events[${i}].timestamp must be within 5 minutes of the current time`);
    }
    return checked;
  });
}

/** A search's number of results, at most (an integer column in SQL). */
export const RESULTS_COUNT_MAX = 1_000_000_000;

/** Quire's additions to two events (docs/insights.md): how many results a search had, whether a question was answered. */
function checkExtensions(event: OfficialEvent, i: number): void {
  const { resultsCount, answered } = event;
  if (
    event.type === 'search_type_query' &&
    resultsCount !== undefined &&
    !(Number.isInteger(resultsCount) && (resultsCount as number) >= 0 && (resultsCount as number) <= RESULTS_COUNT_MAX)
  )
    throw new InvalidInputError(`events[${i}].resultsCount must be a whole number from 0 to ${RESULTS_COUNT_MAX}`);
  if (event.type === 'ask_question' && answered !== undefined && typeof answered !== 'boolean')
    throw new InvalidInputError(`events[${i}].answered must be a boolean`);
}

/** An event as kept: no address, no user agent, no cookie, no visitor id of the client's. */
export interface InsightsEvent extends LocationIds {
  organizationId: string;
  siteId: string;
  type: EventType;
  occurredAt: Date;
  /** The visitor: a keyed hash of the site, the address and the user agent under the day's salt. */
  visitor: string;
  /** The session: the visitor's hash and the client's session id, hashed under the same salt. */
  session: string;
  displayContext: string;
  url: string;
  urlPath: string;
  referrer: string | null;
  referrerDomain: string | null;
  utm: { source: string | null; medium: string | null; campaign: string | null; term: string | null; content: string | null };
  language: string | null;
  browser: string;
  device: string;
  os: string;
  bot: string | null;
  authenticated: boolean;
  /** A link_click's target host, when it links to a URL. */
  linkDomain: string | null;
  /** What the event's type adds (a query, a rating, a link…): its official fields (and Quire's two), nothing else sent. */
  data: Record<string, unknown>;
}

/** The fields each type adds to the base event, as the official schema lists them (and Quire's `resultsCount`, `answered`). */
const FIELDS: Partial<Record<EventType, string[]>> = {
  page_markdown_request: ['markdownSource'],
  search_type_query: ['query', 'resultsCount'],
  search_open_result: ['query', 'result'],
  page_post_feedback: ['feedback'],
  page_post_feedback_comment: ['feedback'],
  ask_question: ['query', 'goal', 'answered'],
  ask_rate_response: ['query', 'rating', 'responseId'],
  link_click: ['link'],
  api_client_request: ['operation'],
  ad_click: ['ad'],
  ad_display: ['ad'],
  trademark_click: ['placement'],
  llms_request: ['llmsVariant'],
};

/** Where an event came from, as the request tells it: never kept as such. */
export interface EventOrigin {
  /** The client's address (the official `session.ip` when given, else the request's). */
  ip: string;
  organizationId: string;
  siteId: string;
  /** The day's salt (a secret that is deleted when the day is over). */
  salt: Buffer;
  now: Date;
}

/**
 * A keyed hash: SHA-256 of the 32-byte salt followed by the parts (a fixed-length secret prefix; the output is cut,
 * so no length extension applies). Cheaper than an HMAC object per event, which insights make a thousand times a second.
 */
const keyed = (salt: Buffer, ...parts: string[]) =>
  createHash('sha256').update(salt).update(parts.join('\u0000')).digest('base64url').slice(0, 22);

/** The visitor's hash: the same all day for one address and browser on one site, unlinkable once the salt is gone. */
export function visitorHash(salt: Buffer, siteId: string, ip: string, userAgent: string): string {
  return keyed(salt, 'visitor', siteId, ip, userAgent);
}

/** The event as it is kept. */
export function toInsightsEvent(event: OfficialEvent, origin: EventOrigin): InsightsEvent {
  const { type, session, location, timestamp } = event;
  const data = Object.fromEntries((FIELDS[type] ?? []).filter((f) => event[f] !== undefined).map((f) => [f, event[f]]));
  const target = (data.link as { target?: { kind?: string; url?: string } } | undefined)?.target;
  const visitor = visitorHash(origin.salt, origin.siteId, session.ip ?? origin.ip, session.userAgent);
  const url = new URL(location.url);
  // The referrer as the page's URL is kept: origin and path, never its query (a share key, a visitor token, claims).
  const referrer = session.referrer && URL.canParse(session.referrer) ? withoutQuery(new URL(session.referrer)) : null;
  const param = (name: string) => url.searchParams.get(name)?.slice(0, 200) || null;
  const agent = describeAgent(session.userAgent);
  return {
    organizationId: origin.organizationId,
    siteId: origin.siteId,
    type,
    occurredAt: timestamp !== undefined ? new Date(timestamp) : origin.now,
    visitor,
    session: keyed(origin.salt, 'session', visitor, session.sessionId ?? ''),
    displayContext: location.displayContext ?? 'site',
    url: withoutQuery(url),
    urlPath: url.pathname,
    siteSection: location.siteSection,
    siteSpace: location.siteSpace,
    siteShareKey: location.siteShareKey,
    space: location.space,
    revision: location.revision,
    page: location.page,
    referrer,
    referrerDomain: referrer ? hostOf(referrer) : null,
    utm: {
      source: param('utm_source'),
      medium: param('utm_medium'),
      campaign: param('utm_campaign'),
      term: param('utm_term'),
      content: param('utm_content'),
    },
    language: session.language ? session.language.slice(0, 35) : null,
    ...agent,
    authenticated: Boolean(session.visitorAuthClaims && Object.keys(session.visitorAuthClaims).length) || Boolean(session.visitorAuthToken),
    linkDomain: target?.kind === 'url' && typeof target.url === 'string' ? hostOf(target.url) : null,
    data,
  };
}

const withoutQuery = (url: URL) => `${url.origin}${url.pathname}`;

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null; // the official schema allows only URLs here; an unreadable one has no domain
  }
}

/** The official SiteInsightsVisitorBot names, each with what its user agent says (lower case). */
const BOTS: [string, string][] = [
  ['googlebot', 'googlebot'],
  ['bingbot', 'bingbot'],
  ['duckduckbot', 'duckduckbot'],
  ['duckassist', 'duckassistbot'],
  ['facebookbot', 'facebookbot'],
  ['meta-fetcher', 'meta-externalfetcher'],
  ['meta-webindexer', 'meta-webindexer'],
  ['meta', 'meta-externalagent'],
  ['applebot', 'applebot'],
  ['gptbot', 'gptbot'],
  ['chatgpt', 'chatgpt-user'],
  ['openai', 'oai-searchbot'],
  ['claudebot', 'claudebot'],
  ['claude', 'claude-user'],
  ['claude-code', 'claude-code'],
  ['anthropic', 'anthropic-ai'],
  ['gemini', 'google-extended'],
  ['perplexity', 'perplexitybot'],
  ['cohere', 'cohere-ai'],
  ['mistral', 'mistralai-user'],
  ['deepseek', 'deepseekbot'],
  ['bytespider', 'bytespider'],
  ['ccbot', 'ccbot'],
  ['amazonbot', 'amazonbot'],
  ['youbot', 'youbot'],
  ['grok', 'grok'],
  ['github-copilot', 'github-copilot'],
  ['cursor', 'cursor'],
  ['vscode', 'vscode'],
];

type Agent = { browser: string; device: string; os: string; bot: string | null };
/** User agents repeat: each is read once per process (the strings only, never with an address). */
const agents = new BoundedMap<string, Agent>(5000);

/** The official browser, device, OS and bot of a user agent (Bowser and isbot read it; only these four are kept). */
export function describeAgent(userAgent: string): Agent {
  let agent = agents.get(userAgent);
  if (!agent) agents.set(userAgent, (agent = readAgent(userAgent)));
  return agent;
}

function readAgent(userAgent: string): Agent {
  const lower = userAgent.toLowerCase();
  const named = BOTS.find(([, token]) => lower.includes(token));
  const bot = named ? named[0] : isbot(userAgent) ? 'unknown' : null;
  if (!userAgent) return { browser: 'unknown', device: 'unknown', os: 'unknown', bot };
  const parsed = Bowser.parse(userAgent);
  const browser =
    {
      Chrome: 'chrome',
      Chromium: 'chrome',
      Firefox: 'firefox',
      Safari: 'safari',
      'Microsoft Edge': 'edge',
      'Internet Explorer': 'ie',
      Opera: 'opera',
    }[parsed.browser.name ?? ''] ?? 'unknown';
  const os =
    { Windows: 'windows', macOS: 'macos', Linux: 'linux', 'Chrome OS': 'linux', Android: 'android', iOS: 'ios' }[parsed.os.name ?? ''] ??
    'unknown';
  const device = { desktop: 'desktop', tablet: 'tablet', mobile: 'mobile' }[parsed.platform.type ?? ''] ?? 'unknown';
  return { browser, device, os, bot };
}
