import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, listEnvelope, ListOf, RequestLinks } from '@app/http-kit';
import { AuditLog } from '../application/audit-log.service';
import {
  AuditEventActionsDto,
  AuditEventDetailsDto,
  AuditEventDto,
  AuditEventsQueryDto,
  toActionDto,
  toAuditEventDetailsDto,
  toAuditEventDto,
} from './audit.dto';

/** The audit log of an organization (official operations; organization admins). */
@ApiTags('organizations')
@ApiStandardErrors()
@Controller('orgs/:organizationId')
export class AuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get('audit-event-actions')
  @ApiOperation({
    operationId: 'listOrganizationAuditEventActions',
    summary: 'The actions the audit log records, with their labels (admins)',
  })
  @ApiOkResponse({ type: AuditEventActionsDto })
  async actions(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string): Promise<AuditEventActionsDto> {
    return { items: (await this.audit.actions(actor, organizationId)).map(toActionDto) };
  }

  @Get('audit-events')
  @ApiOperation({
    operationId: 'listOrganizationAuditEvents',
    summary: 'Who did what: the recorded writes of the organization, newest first (admins)',
  })
  @ApiOkResponse({ type: ListOf(AuditEventDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: AuditEventsQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.audit.list(actor, organizationId, q.toFilter(), q.toPageRequest());
    return listEnvelope(page, (e) => toAuditEventDto(e, links));
  }

  @Get('audit-events/:auditEventId')
  @ApiOperation({ operationId: 'getOrganizationAuditEvent', summary: 'One recorded write with its details (admins)' })
  @ApiOkResponse({ type: AuditEventDetailsDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('auditEventId') auditEventId: string,
    @RequestLinks() links: Links,
  ): Promise<AuditEventDetailsDto> {
    return toAuditEventDetailsDto(await this.audit.get(actor, organizationId, auditEventId), links);
  }
}
