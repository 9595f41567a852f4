import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, Public, RequestLinks, WriteTransaction } from '@app/http-kit';
import { GitSyncService } from '../application/git-sync.service';
import { GitSyncSettings } from '../application/git-sync-settings';
import type { GitSyncConnection } from '../domain/git-sync';
import { ImportGitRepositoryDto, ExportToGitRepositoryDto, GitSyncWebhookDto, GitSyncStateDto, WebhookAnswerDto } from './git-sync.dto';

// ---------------------------------------------------------------------------------------------
// Requests (the official ImportGitRepository and ExportToGitRepository)

// ---------------------------------------------------------------------------------------------
// Response (the official GitSyncState)

function stateDto(c: GitSyncConnection, operationTimeout: number, webhook: GitSyncWebhookDto | null): GitSyncStateDto {
  const url = new URL(c.remote.url);
  const op = c.operation;
  return {
    installationId: `git-${c.spaceId}`,
    installationProvider: /gitlab/i.test(url.hostname) ? 'gitlab' : 'github',
    installationStatus: op?.state === 'failure' && /refused the credentials/.test(op.error ?? '') ? 'unauthenticated' : 'active',
    repoName: url.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, ''),
    url: c.remote.url,
    ref: c.ref,
    ...(c.projectDirectory ? { repoProjectDirectory: c.projectDirectory } : {}),
    ...(op
      ? {
          operation: {
            // A queued operation waits its turn: to a client it is under way.
            state: op.state === 'pending' ? 'running' : op.state,
            direction: op.direction,
            startedAt: op.startedAt.toISOString(),
            ...(op.endedAt ? { endedAt: op.endedAt.toISOString() } : {}),
            ...(op.error ? { error: op.error } : {}),
          },
        }
      : {}),
    operationTimeout,
    updatedAt: c.updatedAt.toISOString(),
    ...(webhook ? { webhook } : {}),
  };
}

@ApiTags('space-git')
@ApiStandardErrors()
@Controller('spaces/:spaceId/git')
export class GitSyncController {
  constructor(
    private readonly gitSync: GitSyncService,
    private readonly settings: GitSyncSettings,
  ) {}

  @WriteTransaction()
  @Post('import')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'importGitRepository',
    summary: 'Pull content into the space from a Git repository (role edit); runs in the background',
  })
  @ApiNoContentResponse({ description: 'Operation to import the repository has been queued.' })
  async import(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Body() body: ImportGitRepositoryDto): Promise<void> {
    await this.gitSync.request(actor, spaceId, 'import', body);
  }

  @WriteTransaction()
  @Post('export')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'exportToGitRepository',
    summary: "Push the space's content to a Git repository (role edit); runs in the background",
  })
  @ApiNoContentResponse({ description: 'Operation to export the space has been queued.' })
  async export(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Body() body: ExportToGitRepositoryDto): Promise<void> {
    await this.gitSync.request(actor, spaceId, 'export', body);
  }

  @Get('info')
  @ApiOperation({ operationId: 'getSpaceGitInfo', summary: 'The Git Sync configuration and status of the space (404: none)' })
  @ApiOkResponse({ type: GitSyncStateDto, description: 'The Git Sync info for the space' })
  async info(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @RequestLinks() links: Links): Promise<GitSyncStateDto> {
    const { connection, editor } = await this.gitSync.info(actor, spaceId);
    const webhook = editor ? { url: links.api(`/spaces/${spaceId}/git/webhook`), secret: connection.webhookSecret } : null;
    return stateDto(connection, this.settings.operationTimeoutMs, webhook);
  }

  /** No Bearer token: the Git host signs the body with the space's webhook secret (its raw bytes are kept for that). */
  @Public()
  @Post('webhook')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'receiveGitPushWebhook',
    summary:
      'A push webhook from GitHub, GitLab or Gitea (signed with the space’s webhook secret): a push to the connected branch is imported',
  })
  @ApiAcceptedResponse({ type: WebhookAnswerDto })
  async webhook(@Param('spaceId') spaceId: string, @Req() req: Request & { rawBody?: Buffer }): Promise<WebhookAnswerDto> {
    return { status: await this.gitSync.pushed(spaceId, req.headers, req.rawBody) };
  }
}
