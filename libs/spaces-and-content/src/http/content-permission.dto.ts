import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Role, ROLES } from '@app/shared-kernel';
import { ListQueryDto, Optional } from '@app/http-kit';

export class AggregateQueryDto extends ListQueryDto {
  /** Only those whose effective role is this one */
  @ApiPropertyOptional({ enum: ROLES }) @Optional() @IsIn(ROLES) role?: Role;
}
