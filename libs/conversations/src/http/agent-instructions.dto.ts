import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

export class UpdateAgentInstructionsDto {
  /** A JSON document (`{object: "document", nodes: [...]}`), at most 100,000 characters as markdown */
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsObject() instructions: object;
}

export class AgentInstructionsUrlsDto {
  location: string;
}

export class AgentInstructionsDto {
  @ApiProperty({ enum: ['agent-instructions'] }) object: 'agent-instructions';
  @ApiProperty({ type: 'object', additionalProperties: true }) instructions: object;
  updatedAt: string;
  /** The member who last set them (empty while never set) */
  updatedBy: string;
  urls: AgentInstructionsUrlsDto;
}
