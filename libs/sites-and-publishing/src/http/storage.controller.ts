import { Body, Controller, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, Public, RequestLinks, WriteTransaction } from '@app/http-kit';
import { StorageService } from '../application/storage.service';
import { GenerateStorageUploadDto, StorageFileDto, StorageUploadUrlDto } from './storage.dto';

/**
 * Reads the request's body, refusing it as soon as it is longer than `max` bytes: the connection is then closed
 * (nothing more is read). A client that goes away mid-way is a 400, not an error of the server.
 */
function bodyOf(req: Request, res: Response, max: number): Promise<Buffer> {
  const tooLong = () => new InvalidInputError(`The upload must be exactly ${max} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    res.setHeader('Connection', 'close');
    return Promise.reject(tooLong());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= max) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      res.setHeader('Connection', 'close');
      reject(tooLong());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('aborted', () => reject(new InvalidInputError('The upload ended before its bytes did')));
    req.on('error', () => reject(new InvalidInputError('The upload ended before its bytes did')));
  });
}

/**
 * Files for sites (#50): the official `generateStorageUploadURL`, the URL it answers (Quire's: PUT the bytes),
 * and the file served at its key. Served files never run as a page of Quire's origin: a sandboxing CSP, no
 * sniffing, the type declared when the URL was made.
 */
@ApiTags('storage')
@ApiStandardErrors()
@Controller()
export class StorageController {
  constructor(private readonly storage: StorageService) {}

  @WriteTransaction()
  @Post('orgs/:organizationId/storage/upload')
  @ApiOperation({
    operationId: 'generateStorageUploadURL',
    summary: 'Create a signed URL to upload a file (a logo, an icon: organization_file; a font: customization_font); role create',
  })
  @ApiCreatedResponse({ type: StorageUploadUrlDto })
  async uploadUrl(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: GenerateStorageUploadDto,
    @RequestLinks() links: Links,
  ): Promise<StorageUploadUrlDto> {
    const { key, token } = await this.storage.uploadUrl(actor, organizationId, body);
    return { object: 'storage-signed-url', url: links.api(`/storage/uploads/${token}`), key };
  }

  @Public()
  @Put('storage/uploads/:token')
  @HttpCode(200)
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOperation({
    operationId: 'uploadStorageFile',
    summary:
      'Quire extension: the signed upload URL: the file’s bytes, with the Content-Type and size it was asked for, once, within an hour',
  })
  @ApiOkResponse({ type: StorageFileDto })
  async upload(
    @Param('token') token: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @RequestLinks() links: Links,
  ): Promise<StorageFileDto> {
    const file = await this.storage.upload(token, req.headers['content-type'], (max) => bodyOf(req, res, max));
    return {
      object: 'storage-file',
      key: file.key,
      url: links.api(`/storage/files/${file.key}`),
      contentType: file.contentType,
      size: file.size,
    };
  }

  @Public()
  @Get('storage/files/:organizationId/:id/:name')
  @ApiOperation({ operationId: 'getStorageFile', summary: 'Quire extension: an uploaded file, to anyone (a site’s logo, icon or font)' })
  @ApiOkResponse({ description: 'The file’s bytes, with its type' })
  async file(
    @Param('organizationId') organizationId: string,
    @Param('id') id: string,
    @Param('name') name: string,
    @Res() res: Response,
  ): Promise<void> {
    const { contentType, bytes } = await this.storage.read(`${organizationId}/${id}/${name}`);
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    // A font is loaded in CORS mode: a site on its own hostname may use it (the file is public anyway).
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end(bytes);
  }
}
