/**
 * The baseline a repository import keeps beside the content, so an export writes back what the space did not
 * change exactly as it was read (gitbook-export.ts) and a later import matches pages by path
 * (gitbook-repository.ts). Types only: both sides import them, neither imports the other for them.
 */

/** A page as an import read it: its file (null for a summary entry without one), its markdown, and its digest then. */
export interface PageSource {
  path: string | null;
  markdown: string | null;
  digest: string;
}

/** What a repository import kept beside the content (paths relative to the project's folder). */
export interface RepositorySources {
  pages: Map<string, PageSource>;
  /** Reusable contents (`.gitbook/includes/`) by id, as their pages are. */
  reusable: Map<string, PageSource>;
  /** File id → its path in the repository. */
  files: Map<string, string>;
  /** The summary as read, at its path, with the digest of the tree it gave. */
  summary: { path: string; markdown: string; digest: string } | null;
  /** `.gitbook/vars.yaml` as read, with the digest of the variables it gave. */
  variables?: { path: string; text: string; digest: string } | null;
  /** `.gitbook.yaml` as read (null when there was none), and the content's root folder. */
  config: string | null;
  root: string;
}
