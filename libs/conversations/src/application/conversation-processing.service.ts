import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { Clock, IdGenerator, JobQueue, UnitOfWork } from '@app/shared-kernel';
import { ConversationEvents } from './conversation-events';
import {
  ConversationIssue,
  ConversationRepository,
  extractIssue,
  customerText,
  iconFor,
  IssuesCluster,
  IssueWriter,
  moveCentroid,
  nearestCluster,
  TextAnalyzer,
  tfidf,
  writtenIssue,
} from '../domain/conversation';

export const PROCESS_QUEUE = 'conversations-process';
export const SWEEP_QUEUE = 'conversations-sweep';
/** Conversations of one organization processed per transaction. */
export const CHUNK = 500;
/** Unprocessed conversations older than this are sent again by the sweep (a lost job, a process without jobs). */
export const WAITING_GRACE_MS = 60_000;

/**
 * The background job after an ingest: for every unprocessed conversation of the organization, extract
 * its issue (deterministic: subject / the customer's first sentences), vectorize it (TF-IDF over the
 * organization's issues: terms from wink-nlp, document frequencies kept in PostgreSQL), and put it in
 * the most similar cluster (cosine ≥ SIMILARITY_THRESHOLD) or a new one. One organization is processed
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
    for (const organizationId of waiting) this.request(organizationId);
    return waiting.length;
  }

  /** Processes every waiting conversation of the organization; how many were processed. */
  async processOrganization(organizationId: string): Promise<number> {
    let total = 0;
    for (;;) {
      const { processed, issues } = await this.uow.run(() => this.chunk(organizationId));
      total += processed;
      // After the commit: the extracted wording is already visible; a language model may reword it.
      if (this.writer) await this.reword(this.writer, issues);
      if (processed < CHUNK) break;
    }
    if (total > 0) this.events.publish('conversations.processed', organizationId, null, { conversations: total });
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
  ): Promise<{ processed: number; issues: { issue: ConversationIssue; subject: string; text: string }[] }> {
    await this.conversations.lockOrganization(organizationId);
    const batch = await this.conversations.unprocessed(organizationId, CHUNK);
    if (batch.length === 0) return { processed: 0, issues: [] };
    const now = this.clock.now();
    const clusters = new Map((await this.conversations.clusters(organizationId)).map((c) => [c.id, c]));
    const changed = new Set<string>();

    // A re-ingested conversation leaves its cluster first.
    const old = await this.conversations.issuesOf(
      organizationId,
      batch.map((c) => c.id),
    );
    for (const issue of old) {
      const cluster = clusters.get(issue.clusterId);
      if (!cluster) continue;
      cluster.centroid = moveCentroid(cluster.centroid, issue.vector, -1);
      cluster.issuesCount -= 1;
      changed.add(cluster.id);
    }
    await this.conversations.deleteIssues(old.map((i) => i.id));

    const extracted = [];
    for (const conversation of batch) {
      const issue = extractIssue(conversation);
      extracted.push({ conversation, ...issue, terms: await this.analyzer.terms(issue.text) });
    }
    const counts = new Map<string, number>();
    for (const e of extracted) for (const t of new Set(e.terms)) counts.set(t, (counts.get(t) ?? 0) + 1);
    await this.conversations.addDocumentFrequencies(organizationId, counts);
    const documents = await this.conversations.documentCount(organizationId);
    const df = await this.conversations.documentFrequencies(organizationId, [...counts.keys()]);

    const issues: ConversationIssue[] = [];
    for (const e of extracted) {
      const vector = tfidf(e.terms, (t) => df.get(t) ?? 1, documents);
      const live = [...clusters.values()].filter((c) => c.issuesCount > 0);
      const near = nearestCluster(vector, live);
      let cluster: IssuesCluster;
      if (near) {
        cluster = near.cluster;
        if (near.similarity > cluster.bestSimilarity)
          Object.assign(cluster, { label: e.title, summary: e.summary, bestSimilarity: near.similarity });
        cluster.centroid = moveCentroid(cluster.centroid, vector, 1);
      } else {
        cluster = {
          id: this.ids.next(),
          organizationId,
          label: e.title,
          summary: e.summary,
          icon: 'circle-question',
          centroid: vector,
          bestSimilarity: 0,
          issuesCount: 0,
          lastIssueAt: null,
          createdAt: now,
          updatedAt: now,
        };
        clusters.set(cluster.id, cluster);
      }
      cluster.issuesCount += 1;
      cluster.lastIssueAt =
        !cluster.lastIssueAt || e.conversation.createdAt > cluster.lastIssueAt ? e.conversation.createdAt : cluster.lastIssueAt;
      cluster.updatedAt = now;
      changed.add(cluster.id);
      issues.push({
        id: this.ids.next(),
        organizationId,
        conversationId: e.conversation.id,
        clusterId: cluster.id,
        title: e.title,
        summary: e.summary,
        source: e.conversation.source,
        vector,
        createdAt: e.conversation.createdAt,
        ingestedAt: e.conversation.ingestedAt,
      });
    }
    const touched = [...changed].map((id) => clusters.get(id)!);
    for (const c of touched) c.icon = iconFor(c.centroid);
    await this.conversations.saveClusters(touched.filter((c) => c.issuesCount > 0));
    await this.conversations.insertIssues(issues);
    await this.conversations.deleteClusters(touched.filter((c) => c.issuesCount <= 0).map((c) => c.id));
    await this.conversations.markProcessed(organizationId, batch, now);
    await this.conversations.bumpVersion(organizationId);
    const byConversation = new Map(batch.map((c) => [c.id, c]));
    return {
      processed: batch.length,
      issues: issues.map((issue) => {
        const c = byConversation.get(issue.conversationId)!;
        return { issue, subject: c.subject, text: customerText(c) };
      }),
    };
  }
}
