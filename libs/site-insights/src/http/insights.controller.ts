import { Body, Controller, HttpCode, HttpException, Options, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, Public, ReadsOnly, RequestLinks, WriteTransaction } from '@app/http-kit';
import { SiteInsightsService, TooManyEvents } from '../application/site-insights.service';
import { AgentFeedbackInputDto, AgentFeedbackReceiptDto, AggregateEventsDto, AggregationResultDto, TrackEventsDto } from './insights.dto';

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
  constructor(private readonly insights: SiteInsightsService) {}

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
}
