import { Module } from '@nestjs/common';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { OpenApiEvents } from './application/openapi-events';
import { OpenApiProcessing } from './application/openapi-processing.service';
import { OpenApiSpecsService } from './application/openapi-specs.service';
import { OpenApiOperations } from './application/openapi-operations';
import { OpenApiSpecRepository, SpecFetcher, SpecParser } from './domain/openapi-spec';
import { OpenApiSpecsController, PublicOpenApiController } from './http/openapi-specs.controller';
import { SqlOpenApiSpecRepository } from './infrastructure/openapi-specs.repository';
import { SafeSpecFetcher } from './infrastructure/safe-spec-fetcher';
import { WorkerSpecParser } from './infrastructure/worker-spec-parser';
import { AccessModule } from '@app/access';
import { ComputedReference } from './application/computed-reference.service';

/** OpenAPI specifications: sources, background processing (jobs on PostgreSQL), versions. */
@Module({
  imports: [AccessModule, OrganizationsAndTeamsModule],
  controllers: [OpenApiSpecsController, PublicOpenApiController],
  providers: [
    OpenApiSpecsService,
    OpenApiOperations,
    OpenApiProcessing,
    OpenApiEvents,
    ComputedReference,
    { provide: OpenApiSpecRepository, useClass: SqlOpenApiSpecRepository },
    { provide: SpecFetcher, useClass: SafeSpecFetcher },
    { provide: SpecParser, useClass: WorkerSpecParser },
  ],
  exports: [OpenApiSpecsService, OpenApiOperations, OpenApiProcessing, ComputedReference],
})
export class OpenApiSpecsModule {}
