/**
 * Port: what other contexts keep about a space follows its life. Declared here, where spaces are
 * deleted, restored, transferred, renamed and purged, and where its main content moves; provided by
 * each context that keeps rows per space (review: change requests, comments, reviews; sites: site
 * spaces). The app composes them into one `SpaceLifecycles` (apps/api/src/space-lifecycle.module.ts).
 * Each call runs inside the unit of work that changes the space, so all commit together or none does.
 * Without a provider nothing is told.
 */
export abstract class SpaceLifecycle {
  abstract deleted(spaceId: string): Promise<void>;
  abstract restored(spaceId: string): Promise<void>;
  abstract transferred(spaceId: string, toOrganizationId: string): Promise<void>;
  abstract purged(spaceIds: string[]): Promise<void>;
  /** The space's main content moved to another revision (a merge, a template, a direct write). */
  abstract revisionMoved(spaceId: string): Promise<void>;
  /** The space's own fields changed (title, emoji, visibility …: what `PATCH /spaces/{id}` writes). */
  abstract updated(spaceId: string): Promise<void>;
}

/** Several providers told in turn (in the given order), inside the same unit of work. */
export class SpaceLifecycles extends SpaceLifecycle {
  constructor(private readonly all: SpaceLifecycle[]) {
    super();
  }
  async deleted(spaceId: string): Promise<void> {
    for (const l of this.all) await l.deleted(spaceId);
  }
  async restored(spaceId: string): Promise<void> {
    for (const l of this.all) await l.restored(spaceId);
  }
  async transferred(spaceId: string, toOrganizationId: string): Promise<void> {
    for (const l of this.all) await l.transferred(spaceId, toOrganizationId);
  }
  async purged(spaceIds: string[]): Promise<void> {
    for (const l of this.all) await l.purged(spaceIds);
  }
  async revisionMoved(spaceId: string): Promise<void> {
    for (const l of this.all) await l.revisionMoved(spaceId);
  }
  async updated(spaceId: string): Promise<void> {
    for (const l of this.all) await l.updated(spaceId);
  }
}
