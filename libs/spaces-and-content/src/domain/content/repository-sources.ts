import type { RepositorySources } from '@app/content-model';

/**
 * What a repository import kept beside a space's content (its files' markdown and paths, the summary,
 * `.gitbook.yaml`), so that an export writes back unchanged what the space did not change. Keyed by the
 * space: pages and files by their ids, which a later import adds to or replaces.
 */
export abstract class RepositorySourceRepository {
  abstract load(spaceId: string): Promise<RepositorySources | null>;
  /** Adds (or replaces) the pages' and files' sources, and replaces the summary and configuration. */
  abstract save(spaceId: string, sources: RepositorySources): Promise<void>;
}
