import { Body, Controller, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, listEnvelope, ListOf, ListQueryDto, Links, ReadsOnly, RequestLinks } from '@app/http-kit';
import { ContentSearch, SearchSpaceDto, spaceResult } from '@app/spaces-and-content';
import { SitesService } from '../application/sites.service';
import { markdownToDocument } from '@app/content-model';
import { SiteApiAnswers } from '../application/site-api-answers';
import { SiteAskDto, SiteAskQueryDto, SiteContentSearchDto } from './site-content-search.dto';

@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteContentSearchController {
  constructor(
    private readonly sites: SitesService,
    private readonly search: ContentSearch,
    private readonly answers: SiteApiAnswers,
  ) {}

  /**
   * The official searchSiteContent: the full-text search of the spaces the site shows (their current content,
   * as the published site shows it), in the scope asked, among those the caller may read; members with the
   * site's read role.
   */
  @ReadsOnly()
  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchSiteContent',
    summary: 'Full-text search across all content in a site',
    description:
      'Searches the spaces the site shows, in `scope`: `default` (each section’s default site space, and `currentSiteSpace`), ' +
      '`specific` (the site spaces listed) or `all`. Without a scope (or a deprecated `mode`), the default scope. ' +
      'Results are grouped by space, best first.',
  })
  @ApiOkResponse({ type: ListOf(SearchSpaceDto) })
  async searchSite(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() list: ListQueryDto,
    @Body() body: SiteContentSearchDto,
    @RequestLinks() links: Links,
  ) {
    const spaces = await this.sites.searchedSpaces(actor, organizationId, siteId, body);
    const page = await this.search.inSpaces(actor, organizationId, spaces, body.query, list.toPageRequest());
    return listEnvelope(page, (s) => spaceResult(s, links));
  }

  /**
   * The official streamAskInSite: the question answered from the pages the site's search finds for it in the
   * scope asked (among the spaces the caller may read), as server-sent events — one `answer` event, the model's
   * answer citing its pages. Without a language model configured, the answer says so (as `~ask` does) and lists
   * the pages that match; nothing is invented.
   */
  @ReadsOnly()
  @Post('ask')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'streamAskInSite',
    summary: 'Ask a question in a site',
    description: 'The response is streamed (server-sent events).',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'One `data:` event `{ "type": "answer", "answer": SearchAIAnswer }`', schema: { type: 'string' } })
  async ask(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: SiteAskQueryDto,
    @Body() body: SiteAskDto,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.answers.ask(actor, organizationId, siteId, body.question, { scope: body.scope });
    if (result.failed) return void res.status(502).json({ error: { code: 502, message: result.message } });
    const text = result.answer ?? result.message ?? '';
    const answer = {
      answer: q.format === 'markdown' ? { markdown: text } : { document: markdownToDocument(text).document },
      followupQuestions: [],
      sources: result.sources.map((s) => ({ type: 'page', page: s.page, revision: s.revision, space: s.space, sections: [] })),
    };
    res.status(200).setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    // The answer, then `done` (the official client stops at it).
    res.end(`data: ${JSON.stringify({ type: 'answer', answer })}\n\nevent: done\ndata: {}\n\n`);
  }
}
