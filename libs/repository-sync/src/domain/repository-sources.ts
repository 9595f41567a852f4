import type { RepositorySources } from '@app/content-model';

/**
 * What a repository import kept beside a space's content (its files' markdown and paths, the summary,
 * `.gitbook.yaml`), so that an export writes back unchanged what the space did not change. Keyed by the
 * space: pages and files by their ids. Keyed by the space alone (no organization id): the rows follow the space
 * through a transfer, and are read only after the caller's access to the space was checked.
 */
export abstract class RepositorySourceRepository {
  abstract load(spaceId: string): Promise<RepositorySources | null>;
  /** Replaces what the space kept (an import passes what it read merged with what was kept before). */
  abstract save(spaceId: string, sources: RepositorySources): Promise<void>;
}
