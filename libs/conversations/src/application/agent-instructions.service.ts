import { Injectable } from '@nestjs/common';
import { Actor, Clock, UnitOfWork } from '@app/shared-kernel';
import { ConversationEvents } from './conversation-events';
import { checkDocumentInput, JsonDocument } from '@app/content-model';
import { Access } from '@app/access';

export const INSTRUCTIONS_MARKDOWN_MAX = 100_000;

export interface AgentInstructions {
  organizationId: string;
  instructions: JsonDocument;
  updatedAt: Date;
  updatedBy: string;
}

/** Port: where the instructions are kept. */
export abstract class AgentInstructionsRepository {
  abstract find(organizationId: string): Promise<AgentInstructions | null>;
  abstract save(instructions: AgentInstructions): Promise<void>;
}

const EMPTY: JsonDocument = { object: 'document', data: {}, nodes: [] } as unknown as JsonDocument;

/** The organization's agent instructions (official get/updateOrganizationAgentInstructions): members read, admins write. */
@Injectable()
export class AgentInstructionsService {
  constructor(
    private readonly repo: AgentInstructionsRepository,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly events: ConversationEvents,
  ) {}

  /** Never set: an empty document, as of the organization's creation is unknown — `updatedAt` is then now. */
  async get(actor: Actor, organizationId: string): Promise<AgentInstructions> {
    await this.access.require(organizationId, actor, 'read');
    return (await this.repo.find(organizationId)) ?? { organizationId, instructions: EMPTY, updatedAt: this.clock.now(), updatedBy: '' };
  }

  async put(actor: Actor, organizationId: string, instructions: unknown): Promise<AgentInstructions> {
    await this.access.require(organizationId, actor, 'admin');
    const { document } = checkDocumentInput(instructions, 'instructions', INSTRUCTIONS_MARKDOWN_MAX);
    const next: AgentInstructions = { organizationId, instructions: document, updatedAt: this.clock.now(), updatedBy: actor.userId };
    await this.uow.run(async () => {
      await this.repo.save(next);
      this.events.publish('agent-instructions.updated', organizationId, actor.userId, {});
    });
    return next;
  }
}
