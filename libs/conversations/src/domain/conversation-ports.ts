import { Page, PageRequest } from '@app/shared-kernel';
import { ClusterFacts, ClusterOrderBy, ClusterStatus } from './cluster-list';
import { ClusteringState, IssuePoint } from './clustering';
import { Conversation, ConversationIssue, Counted, IssuesCluster } from './conversation';

/** The ports of the conversations context: its repository and its clustering tasks. */

export abstract class ConversationRepository {
  /** Inserts or replaces conversations (by organization and id); a replaced one waits to be processed again. */
  abstract upsert(conversations: Conversation[]): Promise<void>;
  abstract find(organizationId: string, id: string): Promise<Conversation | null>;
  abstract list(organizationId: string, source: string | undefined, page: PageRequest): Promise<Page<Conversation>>;
  abstract findMany(organizationId: string, ids: string[]): Promise<Conversation[]>;
  /** Unprocessed conversations of the organization, oldest ingest first. */
  abstract unprocessed(organizationId: string, limit: number): Promise<Conversation[]>;
  /** Every conversation of the organization, in ingest order (re-clustering). */
  abstract everyConversation(organizationId: string): Promise<Conversation[]>;
  /** Replaces the organization's document frequencies (re-clustering). */
  abstract replaceDocumentFrequencies(organizationId: string, counts: Map<string, number>): Promise<void>;
  /** Organizations with conversations waiting since before `before`. */
  abstract waitingOrganizations(before: Date): Promise<string[]>;
  /** Serializes processing of one organization (inside a unit of work). */
  abstract lockOrganization(organizationId: string): Promise<void>;
  /** Marks these contents processed (a conversation re-ingested since it was read stays waiting). */
  abstract markProcessed(
    organizationId: string,
    conversations: { id: string; ingestedAt: Date; counted?: Counted }[],
    at: Date,
  ): Promise<void>;

  /** How many of the organization's conversations are processed (their terms counted in the document frequencies). */
  abstract processedCount(organizationId: string): Promise<number>;
  abstract documentFrequencies(organizationId: string, terms: string[]): Promise<Map<string, number>>;
  abstract addDocumentFrequencies(organizationId: string, counts: Map<string, number>): Promise<void>;
  /** Adds raw embeddings to the organization's sum and answers the sum and count after (their mean is centered away). */
  abstract addEmbeddings(
    organizationId: string,
    sum: number[],
    count: number,
    algorithm: number,
  ): Promise<{ sum: number[]; count: number }>;
  /** Moves every issue of one cluster into another (a merge). */
  abstract moveIssues(fromClusterId: string, toClusterId: string): Promise<void>;
  /** Every issue of an organization (re-clustering). */
  abstract allIssues(organizationId: string): Promise<ConversationIssue[]>;
  /** The points of an organization's latest `limit` issues, oldest first, as they were clustered (`widen` reads them). */
  abstract issuePoints(organizationId: string, limit: number): Promise<IssuePoint[]>;
  /**
   * Replaces an organization's issues, clusters and embedding sum at once (re-clustering, in one transaction), and
   * records the algorithm and how many conversations this full clustering read.
   */
  abstract replaceClustering(
    organizationId: string,
    clusters: IssuesCluster[],
    issues: ConversationIssue[],
    sums: { sum: number[]; count: number },
    full: ClusteringState,
  ): Promise<void>;
  /** The algorithm and size of the organization's last full clustering (0 and 0: none). */
  abstract clusteringOf(organizationId: string): Promise<ClusteringState>;
  /** Records that the organization's clusters were made from scratch from `clustered` conversations (its first batch). */
  abstract recordFullClustering(organizationId: string, clustered: number, at: Date): Promise<void>;
  /** Organizations a daily full clustering is due for (`reclusterDue`): clustered in full before `before`, grown since. */
  abstract organizationsToRefresh(before: Date): Promise<string[]>;
  /** How many conversations the organization has, processed or waiting. */
  abstract countConversations(organizationId: string): Promise<number>;
  /** Organizations whose clusters an older algorithm made. */
  abstract organizationsBefore(algorithm: number): Promise<string[]>;

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
