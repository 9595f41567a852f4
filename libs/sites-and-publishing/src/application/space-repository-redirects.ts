/** A redirect a space's repository brought: a path of the space's old site, and the page it goes to now. */
export interface RepositoryRedirect {
  /** The old path, without leading or trailing slashes (`old/setup`). */
  from: string;
  pageId: string;
}

/**
 * Port: the redirects of the `.gitbook.yaml` a space's repository import kept (GitBook's space redirects), as
 * data. Answered by the repository-sync context, which owns what an import keeps, and wired by the app; the
 * published site reads them (a path that is no page of the space is redirected to the page now there).
 */
export abstract class SpaceRepositoryRedirects {
  abstract of(spaceId: string): Promise<RepositoryRedirect[]>;
}
