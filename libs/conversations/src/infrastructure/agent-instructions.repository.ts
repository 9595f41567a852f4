import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import type { JsonDocument } from '@app/content-model';
import { AgentInstructions, AgentInstructionsRepository } from '../application/agent-instructions.service';

@Injectable()
export class SqlAgentInstructionsRepository extends AgentInstructionsRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async find(organizationId: string): Promise<AgentInstructions | null> {
    const rows: { instructions: JsonDocument; updated_at: Date; updated_by: string }[] = await this.db.query(
      'SELECT instructions, updated_at, updated_by FROM agent_instructions WHERE organization_id = $1',
      [organizationId],
    );
    const r = rows[0];
    return r ? { organizationId, instructions: r.instructions, updatedAt: r.updated_at, updatedBy: r.updated_by } : null;
  }

  async save(a: AgentInstructions): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_instructions (organization_id, instructions, updated_at, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id) DO UPDATE SET instructions = EXCLUDED.instructions, updated_at = EXCLUDED.updated_at,
         updated_by = EXCLUDED.updated_by`,
      [a.organizationId, JSON.stringify(a.instructions), a.updatedAt, a.updatedBy],
    );
  }
}
