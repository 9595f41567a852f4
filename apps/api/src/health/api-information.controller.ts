import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiInformationDto } from './api-information.dto';

/** What `GET /v1/` answers: built once at start from the package and the configuration. */
export abstract class ApiInformation {
  abstract readonly version: string;
  abstract readonly build: string;
  abstract readonly features: readonly string[];
}

@ApiTags('system')
@Controller()
export class ApiInformationController {
  constructor(private readonly information: ApiInformation) {}

  /** The official getApiInformation: any valid token (the official document puts it behind the usual security). */
  @Get()
  @ApiOperation({
    operationId: 'getApiInformation',
    summary: 'Get API information',
    description: 'The release version and build date of this Quire instance, and the optional features it has configured.',
  })
  @ApiOkResponse({ type: ApiInformationDto })
  get(): ApiInformationDto {
    return { version: this.information.version, build: this.information.build, features: [...this.information.features] };
  }
}
