import type { Actor } from '@app/shared-kernel';
import type { Links } from '@app/http-kit';

/**
 * Port: how a merge revision shows the change request it came from (the official `mergedFrom`).
 * Declared here, where revisions are read; provided by the review context, which owns change requests
 * and depends on this one (so no import cycle). Without a provider, `mergedFrom` is left out.
 */
export abstract class MergeOrigins {
  /** The change request as the caller may see it, or null when it is gone or out of their reach. */
  abstract render(actor: Actor, spaceId: string, changeRequestId: string, links: Links): Promise<object | null>;
}
