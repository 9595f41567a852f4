import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, listEnvelope, ListOf, RequestLinks, WriteTransaction } from '@app/http-kit';
import { ConversationsService } from '../application/conversations.service';
import { RenderedClusters } from './rendered-clusters';
import type { ConversationInput } from '../domain/conversation';
import {
  ConversationDto,
  ConversationWithPartsDto,
  IngestConversationsDto,
  IssuesClusterDto,
  IssueWithConversationDto,
  ListClustersQueryDto,
  ListConversationsQueryDto,
  ListIssuesQueryDto,
  toClusterDto,
  toConversationDto,
  toConversationWithParts,
  toIssueDto,
} from './conversation.dto';

/** Support conversations, the issues extracted from them and their clusters (spec part 1 §4.9). */
@ApiTags('conversations')
@ApiStandardErrors()
@Controller('orgs/:organizationId')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly cache: RenderedClusters,
  ) {}

  @WriteTransaction()
  @Post('conversations')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'ingestConversation',
    summary: 'Ingest a conversation, or a batch of up to 500 (`{conversations: [...]}`); an id ingested again is replaced (admin)',
  })
  @ApiNoContentResponse({ description: 'Stored; issues are extracted and clustered in the background' })
  async ingest(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: IngestConversationsDto,
  ): Promise<void> {
    const single = body.id !== undefined || body.parts !== undefined || body.subject !== undefined || body.metadata !== undefined;
    if (body.conversations !== undefined && single) throw new InvalidInputError('Give one conversation or `conversations`, not both');
    let inputs: ConversationInput[];
    if (body.conversations !== undefined) inputs = body.conversations;
    else {
      if (body.id === undefined || body.parts === undefined) throw new InvalidInputError('A conversation needs `id` and `parts`');
      inputs = [{ id: body.id, subject: body.subject, metadata: body.metadata, parts: body.parts }];
    }
    await this.conversations.ingest(actor, organizationId, inputs);
  }

  @Get('conversations')
  @ApiOperation({ operationId: 'listConversations', summary: 'List the ingested conversations, newest first' })
  @ApiOkResponse({ type: ListOf(ConversationDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListConversationsQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.conversations.list(actor, organizationId, q.source, q.toPageRequest());
    return listEnvelope(page, (c) => toConversationDto(c, links));
  }

  @Get('conversations/:conversationId')
  @ApiOperation({ operationId: 'getConversation', summary: 'A conversation with its parts and metadata' })
  @ApiOkResponse({ type: ConversationWithPartsDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('conversationId') conversationId: string,
    @RequestLinks() links: Links,
  ): Promise<ConversationWithPartsDto> {
    return toConversationWithParts(await this.conversations.get(actor, organizationId, conversationId), links);
  }

  @Get('conversations-issues')
  @ApiOperation({ operationId: 'listConversationsIssues', summary: 'List the issues extracted from conversations, newest first' })
  @ApiOkResponse({ type: ListOf(IssueWithConversationDto) })
  async issues(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListIssuesQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.conversations.issues(
      actor,
      organizationId,
      { cluster: q.cluster, conversation: q.conversation },
      q.toPageRequest(),
    );
    return listEnvelope(page, (v) => ({ issue: toIssueDto(v.issue, links), conversation: toConversationDto(v.conversation, links) }));
  }

  @Get('conversations-issues/:issueId')
  @ApiOperation({ operationId: 'getConversationsIssue', summary: 'An issue with its conversation' })
  @ApiOkResponse({ type: IssueWithConversationDto })
  async issue(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('issueId') issueId: string,
    @RequestLinks() links: Links,
  ): Promise<IssueWithConversationDto> {
    const v = await this.conversations.issue(actor, organizationId, issueId);
    return { issue: toIssueDto(v.issue, links), conversation: toConversationDto(v.conversation, links) };
  }

  @Get('conversations-clusters')
  @ApiOperation({
    operationId: 'listConversationsIssuesClusters',
    summary: 'List the issue clusters (orderBy updatedAt | createdAt | issues; status active | inactive)',
  })
  @ApiOkResponse({ type: ListOf(IssuesClusterDto) })
  async clusters(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListClustersQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    const query = { orderBy: q.orderBy ?? 'updatedAt', order: q.order ?? 'desc', status: q.status } as const;
    const key = [
      await this.conversations.clustersKey(actor, organizationId),
      query.orderBy,
      query.order,
      query.status,
      q.page,
      q.limit,
      links.origin,
    ];
    const body = await this.cache.get(key.join(' '), async () =>
      listEnvelope(await this.conversations.clusters(actor, organizationId, query, q.toPageRequest()), (v) => toClusterDto(v, links)),
    );
    res.type('application/json').send(body);
  }
}
