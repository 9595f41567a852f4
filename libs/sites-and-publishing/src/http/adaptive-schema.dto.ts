import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

export class UpdateAdaptiveSchemaDto {
  /** JSON Schema draft-07: `type` object, `additionalProperties` false, boolean claims with a description, and `unsigned` */
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  jsonSchema: Record<string, unknown>;
}

export class AdaptiveSchemaDto {
  @ApiProperty({ enum: ['site-adaptive-schema'] }) object: 'site-adaptive-schema';
  @ApiProperty({ type: 'object', additionalProperties: true }) jsonSchema: object;
  updatedAt: string;
}

export class TemplateConditionDto {
  description: string;
  condition: string;
}

export class TemplateConditionsDto {
  items: TemplateConditionDto[];
}
