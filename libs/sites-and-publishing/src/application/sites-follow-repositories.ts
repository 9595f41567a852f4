import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvent, DomainEvents } from '@app/shared-kernel';
import { SiteRepositoryImport } from './site-repository-import';

/**
 * The repository-sync context's event (its `GIT_SYNC_STATE_EVENT_TYPES`): a Git Sync import of a space finished,
 * `{spaceId, commit}`. Named here as a string: this context does not depend on that one (the app wires them).
 */
export const SPACE_GIT_IMPORTED = 'git-sync.imported';

/**
 * Sites follow their repository (#49 §5): when a push brings a new commit into one of a site's spaces, the
 * site's `gitbook-docs.yaml` is read again from that branch and applied (SiteRepositoryImport.reread). Told after
 * the import commits, on the bus; the re-read runs on its own (a failure is logged, the space's import stands).
 */
@Injectable()
export class SitesFollowRepositories implements OnModuleInit {
  constructor(
    private readonly bus: DomainEvents,
    private readonly imports: SiteRepositoryImport,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe((event) => this.follow(event));
  }

  async follow(event: DomainEvent): Promise<void> {
    if (event.type !== SPACE_GIT_IMPORTED || event.actor === null) return;
    const { spaceId, commit } = event.data;
    if (typeof spaceId !== 'string' || typeof commit !== 'string') return;
    await this.imports.reread(spaceId, commit, event.actor);
  }
}
