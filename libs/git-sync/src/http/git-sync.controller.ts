import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  ApiAcceptedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsBoolean, IsISO8601, IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import type { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, Optional, Public, RequestLinks, WriteTransaction } from '@app/http-kit';
import { GitSyncService } from '../application/git-sync.service';
import { GitSyncSettings } from '../application/git-sync-settings';
import type { GitSyncConnection } from '../domain/git-sync';

// ---------------------------------------------------------------------------------------------
// Requests (the official ImportGitRepository and ExportToGitRepository)

export class ImportGitRepositoryDto {
  /** URL of the Git repository (http(s)); it can contain basic auth credentials, which are kept sealed */
  @IsString() @MinLength(1) @MaxLength(2048) url: string;
  /** Git ref, in the format "refs/heads/main" */
  @IsString() @MinLength(1) @MaxLength(255) ref: string;
  /** Deprecated; accepted and not used */
  @Optional() @IsString() @MaxLength(255) repoCacheID?: string;
  /** URL to use as a prefix for external file references (accepted; Quire shows the remote's URL) */
  @Optional() @IsString() @MaxLength(2048) repoTreeURL?: string;
  /** URL to use as a prefix for the commit URL (accepted) */
  @Optional() @IsString() @MaxLength(2048) repoCommitURL?: string;
  /** Path to the project's folder in the repository (a monorepo) */
  @Optional() @IsString() @MaxLength(500) repoProjectDirectory?: string;
  /** When the event that asked for this happened: the space's operations run in this order */
  @ApiPropertyOptional({ format: 'date-time' }) @Optional() @IsISO8601({ strict: true, strictSeparator: true }) timestamp?: string;
  /** Import even when the branch is at the commit of the last sync, and over the space's own changes */
  @Optional() @IsBoolean() force?: boolean;
  /** Leave the imported content in an open change request instead of merging it into main */
  @Optional() @IsBoolean() standalone?: boolean;
  /** Deprecated; accepted and not used */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @Optional() @IsObject() gitInfo?: object;
}

export class ExportToGitRepositoryDto extends ImportGitRepositoryDto {
  /** Message of the commit the export makes */
  @IsString() @MinLength(1) @MaxLength(10_000) commitMessage: string;
}

// ---------------------------------------------------------------------------------------------
// Response (the official GitSyncState)

class GitSyncOperationDto {
  @ApiProperty({ enum: ['running', 'failure', 'success', 'timeout'] }) state: string;
  @ApiProperty({ enum: ['export', 'import'] }) direction: string;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) endedAt?: string;
  /** Why the operation failed, when it did */
  error?: string;
}

class GitSyncWebhookDto {
  /** The payload URL to give the Git host (GitHub, GitLab or Gitea push events, JSON) */
  url: string;
  /** The secret: GitHub's and Gitea's webhook secret, GitLab's secret token */
  secret: string;
}

export class GitSyncStateDto {
  /** Quire's connection of the space (one per space) */
  installationId: string;
  /** `gitlab` for a GitLab host, `github` for any other remote (the official enum has no generic value) */
  @ApiProperty({ enum: ['github', 'gitlab', 'github-legacy'] }) installationProvider: string;
  /** `unauthenticated` when the remote refused the credentials last time */
  @ApiProperty({ enum: ['unauthenticated', 'active', 'pending'] }) installationStatus: string;
  /** The repository's name (its path on the host) */
  repoName?: string;
  /** The repository's URL (without credentials) */
  url?: string;
  @ApiPropertyOptional({ type: GitSyncOperationDto }) operation?: GitSyncOperationDto;
  /** How long an operation may run before another process takes it over (milliseconds) */
  operationTimeout?: number;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
  /** Where the Git host sends push webhooks, and their secret (a Quire extension; shown to those who may edit) */
  @ApiPropertyOptional({ type: GitSyncWebhookDto }) webhook?: GitSyncWebhookDto;
}

class WebhookAnswerDto {
  /** `queued`: a push to the connected branch, imported next; `ignored`: another ref or event */
  @ApiProperty({ enum: ['queued', 'ignored'] }) status: string;
}

function stateDto(c: GitSyncConnection, operationTimeout: number, webhook: GitSyncWebhookDto | null): GitSyncStateDto {
  const url = new URL(c.remote.url);
  const op = c.operation;
  return {
    installationId: `git-${c.spaceId}`,
    installationProvider: /gitlab/i.test(url.hostname) ? 'gitlab' : 'github',
    installationStatus: op?.state === 'failure' && /refused the credentials/.test(op.error ?? '') ? 'unauthenticated' : 'active',
    repoName: url.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, ''),
    url: c.remote.url,
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
