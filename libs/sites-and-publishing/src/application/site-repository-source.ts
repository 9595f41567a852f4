import type { Actor } from '@app/shared-kernel';

/**
 * Port: a site's repository, for a site whose structure comes from it (its `gitbook-docs.yaml`). Answered by the
 * repository-sync context, which owns Git and the connections of spaces, and wired by the app.
 */
export abstract class SiteRepositorySource {
  /**
   * The first of `paths` the branch holds, read now (the URL checked as an import's is; a remote that refuses
   * is a 400): its path, text and commit; null when it holds none of them.
   */
  abstract readFirst(url: string, ref: string, paths: readonly string[]): Promise<{ path: string; text: string; commit: string } | null>;
  /** One file written to the branch as a commit by the caller (the URL checked as an export's is); the commit after. */
  abstract writeFile(actor: Actor, url: string, ref: string, path: string, text: string, message: string): Promise<string>;
  /** Where a space is connected by Git Sync (URL without credentials, branch, folder), or null. */
  abstract spaceDirectory(spaceId: string): Promise<{ url: string; ref: string; directory: string } | null>;
  /**
   * The first of `paths` on the branch a space is connected to, read now with that connection's credentials
   * (the site's file, re-read after a push): the connection's URL (without credentials) and branch, the path,
   * text and commit; null when the space is not connected or the branch holds none of them.
   */
  abstract readFirstOnBranchOf(
    spaceId: string,
    paths: readonly string[],
  ): Promise<{ url: string; ref: string; path: string; text: string; commit: string } | null>;
  /** Connects a space to a directory of the branch another space is connected to, and imports it; false when that one is not. */
  abstract connectSpaceLike(actor: Actor, spaceId: string, like: string, directory: string): Promise<boolean>;
  /** Connects a space to a directory of the repository's branch and imports it, in the background (Git Sync). */
  abstract connectSpace(actor: Actor, spaceId: string, remote: { url: string; ref: string; directory: string }): Promise<void>;
}
