import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, RequestLinks, WriteTransaction } from '@app/http-kit';
import { AgentInstructions, AgentInstructionsService } from '../application/agent-instructions.service';
import { UpdateAgentInstructionsDto, AgentInstructionsDto } from './agent-instructions.dto';

const toDto = (a: AgentInstructions, links: Links): AgentInstructionsDto => ({
  object: 'agent-instructions',
  instructions: a.instructions,
  updatedAt: a.updatedAt.toISOString(),
  updatedBy: a.updatedBy,
  urls: { location: links.api(`/orgs/${a.organizationId}/agent-instructions`) },
});

@ApiTags('organizations')
@ApiStandardErrors()
@Controller('orgs/:organizationId/agent-instructions')
export class AgentInstructionsController {
  constructor(private readonly instructions: AgentInstructionsService) {}

  @Get()
  @ApiOperation({ operationId: 'getOrganizationAgentInstructions', summary: 'The instructions of the organization’s agent (members)' })
  @ApiOkResponse({ type: AgentInstructionsDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @RequestLinks() links: Links,
  ): Promise<AgentInstructionsDto> {
    return toDto(await this.instructions.get(actor, organizationId), links);
  }

  @WriteTransaction()
  @Put()
  @ApiOperation({ operationId: 'updateOrganizationAgentInstructions', summary: 'Set the instructions of the organization’s agent (admin)' })
  @ApiOkResponse({ type: AgentInstructionsDto })
  async put(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: UpdateAgentInstructionsDto,
    @RequestLinks() links: Links,
  ): Promise<AgentInstructionsDto> {
    return toDto(await this.instructions.put(actor, organizationId, body.instructions), links);
  }
}
