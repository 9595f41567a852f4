import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { InvalidInputError } from '@app/shared-kernel';
import { ApiStandardErrors, Links, Public, RequestLinks } from '@app/http-kit';
import { CLAIMS_JSON_MAX } from '../application/published-sites.service';
import { PublishedLookup, PublishedUrls } from '../application/published-urls';
import { PublishedContentRedirectDto, PublishedSiteContentDto, PublishedUrlQueryDto, ResolvePublishedUrlDto } from './published-urls.dto';

const LOOKUP = { oneOf: [{ $ref: getSchemaPath(PublishedContentRedirectDto) }, { $ref: getSchemaPath(PublishedSiteContentDto) }] };

/**
 * The official resolvePublishedContentByUrl and getPublishedContentByUrl: a URL of a published site read back as
 * its visitor reads it (PublishedUrls). Anyone may ask, as anyone may open the URL: what the answer says and what
 * its `apiToken` reads is what the site shows that visitor, no more; a site it would not show answers 404.
 */
@ApiTags('urls')
@ApiStandardErrors()
@ApiExtraModels(PublishedSiteContentDto, PublishedContentRedirectDto)
@Public()
@Controller('urls/published')
export class PublishedUrlsController {
  constructor(private readonly urls: PublishedUrls) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resolvePublishedContentByUrl',
    summary: 'Resolve a URL of a published content.',
    description:
      'A URL of a published site (at Quire’s own origin, a preview link, or the site’s custom hostname) read as its visitor reads ' +
      'it: the visitor’s token and unsigned claims, and the URL’s `shareKey` and `jwt_token`, count as on the site. The answer ' +
      'names the site, section, site space, space and page path, with a short-lived `apiToken` that reads that content as this ' +
      'visitor; or a redirect (the site’s redirects, a moved page, a visitor-auth site’s sign-in with `redirectOnError`). ' +
      'No authentication needed; 404 for a URL the site would not show this visitor.',
  })
  @ApiOkResponse({ schema: LOOKUP })
  resolve(@Body() body: ResolvePublishedUrlDto, @RequestLinks() links: Links): Promise<PublishedLookup> {
    const claims = body.visitor?.unsignedClaims;
    if (claims !== undefined && JSON.stringify(claims).length > CLAIMS_JSON_MAX)
      throw new InvalidInputError(`visitor.unsignedClaims must be at most ${CLAIMS_JSON_MAX} characters of JSON`);
    return this.urls.resolve(body.url, { token: body.visitor?.jwtToken, claims }, body.redirectOnError ?? false, links.origin);
  }

  @Get()
  @ApiOperation({
    operationId: 'getPublishedContentByUrl',
    summary: 'Resolve a URL of a published content.',
    deprecated: true,
    description: 'resolvePublishedContentByUrl as a GET, with the visitor’s token as `visitorAuthToken`.',
  })
  @ApiOkResponse({ schema: LOOKUP })
  lookup(@Query() q: PublishedUrlQueryDto, @RequestLinks() links: Links): Promise<PublishedLookup> {
    return this.urls.resolve(q.url, { token: q.visitorAuthToken }, q.redirectOnError ?? false, links.origin);
  }
}
