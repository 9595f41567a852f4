import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock, NotFoundError } from '@app/shared-kernel';
import { Public } from '@app/http-kit';
import { FilesService } from '../application/files.service';
import { DownloadQueryDto } from '@app/wire';

/** Serves file bytes for signed download URLs (public: the signature is the authorization). */
@ApiTags('files')
@Public()
@Controller('files')
export class DownloadsController {
  constructor(
    private readonly files: FilesService,
    private readonly clock: Clock,
  ) {}

  @Get(':organizationId/:hash')
  @ApiOperation({ operationId: 'downloadFile', summary: 'Download a file through a signed, expiring URL' })
  @ApiOkResponse({ description: 'The file bytes' })
  @ApiFoundResponse({ description: 'With QUIRE_FILE_DOWNLOADS=presigned on S3 storage: the presigned URL of the object' })
  async download(
    @Param('organizationId') org: string,
    @Param('hash') hash: string,
    @Query() q: DownloadQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    const found = await this.files.download(org, hash, q, this.clock.now().getTime());
    if (!found) throw new NotFoundError('File (the link is wrong or expired)');
    if ('location' in found) {
      res.setHeader('Cache-Control', 'private, no-store');
      return res.redirect(302, found.location);
    }
    res.setHeader('Content-Type', q.type);
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(q.name)}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, max-age=300');
    res.end(found.bytes);
  }
}
