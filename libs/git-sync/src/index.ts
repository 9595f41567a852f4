// The public surface of the git-sync context. Other contexts (and the app) import only this file.
export { GitSyncModule } from './git-sync.module';
export { GitSyncService, GIT_SYNC_QUEUE, GIT_SYNC_SWEEP_QUEUE } from './application/git-sync.service';
export { GitSyncSettings } from './application/git-sync-settings';
export { repositoryArchive, repositoryFolder, repositorySource, writeRepositoryFolder } from './application/repository-folder';
export { GitRemote, GitRemoteError, GitSyncRepository } from './domain/git-sync';
export type { GitSyncConnection, GitSyncOperation } from './domain/git-sync';
