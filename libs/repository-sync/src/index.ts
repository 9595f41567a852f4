// The public surface of the repository-sync context. Other contexts (and the app) import only this file.
export { RepositorySyncModule } from './repository-sync.module';
export { RepositoryImport } from './application/repository-import';
export type { RepositoryImportResult } from './application/repository-import';
export { RepositoryExport } from './application/repository-export';
export { RepositoriesForSites } from './application/repositories-for-sites';
export { parseGitHosts, GIT_HOST_KINDS } from './domain/git-hosts';
export type { GitHostKind, EditLink } from './domain/git-hosts';
export { GitSyncService } from './application/git-sync.service';
export { GIT_SYNC_QUEUE, GIT_SYNC_SWEEP_QUEUE } from './application/git-sync-queue';
export { GitSyncPoller } from './application/git-sync-poller';
export { GitSyncRunner } from './application/git-sync-runner';
export { GIT_SYNC_STATE_EVENT_TYPES } from './application/git-sync-events';
export type { GitSyncEventType } from './application/git-sync-events';
export { GitSyncSettings } from './application/git-sync-settings';
export { repositoryArchive, repositoryFolder, repositorySource, writeRepositoryFolder } from './application/repository-folder';
export { GitRemote, GitRemoteError, GitSyncRepository } from './domain/git-sync';
export type { GitSyncConnection, GitSyncOperation } from './domain/git-sync';
