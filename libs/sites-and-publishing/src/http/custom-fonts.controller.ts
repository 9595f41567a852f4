import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiPreconditionFailedResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  ErrorDto,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { CustomFontsService } from '../application/custom-fonts.service';
import { CreateCustomFontDto, CustomFontDto, toCustomFontDto, UpdateCustomFontDto } from './custom-fonts.dto';

/**
 * Custom fonts (#52, the official custom-fonts operations): members read them; those who may create sites add,
 * change and delete them. A site uses one through its customization (`styling.font`: the definition answered
 * here); docs/published-sites.md, "Custom fonts".
 */
@ApiTags('custom-fonts')
@ApiStandardErrors()
@Controller('orgs/:organizationId/fonts')
export class CustomFontsController {
  constructor(private readonly fonts: CustomFontsService) {}

  @Get()
  @ApiOperation({ operationId: 'listCustomFonts', summary: 'List the organization’s custom fonts (oldest first); any member' })
  @ApiOkResponse({ type: ListOf(CustomFontDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.fonts.list(actor, organizationId, q.toPageRequest());
    return listEnvelope(page, (v) => toCustomFontDto(v, fileUrl(links)));
  }

  @WriteTransaction()
  @Put()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createCustomFont',
    summary: 'Add a font: a family and its faces, each an uploaded customization_font file; weight 400 required (412); role create',
  })
  @ApiCreatedResponse({ type: CustomFontDto })
  @ApiPreconditionFailedResponse({
    type: ErrorDto,
    description: 'No face of weight 400, or a storage key that names no uploaded font file',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateCustomFontDto,
    @RequestLinks() links: Links,
  ): Promise<CustomFontDto> {
    const view = await this.fonts.create(actor, organizationId, { fontFamily: body.fontFamily, fontFaces: body.fontFaces });
    return toCustomFontDto(view, fileUrl(links));
  }

  @Get(':fontId')
  @ApiOperation({ operationId: 'getCustomFont', summary: 'A custom font; any member' })
  @ApiOkResponse({ type: CustomFontDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fontId') fontId: string,
    @RequestLinks() links: Links,
  ): Promise<CustomFontDto> {
    return toCustomFontDto(await this.fonts.get(actor, organizationId, fontId), fileUrl(links));
  }

  @WriteTransaction()
  @Post(':fontId')
  @ApiOperation({
    operationId: 'updateCustomFont',
    summary: 'Rename a font or change its faces (a null storage key removes a weight; weight 400 stays, else 412); role create',
  })
  @ApiCreatedResponse({ type: CustomFontDto })
  @ApiPreconditionFailedResponse({
    type: ErrorDto,
    description: 'Weight 400 would be removed, or a storage key names no uploaded font file',
  })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fontId') fontId: string,
    @Body() body: UpdateCustomFontDto,
    @RequestLinks() links: Links,
  ): Promise<CustomFontDto> {
    if (body.fontFamily === undefined && body.fontFaces === undefined)
      throw new InvalidInputError('Give fontFamily or fontFaces to change');
    const view = await this.fonts.update(actor, organizationId, fontId, { fontFamily: body.fontFamily, fontFaces: body.fontFaces });
    return toCustomFontDto(view, fileUrl(links));
  }

  @WriteTransaction()
  @Delete(':fontId')
  @ApiDeleteOperation('deleteCustomFont', 'Delete a custom font (sites that show it keep its files); role create', 'The font')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('fontId') fontId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.fonts.delete(actor, organizationId, fontId));
  }
}

const fileUrl = (links: Links) => (key: string) => links.api(`/storage/files/${key}`);
