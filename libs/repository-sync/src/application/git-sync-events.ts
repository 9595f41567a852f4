import { Injectable } from '@nestjs/common';
import { Clock, ContextEvents, DomainEvents, UnitOfWork } from '@app/shared-kernel';

/**
 * The repository-sync context's events. Not offered to webhooks (they say nothing an organization subscribes
 * to that `space.content-moved` does not): other contexts follow them.
 * - `git-sync.imported` `{spaceId, commit}`: a Git Sync import of the space finished with the branch at `commit`
 *   (the actor: whom the import ran as). A site whose structure comes from the same repository re-reads it.
 */
export const GIT_SYNC_STATE_EVENT_TYPES = ['git-sync.imported'] as const;
export type GitSyncEventType = (typeof GIT_SYNC_STATE_EVENT_TYPES)[number];

@Injectable()
export class GitSyncEvents extends ContextEvents<GitSyncEventType> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}
