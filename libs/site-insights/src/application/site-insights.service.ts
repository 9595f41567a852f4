import { createHash } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  DomainError,
  Actor,
  BoundedMap,
  Clock,
  FixedWindows,
  IdGenerator,
  InvalidInputError,
  JobQueue,
  NotFoundError,
  TtlCache,
  UnitOfWork,
} from '@app/shared-kernel';
import { SitePageTexts, SitesService } from '@app/sites-and-publishing';
import { markdownToDocument } from '@app/content-model';
import { ChangeRequestsService, type ChangeRequestView } from '@app/review-and-comments';
import { AggregationPlan, planAggregation, rangeOf, type RangePreset } from '../domain/aggregation';
import { buildTopics, LookedFor, NextPage, Topic, TOPIC_QUERIES_MAX, topicDescription } from '../domain/topics';
import { byRarity, identifierWords, indexesToDrop, nextPagesContext, recall, remember, withinPassages } from '../domain/page-context';
import { TopicsEngine, TopicsIndexLost, TopicsUnavailable } from './topics-engine';
import { checkEvents, checkOfficial, InsightsEvent, OfficialEvent, toInsightsEvent } from '../domain/insights-event';
import { AgentFeedbackStore, ColumnValues, DailySalts, InsightsEventStore } from '../domain/insights-ports';

/** Configuration (QUIRE_INSIGHTS_*; docs/insights.md). */
export abstract class InsightsSettings {
  /** Events older than this many days are deleted by the purge job. */
  abstract readonly retentionDays: number;
  /** Events one client address may send per minute (more: 429). */
  abstract readonly eventsPerMinute: number;
  /** How long an accepted event may wait in memory before its batch is written. */
  abstract readonly flushMs: number;
  /** The topics worker's heap at most, in MB (it holds the indexes of the sites read). */
  abstract readonly topicsMemoryMb: number;
}

export const INSIGHTS_PURGE_QUEUE = 'site-insights-purge';
/** A batch is written once this many events wait (or after flushMs). */
export const BATCH_SIZE = 500;
/** Past this many waiting events a caller waits for the write: memory stays bounded when the database is slow. */
export const BUFFER_MAX = 20_000;

/** More events than a client address may send in a minute: 429 with Retry-After. */
export class TooManyEvents extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many insights events from this address: try again later');
  }
}

/** Where a request came from, as far as insights need it: never kept as such. */
export interface Caller {
  ip: string;
  /** `DNT: 1` or `Sec-GPC: 1`: the visitor asked not to be tracked; nothing is kept. */
  optedOut: boolean;
}

/** What an agent's feedback answers (the official submitAgentFeedbackToSite 201). */
export interface AgentFeedbackReceipt {
  id: string;
  result: string;
}

const DAY_MS = 86_400_000;

/** How many questions `recommendedQuestions` suggests, and how many distinct visitors must have asked one. */
export const RECOMMENDED_QUESTIONS = 5;
export const RECOMMENDED_MIN_VISITORS = 2;

/** A site's passages indexed for topics (in the `TopicsEngine`), and where query texts led in them. */
interface SiteIndex {
  /** The version of what the site shows that it was read from (SitePageTexts). */
  key: string;
  /** Resolves once the engine holds the site's index (rejects: the build failed, and the entry is dropped). */
  ready: Promise<void>;
  /** Done building (or failed): until then, a read of the site waits for it whatever the site's version. */
  built: boolean;
  led: BoundedMap<string, Readonly<Record<string, number>>>;
  /** How many passages it holds, counted as soon as its pages are read (0 before). */
  passages: number;
  /** Reads of topics using it now: it is not dropped under them. */
  readers: number;
}

/**
 * Passages the sites' indexes kept in a process hold together, at most: bench/topics.mjs measured a 2,000-page
 * site of real documentation (18,000 passages) at 100 to 200 MB more resident memory, so a few hundred MB.
 */
const PASSAGES_KEPT = 60_000;
/**
 * Passages one site's index holds, at most (its first, in the site's order): an index takes about 9 KB of the
 * topics worker's heap a passage (bench/topics-memory.mjs), so 150,000 take 1.35 GB of its 2 GB by default.
 */
const PASSAGES_A_SITE = 150_000;
/** Sites whose index a process keeps, at most (each with up to `CONTEXTS_KEPT` queries' contexts, a few MB). */
const SITES_KEPT = 20;

/** Query texts whose context a site's index keeps, those read longest ago dropped first: the most topics read (TOPIC_QUERIES_MAX) in two ranges. */
const CONTEXTS_KEPT = 2 * TOPIC_QUERIES_MAX;

/**
 * Site insights (docs/insights.md): visitors' events come in through the official trackEventsInSiteById (the
 * site's own script sends them), are checked against the official schema, stripped of everything that names
 * the visitor, and written in batches; members with the site's read role count them through aggregateSiteEvents.
 * Agents give feedback through submitAgentFeedbackToSite and the site MCP's send_feedback. A job deletes
 * events past the retention and the salts of days that are over.
 */
@Injectable()
export class SiteInsightsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('SiteInsights');
  private buffer: InsightsEvent[] = [];
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly windows = new FixedWindows(60_000);
  /** Whether a site takes events (it exists in the organization and is published), for a few seconds. */
  private readonly open = new TtlCache<string, boolean>(10_000, 10_000);
  private salt: { day: string; salt: Buffer } | null = null;

  constructor(
    private readonly store: InsightsEventStore,
    private readonly salts: DailySalts,
    private readonly agentFeedbackStore: AgentFeedbackStore,
    private readonly sites: SitesService,
    private readonly settings: InsightsSettings,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly changeRequests: ChangeRequestsService,
    private readonly pageTexts: SitePageTexts,
    private readonly engine: TopicsEngine,
  ) {}

  /** Topics computed, by site and range, with what they were computed from: the same queries give them again without clustering. */
  private readonly topicsCache = new TtlCache<string, { from: string; clusters: number[] }>(10 * 60_000, 1000);
  /**
   * Each site's pages indexed for topics, with the key of what they were read from (SitePageTexts) and where each
   * query text led in it (a read of topics searches only the queries that are new since the last).
   */
  private readonly pageIndexes = new Map<string, SiteIndex>();

  onModuleInit(): void {
    this.jobs.work(INSIGHTS_PURGE_QUEUE, async () => {
      await this.purge();
    });
    // Hourly: a day's salt is gone within the hour after the day ends.
    this.jobs.schedule(INSIGHTS_PURGE_QUEUE, '7 * * * *');
  }

  /** Nothing accepted is lost on a clean stop: what waits is written before the process ends. */
  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    await this.engine.close();
  }

  /** trackEventsInSiteById: the events, all checked (or none kept); how many were kept (0 for a visitor who opted out). */
  async track(organizationId: string, siteId: string, body: unknown, caller: Caller): Promise<number> {
    await this.requireOpen(organizationId, siteId);
    const now = this.clock.now();
    const events = checkEvents(body, now);
    if (caller.optedOut || events.length === 0) return 0;
    this.count(siteId, caller.ip, events.length);
    // A database slower than what arrives: wait for what waits to be written, and refuse beyond that (memory stays bounded).
    if (this.buffer.length >= BUFFER_MAX) await this.flush();
    if (this.buffer.length >= BUFFER_MAX) throw new TooManyEvents(1);
    const salt = await this.saltOf(now);
    this.accept(events.map((e) => toInsightsEvent(e, { ip: caller.ip, organizationId, siteId, salt, now })));
    return events.length;
  }

  /** aggregateSiteEvents: members with the site's read role; what waits in this process is written first. */
  async aggregate(actor: Actor, organizationId: string, siteId: string, body: unknown): Promise<ColumnValues[]> {
    await this.sites.siteRole(organizationId, actor, siteId, 'read');
    await this.sites.found(organizationId, siteId);
    const plan: AggregationPlan = planAggregation(body, this.clock.now());
    await this.flush();
    return this.store.aggregate(organizationId, siteId, plan);
  }

  /** submitAgentFeedbackToSite: a member with the site's read role (an agent working with their token). */
  async memberAgentFeedback(
    actor: Actor,
    organizationId: string,
    siteId: string,
    input: unknown,
    where: { url: string; ip: string; userAgent: string },
  ): Promise<AgentFeedbackReceipt> {
    await this.sites.siteRole(organizationId, actor, siteId, 'read');
    await this.sites.found(organizationId, siteId);
    return this.agentFeedback(organizationId, siteId, input, 'api', where);
  }

  /**
   * An agent's feedback (official AgentFeedbackInput), kept whole (it must name no end user: the official
   * schema says so and bounds it), and counted as an `agent_feedback` event at `url` (what it is about, or
   * where it came in). The caller decided access: a member through the API, a visitor of the site through its MCP.
   */
  async agentFeedback(
    organizationId: string,
    siteId: string,
    input: unknown,
    source: 'api' | 'mcp',
    where: { url: string; ip: string; userAgent: string },
  ): Promise<AgentFeedbackReceipt> {
    const body = checkOfficial<{
      reportedBy?: Record<string, unknown>;
      subject: Record<string, unknown>;
      feedback: Record<string, unknown>;
    }>('AgentFeedbackInput', input, 'body');
    if (body.subject.kind === 'documentation' && !URL.canParse(body.subject.url as string))
      throw new InvalidInputError('body/subject/url must be a URL');
    // Counted against the caller's address as events are: an open MCP endpoint is not a way to flood the table.
    this.count(siteId, where.ip, 1);
    const now = this.clock.now();
    const id = this.ids.next();
    await this.agentFeedbackStore.insert({
      id,
      organizationId,
      siteId,
      source,
      reportedBy: body.reportedBy ?? {},
      subject: body.subject,
      feedback: body.feedback,
      createdAt: now,
    });
    const url = body.subject.kind === 'documentation' && typeof body.subject.url === 'string' ? body.subject.url : where.url;
    const userAgent = typeof body.reportedBy?.userAgent === 'string' ? body.reportedBy.userAgent : where.userAgent;
    await this.serverEvent(
      organizationId,
      siteId,
      { type: 'agent_feedback' },
      { ...where, url, userAgent },
      source === 'mcp' ? 'mcp' : 'server',
      id,
    );
    return { id, result: 'Thank you: the feedback was recorded for the site’s team, and counted in the site’s insights.' };
  }

  /**
   * Questions to suggest to who asks the site (the official `streamRecommendedQuestionsInSite`): those most
   * visitors asked in the last 30 days and got an answer to — at least two of them, bots left out, so that one
   * address cannot plant a question — within a site space (or a space) when given; the site's read role, as its
   * insights.
   */
  async recommendedQuestions(
    actor: Actor,
    organizationId: string,
    siteId: string,
    within: { siteSpace?: string; space?: string },
  ): Promise<string[]> {
    // The read role, and a site space of this site (400 otherwise).
    if (within.siteSpace !== undefined)
      await this.sites.searchedSpaces(actor, organizationId, siteId, { scope: { mode: 'specific', siteSpaceIds: [within.siteSpace] } });
    else await this.sites.siteRole(organizationId, actor, siteId, 'read');
    await this.sites.found(organizationId, siteId);
    await this.flush();
    const { from, to } = rangeOf('last30Days', this.clock.now());
    const rows = await this.store.answeredQuestions(
      organizationId,
      siteId,
      from,
      to,
      within,
      RECOMMENDED_QUESTIONS,
      RECOMMENDED_MIN_VISITORS,
    );
    return rows.map((r) => r.question);
  }

  /**
   * What visitors looked for and did not find, grouped into topics by the conversations' clustering algorithm:
   * the searches with no result and the questions of the range, with their counts and the pages opened next.
   * Computed when asked (what waits is written first), so new queries count at once; the clustering is kept
   * while the queries and their counts stay the same.
   */
  async topics(actor: Actor, organizationId: string, siteId: string, range: RangePreset): Promise<Topic[]> {
    await this.sites.siteRole(organizationId, actor, siteId, 'read');
    await this.sites.found(organizationId, siteId);
    await this.flush();
    const { from, to } = rangeOf(range, this.clock.now());
    const queries = await this.store.lookedFor(organizationId, siteId, from, to, TOPIC_QUERIES_MAX);
    const next = await this.store.nextPages(
      organizationId,
      siteId,
      from,
      to,
      queries.map((q) => q.text),
    );
    const contexts = await this.contexts(siteId, queries, next);
    const key = `${siteId} ${range}`;
    // The clusters depend on the texts and where they lead alone (not how often); kept by a hash of them (the texts
    // of 2,000 queries and their contexts are megabytes).
    const made = createHash('sha256')
      .update(JSON.stringify([queries.map((q) => [q.kind, q.text]), contexts]))
      .digest('base64');
    const cached = this.topicsCache.get(key, to.getTime());
    let clusters = cached?.from === made ? cached.clusters : null;
    if (!clusters) {
      clusters = await this.engine.cluster(
        queries.map((q) => identifierWords(q.text)),
        contexts,
      );
      this.topicsCache.set(key, { from: made, clusters }, to.getTime());
    }
    return buildTopics(queries, clusters, next);
  }

  /**
   * Where each query leads (docs/insights.md): the site's passages a loose search finds for it (with their pages
   * and groups) and the pages visitors opened next, as context terms for the clustering, weighted by how rare
   * each is among the queries.
   */
  private async contexts(siteId: string, queries: LookedFor[], next: NextPage[]): Promise<Record<string, number>[]> {
    const texts = queries.map((q) => q.text);
    let led: Map<string, Readonly<Record<string, number>>>;
    try {
      led = await this.ledTo(siteId, texts);
    } catch (e) {
      if (!(e instanceof TopicsIndexLost)) throw e;
      // The engine lost the site's index (its worker ended): built again, once.
      try {
        led = await this.ledTo(siteId, texts);
      } catch (again) {
        if (again instanceof TopicsIndexLost) throw new TopicsUnavailable('the topics worker ended twice while it read the site');
        throw again;
      }
    }
    const nextOf = new Map<string, NextPage[]>();
    for (const n of next) nextOf.set(n.text, [...(nextOf.get(n.text) ?? []), n]);
    return byRarity(
      queries.map((q) => {
        const found = { ...led.get(q.text) };
        for (const [term, weight] of Object.entries(nextPagesContext(nextOf.get(q.text) ?? []))) found[term] = (found[term] ?? 0) + weight;
        return found;
      }),
    );
  }

  /**
   * Where each query text led in the site's passages: those the site's memo holds, the others asked of the engine
   * at once. A `TopicsIndexLost` leaves the site's entry dropped (the next read builds it again).
   */
  private async ledTo(siteId: string, texts: readonly string[]): Promise<Map<string, Readonly<Record<string, number>>>> {
    const site = await this.pageIndex(siteId);
    if (!site) return new Map(texts.map((text) => [text, {}]));
    site.readers += 1;
    try {
      await site.ready;
      const { known, unknown } = recall(site.led, texts);
      const found = unknown.length ? await this.engine.contexts(siteId, unknown) : [];
      unknown.forEach((text, i) => known.set(text, found[i]));
      remember(site.led, known);
      return known;
    } catch (e) {
      // Not this entry again (a newer one another read made stays).
      if (e instanceof TopicsIndexLost && this.pageIndexes.get(siteId) === site) this.pageIndexes.delete(siteId);
      throw e;
    } finally {
      site.readers -= 1;
    }
  }

  /**
   * The site's passages indexed for `contexts` (in the engine), built once per version of what the site shows.
   * One build a site at a time: while one is under way, reads wait for it, even if the site has changed since it
   * began (the next read after it builds the new version).
   */
  private async pageIndex(siteId: string): Promise<SiteIndex | null> {
    const key = await this.pageTexts.key(siteId);
    if (!key) return null;
    const kept = this.pageIndexes.get(siteId);
    if (kept && (kept.key === key || !kept.built)) {
      // The most recently read last: the first to go is the one read longest ago.
      this.pageIndexes.delete(siteId);
      this.pageIndexes.set(siteId, kept);
      return kept;
    }
    // The site's earlier version goes before the new one is built: the engine never holds both (a large site's two
    // indexes could pass the worker's memory). Reads wait for the new one.
    if (kept) void this.engine.drop(siteId).catch((e: Error) => this.logger.warn(`topics index of ${siteId} not dropped: ${e.message}`));
    const site: SiteIndex = { key, ready: Promise.resolve(), built: false, led: new BoundedMap(CONTEXTS_KEPT), passages: 0, readers: 0 };
    site.ready = this.buildIndex(siteId, site).finally(() => (site.built = true));
    this.pageIndexes.delete(siteId);
    this.pageIndexes.set(siteId, site);
    this.keepWithin(site);
    // A failed build is not kept.
    site.ready.catch(() => this.pageIndexes.get(siteId) === site && this.pageIndexes.delete(siteId));
    return site;
  }

  /** Reads the site's pages and has the engine index them; `site` learns its key and size as soon as they are read. */
  private async buildIndex(siteId: string, site: SiteIndex): Promise<void> {
    const read = await this.pageTexts.pages(siteId);
    // What was read may be newer than the key asked for.
    if (read) site.key = read.key;
    const all = read ? read.pages.reduce((n, p) => n + p.passages.length, 0) : 0;
    site.passages = Math.min(all, PASSAGES_A_SITE);
    if (all > PASSAGES_A_SITE) this.logger.warn(`Site ${siteId}: topics index its first ${PASSAGES_A_SITE} passages of ${all}`);
    this.keepWithin(site);
    await this.engine.index(siteId, withinPassages(read?.pages ?? [], PASSAGES_A_SITE));
  }

  /**
   * Drops the indexes read longest ago beyond what a process keeps (`indexesToDrop`), but not `site`'s, one still
   * being built or one a read is using: while several large sites are read at once, the bound is passed.
   */
  private keepWithin(site: SiteIndex): void {
    const kept = [...this.pageIndexes].map(([id, k]) => ({ id, passages: k.passages, keep: k === site || !k.built || k.readers > 0 }));
    for (const id of indexesToDrop(kept, { passages: PASSAGES_KEPT, sites: SITES_KEPT })) {
      this.pageIndexes.delete(id);
      void this.engine.drop(id).catch((e: Error) => this.logger.warn(`topics index of ${id} not dropped: ${e.message}`));
    }
  }

  /**
   * A change request on a space of the organization, opened from a topic: its label as the subject, the queries
   * (and the pages visitors opened next) as the description. The caller needs the site's read role and the
   * right to open change requests on the space.
   */
  async topicChangeRequest(
    actor: Actor,
    organizationId: string,
    siteId: string,
    topicId: string,
    spaceId: string,
    range: RangePreset,
  ): Promise<ChangeRequestView> {
    const topic = (await this.topics(actor, organizationId, siteId, range)).find((t) => t.id === topicId);
    // Topics follow what arrives: one whose queries changed since it was listed has another id now.
    if (!topic)
      throw new DomainError('not-found', `Topic "${topicId}" not found: topics change as visitors’ queries arrive, list them again`);
    const created = await this.changeRequests.create(actor, spaceId, { subject: `Visitors look for: ${topic.label}` });
    if (created.changeRequest.organizationId !== organizationId) throw new NotFoundError('Space', spaceId);
    return this.changeRequests.update(actor, spaceId, created.changeRequest.id, {
      description: markdownToDocument(topicDescription(topic, range)).document,
    });
  }

  /**
   * A question the site's MCP `ask` tool answered (through the site's `~ask`), counted as the script counts one
   * asked on the site: `ask_question`, with whether it was answered.
   */
  async mcpQuestion(
    organizationId: string,
    siteId: string,
    question: string,
    answered: boolean,
    where: { url: string; ip: string; userAgent: string },
  ): Promise<void> {
    await this.serverEvent(organizationId, siteId, { type: 'ask_question', query: question.slice(0, 1000), answered }, where, 'mcp', null);
  }

  /** An event the server itself saw (an MCP call, an API call), waiting with the others. */
  private async serverEvent(
    organizationId: string,
    siteId: string,
    what: { type: OfficialEvent['type'] } & Record<string, unknown>,
    where: { url: string; ip: string; userAgent: string },
    displayContext: 'mcp' | 'server',
    sessionId: string | null,
  ): Promise<void> {
    const now = this.clock.now();
    const event: OfficialEvent = {
      ...what,
      session: { sessionId: sessionId ?? '', userAgent: where.userAgent, language: null, referrer: null },
      location: {
        url: where.url,
        displayContext,
        siteSection: null,
        siteSpace: null,
        siteShareKey: null,
        space: null,
        revision: null,
        page: null,
      },
    };
    this.accept([toInsightsEvent(event, { ip: where.ip, organizationId, siteId, salt: await this.saltOf(now), now })]);
  }

  /** The site of the id (any organization), for the site MCP, which has only the site's id. */
  siteById(siteId: string) {
    return this.sites.byId(siteId);
  }

  /** Writes what waits, in batches, one write at a time; a failed batch is logged and dropped (the caller is long gone). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // What waits now, not what arrives meanwhile: a caller waiting on the flush is not held by a steady stream.
    const pending = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(async () => {
      while (pending.length) {
        const batch = pending.splice(0, BATCH_SIZE);
        try {
          // Never in a request's transaction: the batch holds other requests' events.
          await this.uow.outside(() => this.store.insert(batch));
        } catch (e) {
          this.logger.error(`${batch.length} insights events were not written: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    });
    return this.writing;
  }

  /** Deletes events and agents' feedback past the retention, and the salts of the days that are over. */
  async purge(): Promise<{ events: number; salts: number; feedback: number }> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.settings.retentionDays * DAY_MS);
    const events = await this.store.purgeBefore(before);
    const feedback = await this.agentFeedbackStore.purgeBefore(before);
    const salts = await this.salts.forgetBefore(dayOf(now));
    return { events, salts, feedback };
  }

  private accept(events: InsightsEvent[]): void {
    this.buffer.push(...events);
    if (this.buffer.length >= BATCH_SIZE) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.settings.flushMs);
      this.timer.unref();
    }
  }

  private async requireOpen(organizationId: string, siteId: string): Promise<void> {
    const key = `${organizationId} ${siteId}`;
    const nowMs = this.clock.now().getTime();
    let open = this.open.get(key, nowMs);
    if (open === undefined) {
      const site = await this.sites.found(organizationId, siteId).catch((e: unknown) => {
        if (e instanceof NotFoundError) return null;
        throw e;
      });
      open = Boolean(site?.published);
      this.open.set(key, open, nowMs);
    }
    if (!open) throw new NotFoundError('Site', siteId);
  }

  private count(siteId: string, ip: string, events: number): void {
    const key = `${siteId} ${ip}`;
    const now = this.clock.now().getTime();
    if (this.windows.count(key, now) + events > this.settings.eventsPerMinute) throw new TooManyEvents(this.windows.retryAfter(key, now));
    this.windows.hit(key, now, events);
  }

  private async saltOf(now: Date): Promise<Buffer> {
    const day = dayOf(now);
    if (this.salt?.day !== day) this.salt = { day, salt: await this.uow.outside(() => this.salts.saltOf(day)) };
    return this.salt.salt;
  }
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
