import { Injectable } from '@nestjs/common';
import { IdentityService, User } from '@app/organizations-and-teams';
import { Actor, NotFoundError } from '@app/shared-kernel';
import { Links } from '@app/http-kit';
import type { MergeOrigin } from '@app/spaces-and-content';
import { ChangeRequestsService, ChangeRequestView } from '../application/change-requests.service';
import { ChangeRequestDto, toChangeRequestDto } from './change-request.dto';

/** Change requests as the wire shows them (with the users they name, loaded once per response). */
@Injectable()
export class ChangeRequestPresenter {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly identity: IdentityService,
  ) {}

  users(views: ChangeRequestView[]): Promise<Map<string, User>> {
    return this.identity.usersByIds(
      views.flatMap((v) => [v.changeRequest.createdBy, v.changeRequest.mergedBy].filter((x): x is string => !!x)),
    );
  }

  async dto(v: ChangeRequestView, links: Links): Promise<ChangeRequestDto> {
    return this.dtoWith(v, await this.users([v]), links);
  }

  dtoWith(v: ChangeRequestView, users: Map<string, User>, links: Links): ChangeRequestDto {
    return toChangeRequestDto(v.changeRequest, this.changeRequests.outdated(v), users, links);
  }
}

/**
 * A merge revision shows the change request it came from (the official `mergedFrom`): what this context
 * gives the content context's RevisionPresenter when it serves a revision (it depends on content, never the
 * other way round).
 */
@Injectable()
export class ChangeRequestOrigins {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestPresenter,
  ) {}

  for(actor: Actor, spaceId: string, links: Links): MergeOrigin {
    return async (changeRequestId) => {
      // A change request the caller cannot see (or gone) is simply not shown; any other failure is a failure.
      try {
        return await this.presenter.dto(await this.changeRequests.view(actor, spaceId, changeRequestId), links);
      } catch (e) {
        if (e instanceof NotFoundError) return null;
        throw e;
      }
    };
  }
}
