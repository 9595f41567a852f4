import type { RepositoryFiles } from '@app/content-model';

/**
 * Git Sync (#32): a space connected to a branch of a Git repository, and the operations that move content
 * between them. Operations on one space run one at a time, in the order of their `timestamp` (the official
 * field: the time of the event that asked for them), as background jobs recorded in their own rows so that a
 * restart finishes them.
 */
export type GitSyncDirection = 'import' | 'export';
/** `pending` waits its turn; the others are the official GitSyncOperationState values Quire reaches. */
export type GitSyncOperationState = 'pending' | 'running' | 'success' | 'failure';

/** What a remote needs: its URL (never with credentials in it) and the credentials, opened. */
export interface GitRemoteAccess {
  url: string;
  /** `user:password` (or a token as the password), null for an anonymous remote. */
  credentials: string | null;
}

export interface GitSyncOperation {
  id: string;
  spaceId: string;
  organizationId: string;
  direction: GitSyncDirection;
  remote: GitRemoteAccess;
  /** A full ref, `refs/heads/main`. */
  ref: string;
  projectDirectory: string;
  commitMessage: string | null;
  force: boolean;
  standalone: boolean;
  requestedAt: Date;
  requestedBy: string;
  /** An export after a merge: the change request merged (its subject is the commit message). */
  changeRequest: string | null;
  state: GitSyncOperationState;
  attempts: number;
  startedAt: Date | null;
  endedAt: Date | null;
  error: string | null;
  /** The commit imported or made. */
  commit: string | null;
}

/** The space's connection: where it syncs, and how the last operation went. */
export interface GitSyncConnection {
  spaceId: string;
  organizationId: string;
  remote: GitRemoteAccess;
  ref: string;
  projectDirectory: string;
  /** The commit both sides last agreed on, and the space's revision then. */
  lastCommit: string | null;
  lastRevision: string | null;
  /** Who connected the space: pushes that come in (webhook, poll) are imported as them. */
  connectedBy: string;
  /** The secret a Git host signs its push webhooks with (GitHub, Gitea) or sends (GitLab). */
  webhookSecret: string;
  /** When the remote was last polled for new commits. */
  polledAt: Date | null;
  operation: {
    state: GitSyncOperationState;
    direction: GitSyncDirection;
    startedAt: Date;
    endedAt: Date | null;
    error: string | null;
  } | null;
  updatedAt: Date;
}

export abstract class GitSyncRepository {
  abstract connection(spaceId: string): Promise<GitSyncConnection | null>;
  /** Records the connection (insert or replace). */
  abstract saveConnection(connection: GitSyncConnection): Promise<void>;
  abstract enqueue(operation: GitSyncOperation): Promise<void>;
  /**
   * Takes the space's next operation (by `requestedAt`, then by arrival) and marks it running, unless one is
   * running already (started after `staleBefore`: an older one is taken over, its process presumed dead).
   */
  abstract claimNext(spaceId: string, now: Date, staleBefore: Date): Promise<GitSyncOperation | null>;
  abstract finish(
    id: string,
    outcome: { state: 'success' | 'failure'; endedAt: Date; error: string | null; commit: string | null },
  ): Promise<void>;
  abstract operation(id: string): Promise<GitSyncOperation | null>;
  /** An import that left its content in a change request: the change request and the commit it holds. */
  abstract recordChangeRequest(id: string, changeRequest: string, commit: string): Promise<void>;
  /** The import whose content a change request holds. */
  abstract importOf(changeRequest: string): Promise<GitSyncOperation | null>;
  /** The latest import of the space that left this commit in a change request (its id), if any. */
  abstract changeRequestHolding(spaceId: string, commit: string): Promise<string | null>;
  /** Connected spaces not polled since `before` (at most `limit`, the longest waiting first). */
  abstract toPoll(before: Date, limit: number): Promise<GitSyncConnection[]>;
  /** Seals again under the current key every credential and webhook secret sealed under an older one; answers how many. */
  abstract resealSecrets(): Promise<number>;
  /** Spaces with operations waiting (or running since before `staleBefore`): what a sweep nudges. */
  abstract spacesWithWork(staleBefore: Date): Promise<string[]>;
}

export interface GitCommitInfo {
  oid: string;
  message: string;
}

/**
 * A checked-out commit: its files as the repository reader takes them, and their bytes, read from disk on
 * demand (one file in memory at a time): valid only inside the `use` of GitRemote.read.
 */
export interface GitCheckout {
  commit: GitCommitInfo;
  files: RepositoryFiles & { bytes(path: string): Buffer | null };
}

export interface GitAuthor {
  name: string;
  email: string;
}

/** Port: a Git remote (the app: the git command, its HTTP through a proxy that applies the kernel's outbound rule). */
export abstract class GitRemote {
  /** The commit `ref` is at (null: no such branch), without fetching anything else. */
  abstract head(remote: GitRemoteAccess, ref: string): Promise<string | null>;
  /**
   * Checks out the commit at `ref` and answers what `use` makes of it; the checkout is gone once `use` has
   * settled. A remote without that ref (an empty repository) is null, and `use` is not called.
   */
  abstract read<T>(remote: GitRemoteAccess, ref: string, use: (checkout: GitCheckout) => Promise<T>): Promise<T | null>;
  /**
   * Commits `write` (path → content) and the removal of `remove` on top of `ref` as it is now (or as the first
   * commit of an empty remote) and pushes it; answers the commit the branch is at afterwards (its head when
   * nothing changed). A branch not at `expect` is left alone (GitRemoteMovedError); one that moves meanwhile
   * refuses the push (a GitRemoteError).
   */
  abstract write(remote: GitRemoteAccess, ref: string, change: GitWrite): Promise<GitCommitInfo>;
}

/** A commit to make: files to write (path → content), which of the present files to remove, and by whom. */
export interface GitWrite {
  write: Map<string, string | Buffer>;
  remove: (paths: readonly string[]) => string[];
  message: string;
  author: GitAuthor;
  at: Date;
  /** The commit the branch must be at (the last sync's); null: whatever it is. */
  expect: string | null;
}

/** A remote that refused or failed, with a message for people (shown in `git/info`). */
export class GitRemoteError extends Error {}

/** The branch is not at the commit expected: it moved since the last sync. */
export class GitRemoteMovedError extends GitRemoteError {}
