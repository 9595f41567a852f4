import { Module } from '@nestjs/common';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { ReviewAndCommentsModule } from '@app/review-and-comments';
import { SpacesAndContentModule } from '@app/spaces-and-content';
import { GitSyncService } from './application/git-sync.service';
import { GitSyncQueue } from './application/git-sync-queue';
import { GitSyncPoller } from './application/git-sync-poller';
import { GitSyncRunner } from './application/git-sync-runner';
import { MergeExports } from './application/merge-exports';
import { GitRemote, GitSyncRepository } from './domain/git-sync';
import { GitSyncController } from './http/git-sync.controller';
import { SqlGitSyncRepository } from './infrastructure/git-sync.repository';
import { GitCliRemote } from './infrastructure/git-cli.remote';

/**
 * Git Sync: a space connected to a branch of a Git repository (#32). Imports go through the review context's
 * RepositoryImport (a change request), exports through the content context's RepositoryExport; this context
 * owns the connection, the operations' queue and the Git remote. Needs the app's `GitSyncSettings`,
 * `SecretBox`, `HostResolver`, `JobQueue`, `Clock` and `IdGenerator`.
 */
@Module({
  imports: [SpacesAndContentModule, ReviewAndCommentsModule, OrganizationsAndTeamsModule],
  controllers: [GitSyncController],
  providers: [
    GitSyncService,
    GitSyncQueue,
    GitSyncPoller,
    GitSyncRunner,
    MergeExports,
    { provide: GitSyncRepository, useClass: SqlGitSyncRepository },
    { provide: GitRemote, useClass: GitCliRemote },
  ],
  exports: [GitSyncService, GitSyncPoller, GitSyncRunner],
})
export class GitSyncModule {}
