import type { Page, PageRequest } from '@app/shared-kernel';
import type { JsonDocument } from '@app/content-model';
import type { ExtractedLink } from '@app/content-model';
import type { FileNode } from './files';
import type { PageTree, ReusableContent } from '@app/content-model';

export const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback'] as const;
export type RevisionType = (typeof REVISION_TYPES)[number];

/** An immutable snapshot of a space's content. Writing content creates a new revision; none is ever changed. */
export interface Revision {
  id: string;
  organizationId: string;
  spaceId: string;
  parents: string[];
  type: RevisionType;
  tree: PageTree;
  files: FileNode[];
  createdAt: Date;
  createdBy: string | null;
  /** For merge revisions: the id of the change request merged (owned by the review context). */
  mergedFrom?: string | null;
  /** A revision a Git Sync import made: the commit it came from (the official `git` of a revision). */
  git?: RevisionGit | null;
  /**
   * The reusable contents pages include (the official `reusableContents`). Left undefined on a new revision,
   * they are its first parent's (a writer that does not touch them cannot drop them).
   */
  reusableContents?: ReusableContent[];
  /** The space's variables (the official `variables`: name → value), inherited like `reusableContents`. */
  variables?: Record<string, string>;
}

/** The official GitSyncCommit: the commit a revision was imported from. */
export interface RevisionGit {
  oid: string;
  message: string;
  createdByGitBook: boolean;
  ref?: string;
  url?: string;
}

/** A revision as a space's history lists it (no tree). */
export type RevisionSummary = Pick<Revision, 'id' | 'parents' | 'type' | 'createdAt' | 'createdBy'> & { mergedFrom: string | null };

/** An author of edits on a line of revisions (a change request's contributors). */
export interface RevisionEditor {
  userId: string;
  count: number;
  updatedAt: Date;
}

export abstract class RevisionRepository {
  /** The space's main line: `head` and its first parents back to the first revision, newest first, keyset-paged. */
  abstract history(spaceId: string, head: string, page: PageRequest): Promise<Page<RevisionSummary>>;
  abstract find(spaceId: string, id: string): Promise<Revision | null>;
  /**
   * Who wrote the `edits` revisions of a line of work: those on `head`'s line of first parents back to (not
   * including) `start`, less those on `base`'s (main's line where the work was last brought up to date); each
   * author with how many and when last, the latest first.
   */
  abstract editors(spaceId: string, head: string, base: string, start: string): Promise<RevisionEditor[]>;
  /** Inserts the revision and the bodies it introduces (bodies already stored are kept), atomically. */
  abstract insert(revision: Revision, documents: Map<string, JsonDocument>): Promise<void>;
  abstract documents(organizationId: string, hashes: string[]): Promise<Map<string, JsonDocument>>;
  /** A body one of the space's revisions references (a page's at any depth, a reusable content's), or null. */
  abstract spaceDocument(organizationId: string, spaceId: string, hash: string): Promise<JsonDocument | null>;
  /** Links of the given bodies (extracted when they were written). */
  abstract links(organizationId: string, hashes: string[]): Promise<Map<string, ExtractedLink[]>>;
  /** Bodies that link to a page or file: backlinks are a lookup, not a scan. */
  abstract hashesLinkingTo(organizationId: string, kind: 'page' | 'file', target: string): Promise<Set<string>>;
  /** Copies a revision's tree into a new revision of another space (duplicate): O(tree), bodies shared. */
  abstract copy(
    source: Revision,
    target: { id: string; spaceId: string; organizationId: string; createdAt: Date; createdBy: string | null },
  ): Promise<void>;
  /** Re-homes a space's revisions and the bodies they use to another organization (transfer). */
  abstract moveSpace(spaceId: string, fromOrganizationId: string, toOrganizationId: string): Promise<void>;
  /** The hashes of the file bytes a space's revisions reference. */
  abstract fileHashes(spaceId: string): Promise<string[]>;
}
