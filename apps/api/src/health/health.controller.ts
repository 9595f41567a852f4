import { Db } from '@app/persistence';
import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto, Public } from '@app/http-kit';
import { HealthDto, ReadinessDto } from './health.dto';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: Db) {}

  @Get()
  @HttpCode(200)
  @ApiOperation({ operationId: 'health', summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthDto })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ operationId: 'readiness', summary: 'Readiness: the database answers' })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({ type: ErrorDto })
  async ready(): Promise<ReadinessDto> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('The database does not answer');
    }
    return { status: 'ok', database: 'ok' };
  }
}
