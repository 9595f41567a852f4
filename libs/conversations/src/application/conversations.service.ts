import { Injectable } from '@nestjs/common';
import { Actor, Clock, InvalidInputError, NotFoundError, Page, PageRequest, Role, UnitOfWork } from '@app/shared-kernel';
import { ACTIVE_DAYS, ClusterOrderBy, ClusterStatus, weeklyPulse } from '../domain/cluster-list';
import { checkConversation, Conversation, ConversationInput, ConversationIssue, IssuesCluster, LIMITS } from '../domain/conversation';
import { ClusterTaskCounts, ClusterTasks, ConversationRepository } from '../domain/conversation-ports';
import { ConversationProcessing } from './conversation-processing.service';
import { Access } from '@app/access';

/** Ingesting needs the admin role (the organization's `ingestConversations`); reading needs membership. */
export const CONVERSATION_ROLES = { read: 'read', ingest: 'admin' } as const satisfies Record<string, Role>;

export interface ClusterView {
  cluster: IssuesCluster;
  weeklyPulse: number[];
  sources: Record<string, number>;
  conversations: number;
  tasks: ClusterTaskCounts;
}

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly access: Access,
    private readonly processing: ConversationProcessing,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly tasks: ClusterTasks,
  ) {}

  /** One conversation or a batch (≤ 500): inserted, or replaced by id; processed in the background. */
  async ingest(actor: Actor, organizationId: string, inputs: ConversationInput[]): Promise<number> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.ingest);
    if (inputs.length === 0 || inputs.length > LIMITS.batch) throw new InvalidInputError(`conversations: 1 to ${LIMITS.batch} per request`);
    const now = this.clock.now();
    const seen = new Set<string>();
    const checked: Conversation[] = inputs.map((input, i) => {
      const c = checkConversation(input, now, inputs.length > 1 ? `conversations[${i}]` : 'conversation');
      if (seen.has(c.id)) throw new InvalidInputError(`conversations[${i}].id "${c.id}" appears twice in the batch`);
      seen.add(c.id);
      return { ...c, organizationId, ingestedAt: now, processedAt: null };
    });
    await this.uow.run(async () => {
      await this.conversations.upsert(checked);
      this.processing.request(organizationId);
    });
    return checked.length;
  }

  async list(actor: Actor, organizationId: string, source: string | undefined, page: PageRequest): Promise<Page<Conversation>> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.read);
    return this.conversations.list(organizationId, source, page);
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<Conversation> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.read);
    const found = await this.conversations.find(organizationId, id);
    if (!found) throw new NotFoundError('Conversation', id);
    return found;
  }

  async issues(
    actor: Actor,
    organizationId: string,
    filter: { cluster?: string; conversation?: string },
    page: PageRequest,
  ): Promise<Page<{ issue: ConversationIssue; conversation: Conversation }>> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.read);
    const result = await this.conversations.listIssues(organizationId, filter, page);
    return { ...result, items: await this.withConversations(organizationId, result.items) };
  }

  async issue(actor: Actor, organizationId: string, id: string): Promise<{ issue: ConversationIssue; conversation: Conversation }> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.read);
    const issue = await this.conversations.findIssue(organizationId, id);
    if (!issue) throw new NotFoundError('Conversation issue', id);
    return (await this.withConversations(organizationId, [issue]))[0];
  }

  async clusters(
    actor: Actor,
    organizationId: string,
    q: { orderBy: ClusterOrderBy; order: 'asc' | 'desc'; status?: ClusterStatus },
    page: PageRequest,
  ): Promise<Page<ClusterView>> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.read);
    const now = this.clock.now();
    const result = await this.conversations.listClusters(
      organizationId,
      { ...q, activeSince: new Date(now.getTime() - ACTIVE_DAYS * DAY_MS) },
      page,
    );
    const ids = result.items.map((c) => c.id);
    const facts = await this.conversations.clusterFacts(ids, new Date(now.getTime() - 13 * 7 * DAY_MS));
    const tasks = await this.tasks.counts(organizationId, ids);
    const none: ClusterTaskCounts = { backlog: 0, started: 0, completed: 0, cancelled: 0 };
    return {
      ...result,
      items: result.items.map((cluster) => {
        const f = facts.get(cluster.id)!;
        return {
          cluster,
          weeklyPulse: weeklyPulse(f.pulseDates, now),
          sources: f.sources,
          conversations: f.conversations,
          tasks: tasks.get(cluster.id) ?? none,
        };
      }),
    };
  }

  /** Whether the organization has this issues cluster (a change request links to it). */
  async clusterExists(organizationId: string, clusterId: string): Promise<boolean> {
    return (await this.conversations.findCluster(organizationId, clusterId)) !== null;
  }

  /** What a cached cluster list depends on: the organization's version and the minute (pulse and status follow the clock). */
  async clustersKey(actor: Actor, organizationId: string): Promise<string> {
    await this.access.require(organizationId, actor, CONVERSATION_ROLES.read);
    const minute = Math.floor(this.clock.now().getTime() / 60_000);
    return `${organizationId} ${await this.conversations.version(organizationId)} ${minute}`;
  }

  private async withConversations(organizationId: string, issues: ConversationIssue[]) {
    const conversations = new Map(
      (
        await this.conversations.findMany(
          organizationId,
          issues.map((i) => i.conversationId),
        )
      ).map((c) => [c.id, c]),
    );
    return issues.map((issue) => ({ issue, conversation: conversations.get(issue.conversationId)! }));
  }
}
