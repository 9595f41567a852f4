import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { WebhooksService } from '../application/webhooks.service';
import {
  CreateWebhookDto,
  DeliveriesQueryDto,
  toDeliveryDto,
  toWebhookDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookEventTypesDto,
  WebhookWithSecretDto,
  UpdatedWebhookDto,
} from './webhook.dto';

/** Webhooks: Quire's own API (not in GitBook v1). Organization admins; see docs/audit-and-webhooks.md. */
@ApiTags('webhooks')
@ApiStandardErrors()
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('webhook-event-types')
  @ApiOperation({ operationId: 'listWebhookEventTypes', summary: 'The event types a webhook can subscribe to' })
  @ApiOkResponse({ type: WebhookEventTypesDto })
  eventTypes(): WebhookEventTypesDto {
    return { items: [...this.webhooks.eventTypes()] };
  }

  @Get('orgs/:organizationId/webhooks')
  @ApiOperation({ operationId: 'listWebhooks', summary: 'List the webhooks of an organization (admins)' })
  @ApiOkResponse({ type: ListOf(WebhookDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return listEnvelope(await this.webhooks.list(actor, organizationId, q.toPageRequest()), (w) => toWebhookDto(w, links));
  }

  @WriteTransaction()
  @Post('orgs/:organizationId/webhooks')
  @ApiOperation({ operationId: 'createWebhook', summary: 'Create a webhook (admins); its signing secret is shown once, in this answer' })
  @ApiCreatedResponse({ type: WebhookWithSecretDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateWebhookDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookWithSecretDto> {
    const w = await this.webhooks.create(actor, organizationId, body);
    const dto = { ...toWebhookDto(w, links), secret: w.secret };
    res.location(dto.urls.location);
    return dto;
  }

  @Get('orgs/:organizationId/webhooks/:webhookId')
  @ApiOperation({ operationId: 'getWebhook', summary: 'Get a webhook (admins; without its secret)' })
  @ApiOkResponse({ type: WebhookDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @RequestLinks() links: Links,
  ): Promise<WebhookDto> {
    return toWebhookDto(await this.webhooks.get(actor, organizationId, webhookId), links);
  }

  @WriteTransaction()
  @Patch('orgs/:organizationId/webhooks/:webhookId')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Change the URL, events, description or active flag, or rotate the secret (shown once) (admins)',
  })
  @ApiOkResponse({ type: UpdatedWebhookDto, description: '`secret` only when it was rotated' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Body() body: UpdateWebhookDto,
    @RequestLinks() links: Links,
  ): Promise<UpdatedWebhookDto> {
    const w = await this.webhooks.update(actor, organizationId, webhookId, body);
    return body.rotateSecret ? { ...toWebhookDto(w, links), secret: w.secret } : toWebhookDto(w, links);
  }

  @WriteTransaction()
  @Delete('orgs/:organizationId/webhooks/:webhookId')
  @ApiDeleteOperation('deleteWebhook', 'Delete a webhook and its deliveries (admins)', 'The webhook')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, (await this.webhooks.delete(actor, organizationId, webhookId)) ? 'deleted' : 'absent');
  }

  @Get('orgs/:organizationId/webhooks/:webhookId/deliveries')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'The deliveries of a webhook, newest first (admins)' })
  @ApiOkResponse({ type: ListOf(WebhookDeliveryDto) })
  async deliveries(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Query() q: DeliveriesQueryDto,
  ) {
    const page = await this.webhooks.deliveries(actor, organizationId, webhookId, { status: q.status }, q.toPageRequest());
    return listEnvelope(page, toDeliveryDto);
  }

  @Get('orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'One delivery: status, attempts, latest answer (admins)' })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  async delivery(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return toDeliveryDto(await this.webhooks.delivery(actor, organizationId, webhookId, deliveryId));
  }

  @WriteTransaction()
  @Post('orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver')
  @ApiOperation({
    operationId: 'redeliverWebhookDelivery',
    summary: 'Send a delivered or failed event again: a new delivery with the same event id and body (admins)',
  })
  @ApiCreatedResponse({ type: WebhookDeliveryDto })
  async redeliver(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return toDeliveryDto(await this.webhooks.redeliver(actor, organizationId, webhookId, deliveryId));
  }

  @WriteTransaction()
  @Post('orgs/:organizationId/webhooks/:webhookId/ping')
  @ApiOperation({ operationId: 'pingWebhook', summary: 'Send a `ping` event to this webhook (also when inactive) (admins)' })
  @ApiCreatedResponse({ type: WebhookDeliveryDto })
  async ping(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('webhookId') webhookId: string,
  ): Promise<WebhookDeliveryDto> {
    return toDeliveryDto(await this.webhooks.ping(actor, organizationId, webhookId));
  }
}
