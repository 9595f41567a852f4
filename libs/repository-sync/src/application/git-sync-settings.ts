import type { GitHostKind } from '../domain/git-hosts';

/** Git Sync's settings, from the configuration (apps/api/src/config.ts). */
export abstract class GitSyncSettings {
  /** Hosts a remote may be on when it resolves to a private or loopback address, or is plain http (QUIRE_GIT_URL_ALLOWLIST). */
  abstract readonly allowlist: string[];
  /** The most bytes one answer of a remote may hold (a packfile). */
  abstract readonly maxBytes: number;
  /** How long one request to a remote may take. */
  abstract readonly timeoutMs: number;
  /** An operation running for longer than this is presumed dead (its process stopped) and is taken over. */
  abstract readonly operationTimeoutMs: number;
  /** How often a connected space's branch is polled for new commits (QUIRE_GIT_POLL_SECONDS; 0: never, webhooks only). */
  abstract readonly pollMs: number;
  /** The kind of each Git host that is not known by its name (QUIRE_GIT_HOSTS), for edit links on published pages. */
  abstract readonly hosts: ReadonlyMap<string, GitHostKind>;
}
