import { Injectable } from '@nestjs/common';
import { Clock, TtlCache } from '@app/shared-kernel';
import { documentsForBlocks, SemanticChange, semanticChanges, withBlocks } from '@app/content-model';
import { ContentService } from './content.service';
import type { Space } from '../domain/space';

/** What changed in a revision: its semantic changes, and the change request it was merged from, if any. */
export interface RevisionChangeList {
  changes: SemanticChange[];
  /** Id of the change request whose merge made the revision (null when it is not a merge). */
  mergedFrom: string | null;
}

/**
 * The semantic changes of a revision (official getRevisionSemanticChanges / getChangeRequestChanges):
 * `revisionId` against `against` (a change request's base), else against its first parent (none:
 * everything is created). Kept per (before, after) pair: both are immutable, so an entry never goes stale.
 */
@Injectable()
export class RevisionChanges {
  private readonly lists = new TtlCache<string, SemanticChange[]>(60 * 60_000, 1000);

  constructor(
    private readonly content: ContentService,
    private readonly clock: Clock,
  ) {}

  async of(space: Space, revisionId: string, against?: string): Promise<RevisionChangeList> {
    const after = await this.content.revision(space.id, revisionId);
    const baseId = against ?? after.parents[0] ?? null;
    const key = `${baseId ?? ''}>${after.id}`;
    const now = this.clock.now().getTime();
    let list = this.lists.get(key, now);
    if (!list) {
      const before = baseId ? await this.content.revision(space.id, baseId) : null;
      const changes = semanticChanges(before, after);
      list = withBlocks(changes, await this.content.documents(space.organizationId, documentsForBlocks(changes)));
      this.lists.set(key, list, now);
    }
    return { changes: list, mergedFrom: after.mergedFrom ?? null };
  }
}
