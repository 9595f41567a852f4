import { Controller, Delete, Get, HttpCode, Param, Patch, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import { ApiDeleteOperation, ApiStandardErrors, CurrentActor, Links, RequestLinks, setDeleteStatus, WriteTransaction } from '@app/http-kit';
import { SiteHostnames } from '../application/site-hostnames';
import { HOSTNAME_PATTERN } from '../domain/site';
import { CustomHostnameDto } from './custom-hostname.dto';

const HOSTNAME_MAX = 512;

function checkHostname(hostname: string): string {
  const h = hostname.toLowerCase();
  if (h.length > HOSTNAME_MAX || !HOSTNAME_PATTERN.test(h))
    throw new InvalidInputError('hostname must be a host name with at least three labels (docs.example.com)');
  return h;
}

/**
 * The official custom-hostname operations. A hostname is set on a site with `PATCH …/sites/{id}`
 * (`hostname`, a Quire extension); Quire then serves the site at it, routing by the Host header.
 */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('custom-hostnames/:hostname')
export class CustomHostnamesController {
  constructor(private readonly hostnames: SiteHostnames) {}

  @Get()
  @ApiOperation({ operationId: 'getCustomHostname', summary: 'Get a custom hostname: the site it serves (members of its organization)' })
  @ApiOkResponse({ type: CustomHostnameDto })
  async get(@CurrentActor() actor: Actor, @Param('hostname') hostname: string, @RequestLinks() links: Links): Promise<CustomHostnameDto> {
    const h = checkHostname(hostname);
    const site = await this.hostnames.get(actor, h);
    return {
      object: 'custom-hostname',
      hostname: h,
      target: { type: 'site', site: site.id },
      isActive: site.published,
      urls: { location: links.api(`/custom-hostnames/${h}`) },
    };
  }

  @WriteTransaction()
  @Patch()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'dnsRevalidateCustomHostname',
    summary:
      'Revalidate a custom hostname: nothing to do in Quire (DNS and TLS are the reverse proxy’s); 204 for a hostname the caller may see',
  })
  @ApiNoContentResponse({ description: 'Nothing to revalidate' })
  async revalidate(@CurrentActor() actor: Actor, @Param('hostname') hostname: string): Promise<void> {
    await this.hostnames.get(actor, checkHostname(hostname));
  }

  @WriteTransaction()
  @Delete()
  @ApiDeleteOperation('removeCustomHostname', 'Remove a custom hostname from its site (admin of the site)', 'The custom hostname')
  async remove(
    @CurrentActor() actor: Actor,
    @Param('hostname') hostname: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.hostnames.remove(actor, checkHostname(hostname)));
  }
}
