import { Body, Controller, Get, HttpCode, HttpException, Options, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Actor, InvalidInputError, pageInMemory } from '@app/shared-kernel';
import { ChangeRequestPresenter } from '@app/review-and-comments';
import {
  ApiStandardErrors,
  CurrentActor,
  listEnvelope,
  ListOf,
  Links,
  Public,
  ReadsOnly,
  RequestLinks,
  WriteTransaction,
} from '@app/http-kit';
import { SiteInsightsService, TooManyEvents } from '../application/site-insights.service';
import {
  AgentFeedbackInputDto,
  AgentFeedbackReceiptDto,
  AggregateEventsDto,
  AggregationResultDto,
  RecommendedQuestionsQueryDto,
  TopicChangeRequestDto,
  TopicDto,
  TopicsQueryDto,
  TrackEventsDto,
} from './insights.dto';

/** A site's script on a custom hostname posts from another origin: the events route answers any origin, without credentials. */
function allowAnyOrigin(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'POST');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  res.setHeader('Access-Control-Max-Age', '86400');
}

/** The client's address: only hashed (under the day's salt) and counted, never kept. */
const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';

/** Site insights, as the official API has them (docs/insights.md). */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId')
export class InsightsController {
  constructor(
    private readonly insights: SiteInsightsService,
    private readonly changeRequests: ChangeRequestPresenter,
  ) {}

  @Public()
  @Post('insights/events')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'trackEventsInSiteById',
    summary:
      'Track events on a published site (no token: the site’s own script sends them; kept without address, user agent or cookie; nothing kept under DNT or Sec-GPC)',
  })
  @ApiNoContentResponse({ description: 'The events were accepted (or, under DNT or Sec-GPC, checked and dropped)' })
  @ApiTooManyRequestsResponse({ description: 'More events than QUIRE_INSIGHTS_EVENTS_PER_MINUTE from this address' })
  async track(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: TrackEventsDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    allowAnyOrigin(res);
    res.setHeader('Cache-Control', 'no-store');
    const optedOut = req.get('dnt') === '1' || req.get('sec-gpc') === '1';
    try {
      await this.insights.track(organizationId, siteId, body, { ip: addressOf(req), optedOut });
    } catch (e) {
      if (!(e instanceof TooManyEvents)) throw e;
      res.setHeader('Retry-After', String(e.retryAfterSeconds));
      throw new HttpException(e.message, 429);
    }
  }

  /** The preflight of a cross-origin POST of events. */
  @Public()
  @Options('insights/events')
  @HttpCode(204)
  @ApiExcludeEndpoint()
  preflight(@Res({ passthrough: true }) res: Response): void {
    allowAnyOrigin(res);
  }

  @ReadsOnly()
  @Post('insights/events/aggregate')
  @HttpCode(200)
  @ApiOperation({ operationId: 'aggregateSiteEvents', summary: 'Count the site’s events, grouped and filtered (role read on the site)' })
  @ApiOkResponse({ type: AggregationResultDto })
  async aggregate(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AggregateEventsDto,
  ): Promise<AggregationResultDto> {
    return { columns: await this.insights.aggregate(actor, organizationId, siteId, body) };
  }

  @WriteTransaction()
  @Post('agents/feedback')
  @ApiOperation({
    operationId: 'submitAgentFeedbackToSite',
    summary: 'An AI agent’s feedback on the site, a tool or a page (role read on the site; counted as an agent_feedback event)',
  })
  @ApiBody({ type: AgentFeedbackInputDto })
  @ApiCreatedResponse({ type: AgentFeedbackReceiptDto })
  async agentFeedback(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AgentFeedbackInputDto,
    @Req() req: Request,
    @RequestLinks() links: Links,
  ): Promise<AgentFeedbackReceiptDto> {
    return this.insights.memberAgentFeedback(actor, organizationId, siteId, body, {
      url: links.api(`/orgs/${organizationId}/sites/${siteId}/agents/feedback`),
      ip: addressOf(req),
      userAgent: req.get('user-agent') ?? '',
    });
  }

  /**
   * The official streamRecommendedQuestionsInSite, as server-sent events: a `data: { "question" }` event for each
   * question visitors asked most in the last 30 days and got an answer to (at most 5; none when nobody has
   * yet), then `event: done`. No language model is needed: these are the site's own visitors' questions.
   */
  @Get('ask/questions')
  @ApiOperation({
    operationId: 'streamRecommendedQuestionsInSite',
    summary: 'List recommended questions to ask in a site',
    description: 'The response is streamed (server-sent events): the questions visitors asked most and got an answer to.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'A `data:` event `{ "question": string }` per question, then `event: done`', schema: { type: 'string' } })
  async recommendedQuestions(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: RecommendedQuestionsQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    if (q.siteSpaceId !== undefined && q.spaceId !== undefined)
      throw new InvalidInputError('Give siteSpaceId or spaceId (deprecated), not both');
    const questions = await this.insights.recommendedQuestions(actor, organizationId, siteId, {
      siteSpace: q.siteSpaceId,
      space: q.spaceId,
    });
    res.status(200).setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(questions.map((question) => `data: ${JSON.stringify({ question })}\n\n`).join('') + 'event: done\ndata: {}\n\n');
  }

  @Get('insights/topics')
  @ApiOperation({
    operationId: 'listSiteInsightsTopics',
    summary:
      'What visitors looked for and did not find (searches with no result, questions), grouped into topics, the largest first (role read on the site; a Quire extension)',
  })
  @ApiOkResponse({ type: ListOf(TopicDto) })
  @ApiServiceUnavailableResponse({ description: 'The topics worker ended while it computed them (docs/insights.md): try again' })
  async topics(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: TopicsQueryDto,
  ) {
    const topics = await this.insights.topics(actor, organizationId, siteId, q.range ?? 'last30Days');
    // Largest first: the position is the key.
    const keyed = topics.map((topic, i) => ({ topic, key: String(i).padStart(6, '0') }));
    return listEnvelope(
      pageInMemory(keyed, (k) => k.key, q.toPageRequest()),
      ({ topic }): TopicDto => ({ object: 'site-insights-topic', ...topic }),
    );
  }

  @WriteTransaction()
  @Post('insights/topics/:topicId/change-requests')
  @ApiOperation({
    operationId: 'createChangeRequestFromSiteInsightsTopic',
    summary:
      'Open a change request on a space from a topic: its label as the subject, its queries as the description (role read on the site, edit on the space; a Quire extension)',
  })
  @ApiCreatedResponse({
    description: 'The change request (the official ChangeRequest)',
    schema: { $ref: '#/components/schemas/ChangeRequestDto' },
  })
  @ApiServiceUnavailableResponse({ description: 'The topics worker ended while it computed them (docs/insights.md): try again' })
  async topicChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('topicId') topicId: string,
    @Body() body: TopicChangeRequestDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.insights.topicChangeRequest(actor, organizationId, siteId, topicId, body.spaceId, body.range ?? 'last30Days');
    const dto = await this.changeRequests.dto(view, links);
    res.setHeader('Location', dto.urls.location);
    return dto;
  }
}
