/**
 * Port: what other contexts keep about a space follows its life. Declared here, where spaces are
 * deleted, restored, transferred and purged, and where its main content moves; provided by a context that keeps rows per space (the
 * review context: change requests, comments, reviews). Each call runs inside the unit of work that
 * changes the space, so both commit together or neither does. Without a provider nothing is told.
 */
export abstract class SpaceLifecycle {
  abstract deleted(spaceId: string): Promise<void>;
  abstract restored(spaceId: string): Promise<void>;
  abstract transferred(spaceId: string, toOrganizationId: string): Promise<void>;
  abstract purged(spaceIds: string[]): Promise<void>;
  /** The space's main content moved to another revision (a merge, a template, a direct write). */
  abstract revisionMoved(spaceId: string): Promise<void>;
}
