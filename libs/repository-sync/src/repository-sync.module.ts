import { Module } from '@nestjs/common';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { ReviewAndCommentsModule } from '@app/review-and-comments';
import { SpacesAndContentModule } from '@app/spaces-and-content';
import { GitSyncService } from './application/git-sync.service';
import { GitSyncQueue } from './application/git-sync-queue';
import { GitSyncPoller } from './application/git-sync-poller';
import { GitSyncEvents } from './application/git-sync-events';
import { GitSyncRunner } from './application/git-sync-runner';
import { MergeExports } from './application/merge-exports';
import { GitRemote, GitSyncRepository } from './domain/git-sync';
import { GitSyncController } from './http/git-sync.controller';
import { SqlGitSyncRepository } from './infrastructure/git-sync.repository';
import { RepositoryImport } from './application/repository-import';
import { RepositoryExport } from './application/repository-export';
import { RepositoriesForSites } from './application/repositories-for-sites';
import { RepositorySourceRepository } from './domain/repository-sources';
import { SqlRepositorySourceRepository } from './infrastructure/repository-sources.repository';
import { GitCliRemote } from './infrastructure/git-cli.remote';

/**
 * Moving a GitBook repository in and out of a space (#32, #48): the import (a change request of the review
 * context), the export, the baseline an import keeps beside the space (`repository_sources`: what lets an export
 * write back unchanged what the space did not change, and the `.gitbook.yaml` redirects it hands to sites), the
 * folder and zip sources of the CLI, and Git Sync (a space connected to a branch: the connection, the operations'
 * queue, the Git remote). It reaches content and review only through their application APIs. Needs the app's
 * `GitSyncSettings`, `SecretBox`, `HostResolver`, `JobQueue`, `Clock` and `IdGenerator`.
 */
@Module({
  imports: [SpacesAndContentModule, ReviewAndCommentsModule, OrganizationsAndTeamsModule],
  controllers: [GitSyncController],
  providers: [
    GitSyncService,
    GitSyncQueue,
    GitSyncPoller,
    GitSyncRunner,
    GitSyncEvents,
    MergeExports,
    { provide: GitSyncRepository, useClass: SqlGitSyncRepository },
    { provide: GitRemote, useClass: GitCliRemote },
    RepositoryImport,
    RepositoryExport,
    RepositoriesForSites,
    { provide: RepositorySourceRepository, useClass: SqlRepositorySourceRepository },
  ],
  exports: [GitSyncService, GitSyncPoller, GitSyncRunner, RepositoryImport, RepositoryExport, RepositoriesForSites],
})
export class RepositorySyncModule {}
