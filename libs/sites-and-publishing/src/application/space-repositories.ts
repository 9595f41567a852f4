/** A redirect a space's repository brought: a path of the space's old site, and the page it goes to now. */
export interface RepositoryRedirect {
  /** The old path, without leading or trailing slashes (`old/setup`). */
  from: string;
  pageId: string;
}

/** Where a page is edited on its repository's Git host, and what the link says ("Edit on GitHub"). */
export interface PageEditLink {
  url: string;
  label: string;
}

/**
 * Port: what a space's repository gives its published site, as data. Answered by the repository-sync context,
 * which owns what an import keeps and where a space is connected, and wired by the app:
 * - the redirects of the `.gitbook.yaml` the import kept (a path that is no page of the space is redirected to
 *   the page now there);
 * - where each page is edited on the Git host of the branch the space is connected to (the page action).
 */
export abstract class SpaceRepositories {
  abstract redirects(spaceId: string): Promise<RepositoryRedirect[]>;
  /** By page id; empty for a space connected to no branch, or to a host Quire cannot link to. */
  abstract editLinks(spaceId: string): Promise<Map<string, PageEditLink>>;
}
