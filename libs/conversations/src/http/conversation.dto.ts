import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsISO8601, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { Links, ListQueryDto, Optional } from '@app/http-kit';
import { CLUSTER_ORDER_BY, CLUSTER_STATUSES, ClusterOrderBy, ClusterStatus } from '../domain/cluster-list';
import { Conversation, ConversationIssue, LIMITS } from '../domain/conversation';
import type { ClusterView } from '../application/conversations.service';

// ---------------------------------------------------------------------------------------------
// Requests

export class ConversationPartDto {
  /** e.g. `message` */
  @IsString() @MaxLength(LIMITS.partType) type: string;
  /** e.g. `user` (the customer: `user`, `customer` or `contact`), `agent`, `bot` */
  @IsString() @MaxLength(LIMITS.partType) role: string;
  @IsString() @MaxLength(LIMITS.body) body: string;
}

export class ConversationMetadataDto {
  @Optional() @IsString() @MaxLength(LIMITS.url) url?: string;
  /** String values; `source` names where the conversation comes from (else the URL's host, else `api`) */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) @Optional() @IsObject() attributes?: Record<
    string,
    string
  >;
  @Optional() @IsISO8601({ strict: true }) createdAt?: string;
}

export class ConversationInputDto {
  /** Your id of the conversation: ingesting it again replaces it */
  @IsString() @MaxLength(LIMITS.id) id: string;
  @Optional() @ValidateNested() @Type(() => ConversationMetadataDto) @IsObject() metadata?: ConversationMetadataDto;
  @Optional() @IsString() @MaxLength(LIMITS.subject) subject?: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.parts)
  @ValidateNested({ each: true })
  @Type(() => ConversationPartDto)
  parts: ConversationPartDto[];
}

/**
 * One conversation (`id`, `metadata`, `subject`, `parts`) or, as the second variant, a batch:
 * `{conversations: [ … up to 500 … ]}`.
 */
export class IngestConversationsDto {
  @Optional() @IsString() @MaxLength(LIMITS.id) id?: string;
  @Optional() @ValidateNested() @Type(() => ConversationMetadataDto) @IsObject() metadata?: ConversationMetadataDto;
  @Optional() @IsString() @MaxLength(LIMITS.subject) subject?: string;
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.parts)
  @ValidateNested({ each: true })
  @Type(() => ConversationPartDto)
  parts?: ConversationPartDto[];
  /** The batch variant */
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.batch)
  @ValidateNested({ each: true })
  @Type(() => ConversationInputDto)
  conversations?: ConversationInputDto[];
}

export class ListConversationsQueryDto extends ListQueryDto {
  /** Only conversations from this source */
  @Optional() @IsString() @MaxLength(100) source?: string;
}

export class ListIssuesQueryDto extends ListQueryDto {
  /** Only the issues of this cluster */
  @Optional() @IsString() @MaxLength(200) cluster?: string;
  /** Only the issues of this conversation */
  @Optional() @IsString() @MaxLength(LIMITS.id) conversation?: string;
}

export class ListClustersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' }) @Optional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
  @ApiPropertyOptional({ enum: CLUSTER_ORDER_BY, default: 'updatedAt' }) @Optional() @IsIn(CLUSTER_ORDER_BY) orderBy?: ClusterOrderBy;
  /** `active`: an issue in the last 28 days; `inactive`: none */
  @ApiPropertyOptional({ enum: CLUSTER_STATUSES })
  @Optional()
  @IsIn(CLUSTER_STATUSES)
  status?: ClusterStatus;
}

// ---------------------------------------------------------------------------------------------
// Responses

export class ConversationUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  /** The conversation in its source (`metadata.url`) */
  @ApiPropertyOptional({ format: 'uri' }) source?: string;
}

export class ConversationDto {
  @ApiProperty({ enum: ['conversation'] }) object: 'conversation';
  id: string;
  subject: string;
  createdAt: string;
  /** When its issue was extracted (absent while it waits) */
  processedAt?: string;
  source: string;
  urls: ConversationUrlsDto;
}

export class ConversationMetadataOutDto {
  url?: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) attributes: Record<string, string>;
  createdAt: string;
}

export class ConversationWithPartsDto {
  conversation: ConversationDto;
  @ApiProperty({ type: [ConversationPartDto] }) parts: ConversationPartDto[];
  metadata: ConversationMetadataOutDto;
}

export class LocationDto {
  @ApiProperty({ format: 'uri' }) location: string;
}

export class ConversationIssueDto {
  @ApiProperty({ enum: ['conversation-issue'] }) object: 'conversation-issue';
  id: string;
  title: string;
  summary: string;
  createdAt: string;
  ingestedAt: string;
  /** Id of the conversation */
  conversation: string;
  /** Id of its cluster */
  cluster: string;
  urls: LocationDto;
}

export class IssueWithConversationDto {
  issue: ConversationIssueDto;
  conversation: ConversationDto;
}

export class ClusterStatsDto {
  issues: number;
  conversations: number;
  /** Change requests linked to the cluster (`conversationsIssuesCluster`): all, draft (backlog), open (started), merged (completed), archived (cancelled) */
  tasksTotal: number;
  tasksBacklog: number;
  tasksStarted: number;
  tasksCompleted: number;
  tasksCancelled: number;
}

export class ClusterUrlsDto {
  /** The cluster's issues in this API */
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
}

export class IssuesClusterDto {
  @ApiProperty({ enum: ['issues-cluster'] }) object: 'issues-cluster';
  id: string;
  label: string;
  createdAt: string;
  updatedAt: string;
  /** Icon name (≤ 50) */
  icon: string;
  summary: string;
  /** Exactly 13 weekly counts of issues, oldest first, the last week ending now */
  @ApiProperty({ type: [Number], minItems: 13, maxItems: 13 }) weeklyPulse: number[];
  /** Issues per source */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } }) sources: Record<string, number>;
  stats: ClusterStatsDto;
  urls: ClusterUrlsDto;
}

export function toConversationDto(c: Conversation, links: Links): ConversationDto {
  const dto: ConversationDto = {
    object: 'conversation',
    id: c.id,
    subject: c.subject,
    createdAt: c.createdAt.toISOString(),
    source: c.source,
    urls: { location: links.api(`/orgs/${c.organizationId}/conversations/${encodeURIComponent(c.id)}`) },
  };
  if (c.processedAt) dto.processedAt = c.processedAt.toISOString();
  if (c.url) dto.urls.source = c.url;
  return dto;
}

export function toConversationWithParts(c: Conversation, links: Links): ConversationWithPartsDto {
  const metadata: ConversationMetadataOutDto = { attributes: c.attributes, createdAt: c.createdAt.toISOString() };
  if (c.url) metadata.url = c.url;
  return { conversation: toConversationDto(c, links), parts: c.parts, metadata };
}

export function toIssueDto(i: ConversationIssue, links: Links): ConversationIssueDto {
  return {
    object: 'conversation-issue',
    id: i.id,
    title: i.title,
    summary: i.summary,
    createdAt: i.createdAt.toISOString(),
    ingestedAt: i.ingestedAt.toISOString(),
    conversation: i.conversationId,
    cluster: i.clusterId,
    urls: { location: links.api(`/orgs/${i.organizationId}/conversations-issues/${i.id}`) },
  };
}

export function toClusterDto(v: ClusterView, links: Links): IssuesClusterDto {
  const c = v.cluster;
  return {
    object: 'issues-cluster',
    id: c.id,
    label: c.label,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    icon: c.icon,
    summary: c.summary,
    weeklyPulse: v.weeklyPulse,
    sources: v.sources,
    stats: {
      issues: c.issuesCount,
      conversations: v.conversations,
      tasksTotal: v.tasks.backlog + v.tasks.started + v.tasks.completed + v.tasks.cancelled,
      tasksBacklog: v.tasks.backlog,
      tasksStarted: v.tasks.started,
      tasksCompleted: v.tasks.completed,
      tasksCancelled: v.tasks.cancelled,
    },
    urls: {
      location: links.api(`/orgs/${c.organizationId}/conversations-issues?cluster=${c.id}`),
      app: links.app(`/o/${c.organizationId}/insights/clusters/${c.id}`),
    },
  };
}
