import { Module } from '@nestjs/common';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { SpacesAndContentModule } from '@app/spaces-and-content';
import { ChangeRequestsService } from './application/change-requests.service';
import { ChangeRequestRepository } from './domain/change-request';
import { ChangeRequestsController } from './http/change-requests.controller';
import { SqlChangeRequestRepository } from './infrastructure/sql-change-requests';

/** Change requests (comments, reviews and PDF export come with their issue). */
@Module({
  imports: [SpacesAndContentModule, OrganizationsAndTeamsModule],
  controllers: [ChangeRequestsController],
  providers: [ChangeRequestsService, { provide: ChangeRequestRepository, useClass: SqlChangeRequestRepository }],
  exports: [ChangeRequestsService],
})
export class ReviewAndCommentsModule {}
