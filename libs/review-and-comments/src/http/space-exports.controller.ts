import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, RequestLinks } from '@app/http-kit';
import { ExportsService } from '../application/exports.service';
import { PdfQueryDto, PdfUrlDto } from './change-request.dto';

/** A space's content as PDF: served by this context, which renders PDF exports (change requests' too). */
@ApiTags('space-content')
@ApiStandardErrors()
@Controller('spaces/:spaceId')
export class SpaceExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Get('pdf')
  @ApiOperation({
    operationId: 'getSpacePDF',
    summary: "A temporary URL (1 hour) of the space's content as PDF; `page` (with subpages) or `page` alone with `only`",
  })
  @ApiOkResponse({ type: PdfUrlDto })
  async pdf(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Query() q: PdfQueryDto,
    @RequestLinks() links: Links,
  ): Promise<PdfUrlDto> {
    return { url: links.api(await this.exports.spacePdf(actor, spaceId, q)) };
  }
}
