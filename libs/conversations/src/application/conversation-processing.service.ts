import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { Clock, IdGenerator, JobQueue, stepwise, turn, UnitOfWork } from '@app/shared-kernel';
import { ConversationEvents } from './conversation-events';
import {
  centered,
  CLUSTERING,
  CLUSTERING_ALGORITHM,
  clustering,
  NEIGHBOUR_POOL,
  iconFor,
  mergedInto,
  moveCentroid,
  moveEmbedding,
  similarityTo,
  TERMS_ONLY,
  TextAnalyzer,
  textEmbedding,
  tfidf,
  widening,
  reclusterDue,
  REFRESH_MS,
  type ClusterPoint,
  type IssuePoint,
} from '../domain/clustering';
import { Conversation, ConversationIssue, Counted, IssuesCluster } from '../domain/conversation';
import { ConversationRepository } from '../domain/conversation-ports';
import { clusteringText, extractIssue, customerText, IssueWriter, writtenIssue } from '../domain/issue-extraction';

export const PROCESS_QUEUE = 'conversations-process';
export const SWEEP_QUEUE = 'conversations-sweep';
/** Conversations of one organization processed per transaction. */
export const CHUNK = 500;
/** Unprocessed conversations older than this are sent again by the sweep (a lost job, a process without jobs). */
export const WAITING_GRACE_MS = 60_000;

/**
 * The background job after an ingest: for every unprocessed conversation of the organization, extract
 * its issue (deterministic: subject / the customer's first sentences), vectorize it (TF-IDF over the
 * organization's issues: terms from wink-nlp, document frequencies kept in PostgreSQL; and its meaning from
 * word vectors), and cluster the batch with the organization's clusters (`clusterBatch`: average linkage from
 * single issues; docs/conversations-clustering.md). One organization is processed
 * by one job at a time (an advisory lock), in chunks of 500 per transaction; a re-ingested conversation
 * first leaves its old cluster (its vector is taken out of the centroid; emptied clusters go).
 */
@Injectable()
export class ConversationProcessing implements OnModuleInit {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly analyzer: TextAnalyzer,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: ConversationEvents,
    @Optional() private readonly writer?: IssueWriter,
  ) {}

  private readonly logger = new Logger('ConversationProcessing');

  onModuleInit(): void {
    this.jobs.work(PROCESS_QUEUE, async (data) => {
      await this.processOrganization(String(data.organizationId));
    });
    this.jobs.work(SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    this.jobs.schedule(SWEEP_QUEUE, '* * * * *');
  }

  request(organizationId: string): void {
    this.jobs.send(PROCESS_QUEUE, { organizationId }, organizationId);
  }

  async sweep(): Promise<number> {
    const waiting = await this.conversations.waitingOrganizations(new Date(this.clock.now().getTime() - WAITING_GRACE_MS));
    // Organizations an older clustering algorithm clustered: processing clusters them again (in the background).
    const older = await this.conversations.organizationsBefore(CLUSTERING_ALGORITHM);
    // And those grown by a tenth since their last full clustering, a day ago or more (clustered again in full).
    const grown = await this.conversations.organizationsToRefresh(new Date(this.clock.now().getTime() - REFRESH_MS));
    const all = [...new Set([...waiting, ...older, ...grown])];
    for (const organizationId of all) this.request(organizationId);
    return all.length;
  }

  /**
   * Processes every waiting conversation of the organization (clustering it again in full first when that is due);
   * how many were waiting and are processed now. The event counts every conversation clustered, a full
   * re-clustering's included.
   */
  async processOrganization(organizationId: string): Promise<number> {
    let total = 0;
    let clustered = 0;
    for (;;) {
      const chunk = await this.uow.run(() => this.chunk(organizationId));
      total += chunk.processed;
      clustered += chunk.clustered;
      // After the commit: the extracted wording is already visible; a language model may reword it.
      if (this.writer) await this.reword(this.writer, chunk.issues);
      if (chunk.processed < CHUNK) break;
    }
    if (clustered > 0) this.events.publish('conversations.processed', organizationId, null, { conversations: clustered });
    return total;
  }

  /**
   * Asks the configured language model for each new issue's title and summary (4 at a time); an answer
   * that fails or is unusable keeps the extracted wording.
   */
  private async reword(writer: IssueWriter, issues: { issue: ConversationIssue; subject: string; text: string }[]): Promise<void> {
    const queue = [...issues];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          const wording = writtenIssue(await writer.write({ subject: next.subject, text: next.text }));
          if (wording) await this.conversations.rewordIssue(next.issue, wording);
        } catch (e) {
          this.logger.warn(`the language model did not word issue ${next.issue.id}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  }

  private async chunk(
    organizationId: string,
  ): Promise<{ processed: number; clustered: number; issues: { issue: ConversationIssue; subject: string; text: string }[] }> {
    await this.conversations.lockOrganization(organizationId);
    // Clusters an older algorithm made, or made when the organization had half as many conversations or fewer, are
    // made again first, from every conversation (in this transaction).
    const state = await this.conversations.clusteringOf(organizationId);
    const count = await this.conversations.countConversations(organizationId);
    const clusters = await this.conversations.clusters(organizationId);
    if (reclusterDue(state, count, clusters.length > 0, this.clock.now())) {
      const { conversations, waited } = await this.reclusterLocked(organizationId);
      return { processed: waited, clustered: conversations, issues: [] };
    }
    const batch = await this.conversations.unprocessed(organizationId, CHUNK);
    if (batch.length === 0) return { processed: 0, clustered: 0, issues: [] };
    const now = this.clock.now();
    const existing = clusters.filter((c) => c.issuesCount > 0);

    // A re-ingested conversation leaves its cluster first.
    const old = await this.conversations.issuesOf(
      organizationId,
      batch.map((c) => c.id),
    );
    const byId = new Map(existing.map((c) => [c.id, c]));
    const emptied: string[] = [];
    for (const issue of old) {
      const cluster = byId.get(issue.clusterId);
      if (!cluster) continue;
      cluster.centroid = moveCentroid(cluster.centroid, issue.vector, -1);
      cluster.embedding = moveEmbedding(cluster.embedding, issue.embedding, -1);
      cluster.issuesCount -= 1;
      if (cluster.issuesCount <= 0) emptied.push(cluster.id);
    }
    await this.conversations.deleteIssues(old.map((i) => i.id));
    const live = existing.filter((c) => c.issuesCount > 0);
    const { points, extracted, counted } = await this.points(organizationId, batch, false);
    // Each issue widened by its nearest among the organization's issues so far and the batch's others.
    const earlier = await this.conversations.issuePoints(organizationId, NEIGHBOUR_POOL);
    const widened = await stepwise(widening(points, earlier, parametersFor(points, live)));
    // A re-ingested conversation's issue is a new one (the old id answers 404), as before.
    const result = await this.place(organizationId, batch, extracted, widened, live, now, new Map());
    await this.conversations.saveClusters(result.clusters);
    for (const [from, into] of result.moved) await this.conversations.moveIssues(from, into);
    await this.conversations.insertIssues(result.issues);
    await this.conversations.deleteClusters([...emptied, ...result.gone]);
    await this.conversations.markProcessed(
      organizationId,
      batch.map((c, i) => ({ ...c, counted: counted[i] })),
      now,
    );
    // The first batch of an organization is clustered from scratch: the size the next full clustering waits for.
    if (existing.length === 0 && old.length === 0) await this.conversations.recordFullClustering(organizationId, batch.length, now);
    await this.conversations.bumpVersion(organizationId);
    const byConversation = new Map(batch.map((c) => [c.id, c]));
    return {
      processed: batch.length,
      clustered: batch.length,
      issues: result.issues.map((issue) => {
        const c = byConversation.get(issue.conversationId)!;
        return { issue, subject: c.subject, text: customerText(c) };
      }),
    };
  }

  /**
   * Clusters an organization again from every conversation (after an algorithm change): document frequencies,
   * embeddings and clusters are computed anew and swapped in at once, in one transaction (readers see the old
   * clusters until it commits). Issue ids are kept per conversation, and a cluster keeps the id of the old
   * cluster most of its issues came from (change requests linked to it stay linked).
   */
  async recluster(organizationId: string): Promise<number> {
    const n = await this.uow.run(async () => {
      await this.conversations.lockOrganization(organizationId);
      return (await this.reclusterLocked(organizationId)).conversations;
    });
    this.events.publish('conversations.processed', organizationId, null, { conversations: n });
    return n;
  }

  /** How many conversations it clustered, and how many of them were waiting to be processed. */
  private async reclusterLocked(organizationId: string): Promise<{ conversations: number; waited: number }> {
    const now = this.clock.now();
    const conversations = await this.conversations.everyConversation(organizationId);
    const before = await this.conversations.allIssues(organizationId);
    const { points, extracted, sums, counted } = await this.points(organizationId, conversations, true);
    const issueIds = new Map(before.map((i) => [i.conversationId, i.id]));
    // In chunks, as ingest places them: the merge pass compares a chunk with the clusters so far (not every
    // pair of the organization's issues at once), and the event loop gets a turn between chunks.
    const result: { clusters: IssuesCluster[]; issues: ConversationIssue[] } = { clusters: [], issues: [] };
    for (let from = 0; from < conversations.length; from += CHUNK) {
      const to = from + CHUNK;
      const chunk = points.slice(from, to);
      const widened = await stepwise(widening(chunk, result.issues.slice(-NEIGHBOUR_POOL), parametersFor(chunk, result.clusters)));
      const placed = await this.place(
        organizationId,
        conversations.slice(from, to),
        extracted.slice(from, to),
        widened,
        result.clusters,
        now,
        issueIds,
      );
      const movedTo = new Map(placed.moved);
      for (const issue of result.issues) issue.clusterId = movedTo.get(issue.clusterId) ?? issue.clusterId;
      result.clusters = placed.clusters;
      result.issues.push(...placed.issues);
      await turn();
    }
    // Cluster ids carried over: each new cluster takes the old id most of its issues had, once.
    const oldCluster = new Map(before.map((i) => [i.conversationId, i.clusterId]));
    const taken = new Set<string>();
    const rename = new Map<string, string>();
    for (const c of [...result.clusters].sort((a, b) => b.issuesCount - a.issuesCount)) {
      const votes = new Map<string, number>();
      for (const i of result.issues)
        if (i.clusterId === c.id) {
          const o = oldCluster.get(i.conversationId);
          if (o) votes.set(o, (votes.get(o) ?? 0) + 1);
        }
      const best = [...votes].filter(([id]) => !taken.has(id)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
      if (best) {
        taken.add(best[0]);
        rename.set(c.id, best[0]);
      }
    }
    for (const c of result.clusters) c.id = rename.get(c.id) ?? c.id;
    for (const i of result.issues) i.clusterId = rename.get(i.clusterId) ?? i.clusterId;
    await this.conversations.replaceClustering(organizationId, result.clusters, result.issues, sums, {
      algorithm: CLUSTERING_ALGORITHM,
      clustered: conversations.length,
      at: now,
    });
    await this.conversations.markProcessed(
      organizationId,
      conversations.map((c, i) => ({ ...c, counted: counted[i] })),
      now,
    );
    await this.conversations.bumpVersion(organizationId);
    return { conversations: conversations.length, waited: conversations.filter((c) => c.processedAt === null).length };
  }

  /**
   * Each conversation's issue as clustering reads it: extracted, analyzed, its TF-IDF vector (document
   * frequencies updated first, or replaced when `fresh`) and its embedding centered on the organization's mean.
   */
  private async points(organizationId: string, batch: Conversation[], fresh: boolean) {
    const extracted = [];
    for (const conversation of batch) {
      const issue = extractIssue(conversation);
      extracted.push({ conversation, ...issue, ...(await this.analyzer.analyze(clusteringText(conversation))) });
      if (extracted.length % 20 === 0) await turn();
    }
    const counts = new Map<string, number>();
    const count = (t: string, n: number) => counts.set(t, (counts.get(t) ?? 0) + n);
    for (const e of extracted) for (const t of new Set(e.terms)) count(t, 1);
    // A conversation counted before (ingested again) comes out of the frequencies and the sum first.
    const before = fresh ? [] : batch.flatMap((c) => (c.counted ? [c.counted] : []));
    for (const c of before) for (const t of c.terms) count(t, -1);
    if (fresh) await this.conversations.replaceDocumentFrequencies(organizationId, counts);
    else await this.conversations.addDocumentFrequencies(organizationId, counts);
    // The documents the frequencies count: those processed before and this batch (not a backlog still waiting).
    const documents = fresh ? batch.length : (await this.conversations.processedCount(organizationId)) + batch.length;
    const df = await this.conversations.documentFrequencies(organizationId, [...counts.keys()]);
    const tf = extracted.map((e) => tfidf(e.terms, (t) => df.get(t) ?? 1, documents));
    const vectors = await this.analyzer.vectors();
    const raw = vectors ? extracted.map((e, i) => textEmbedding(e.terms, e.words, tf[i], vectors)) : extracted.map(() => null);
    const added = new Array<number>(vectors?.dims ?? 0).fill(0);
    let embedded = 0;
    for (const r of raw)
      if (r) {
        r.embedding.forEach((x, d) => (added[d] += x));
        embedded += 1;
      }
    for (const c of before)
      if (c.embedding && added.length) {
        c.embedding.forEach((x, d) => (added[d] -= x));
        embedded -= 1;
      }
    const sums = fresh
      ? { sum: added, count: embedded }
      : await this.conversations.addEmbeddings(organizationId, added, embedded, CLUSTERING_ALGORITHM);
    const mean = sums.count ? sums.sum.map((x) => x / sums.count) : [];
    const points: IssuePoint[] = tf.map((v, i) => ({ vector: v, embedding: raw[i] && mean.length ? centered(raw[i], mean) : [] }));
    // What was counted of each, to take out when it is counted anew.
    const counted: Counted[] = extracted.map((e, i) => ({ terms: [...new Set(e.terms)], embedding: raw[i]?.embedding ?? null }));
    return { points, extracted, sums, counted };
  }

  /**
   * The issues of a batch placed into clusters (`clusterBatch`: join, then merge), as rows to write: clusters
   * to save (new, grown, merged into), clusters merged away (`gone`) whose issues move (`moved`), and the issues.
   */
  private async place(
    organizationId: string,
    batch: Conversation[],
    extracted: { title: string; summary: string }[],
    points: IssuePoint[],
    live: IssuesCluster[],
    now: Date,
    issueIds: Map<string, string>,
  ) {
    const parameters = parametersFor(points, live);
    const states: ClusterPoint[] = live.map((c) => ({ centroid: c.centroid, embedding: c.embedding, issuesCount: c.issuesCount }));
    const { assigned, merges } = await stepwise(clustering(points, states, parameters));
    const final = mergedInto(merges);
    const clusters: IssuesCluster[] = states.map((state, i) =>
      i < live.length
        ? live[i]
        : {
            id: this.ids.next(),
            organizationId,
            label: '',
            summary: '',
            icon: 'circle-question',
            centroid: {},
            embedding: [],
            bestSimilarity: -Infinity,
            issuesCount: 0,
            lastIssueAt: null,
            createdAt: now,
            updatedAt: now,
          },
    );
    const issues: ConversationIssue[] = batch.map((conversation, k) => {
      const at = final(assigned[k]);
      const cluster = clusters[at];
      // The label: the words of the issue closest to its cluster's centroid.
      const similarity = similarityTo(points[k], states[at], parameters);
      if (similarity > cluster.bestSimilarity)
        Object.assign(cluster, { label: extracted[k].title, summary: extracted[k].summary, bestSimilarity: similarity });
      cluster.lastIssueAt =
        !cluster.lastIssueAt || conversation.createdAt > cluster.lastIssueAt ? conversation.createdAt : cluster.lastIssueAt;
      cluster.updatedAt = now;
      return {
        id: issueIds.get(conversation.id) ?? this.ids.next(),
        organizationId,
        conversationId: conversation.id,
        clusterId: cluster.id,
        title: extracted[k].title,
        summary: extracted[k].summary,
        source: conversation.source,
        vector: points[k].vector,
        embedding: points[k].embedding,
        createdAt: conversation.createdAt,
        ingestedAt: conversation.ingestedAt,
      };
    });
    const gone = new Set(merges.map(([from]) => from));
    const moved: [string, string][] = merges
      .filter(([from]) => from < live.length)
      .map(([from]) => [clusters[from].id, clusters[final(from)].id]);
    const kept: IssuesCluster[] = [];
    states.forEach((state, i) => {
      if (gone.has(i) || state.issuesCount <= 0) return;
      const c = clusters[i];
      Object.assign(c, { centroid: state.centroid, embedding: state.embedding, issuesCount: state.issuesCount });
      // A merged-into cluster takes the newest issue date of what it absorbed.
      for (const [from, into] of merges)
        if (final(into) === i && clusters[from].lastIssueAt && (!c.lastIssueAt || clusters[from].lastIssueAt > c.lastIssueAt))
          c.lastIssueAt = clusters[from].lastIssueAt;
      if (c.bestSimilarity === -Infinity) c.bestSimilarity = 0;
      c.icon = iconFor(c.centroid);
      c.updatedAt = now;
      kept.push(c);
    });
    return {
      clusters: kept,
      issues,
      moved,
      gone: [...gone].filter((i) => i < live.length).map((i) => clusters[i].id),
    };
  }
}

/** With word vectors (an issue's or a cluster's embedding), `CLUSTERING`; without, term overlap alone. */
function parametersFor(points: IssuePoint[], live: { embedding: number[] }[]) {
  return points.some((p) => p.embedding.length) || live.some((c) => c.embedding.length) ? CLUSTERING : TERMS_ONLY;
}
