import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsISO8601, IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from '@app/http-kit';

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

export class GitSyncOperationDto {
  @ApiProperty({ enum: ['running', 'failure', 'success', 'timeout'] }) state: string;
  @ApiProperty({ enum: ['export', 'import'] }) direction: string;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) endedAt?: string;
  /** Why the operation failed, when it did */
  error?: string;
}

export class GitSyncWebhookDto {
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
  /** The connected branch, `refs/heads/…` (a Quire extension: an export or import now goes to the same one) */
  ref?: string;
  /** The project's folder in the repository, when it is not the top (a Quire extension) */
  repoProjectDirectory?: string;
  @ApiPropertyOptional({ type: GitSyncOperationDto }) operation?: GitSyncOperationDto;
  /** How long an operation may run before another process takes it over (milliseconds) */
  operationTimeout?: number;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
  /** Where the Git host sends push webhooks, and their secret (a Quire extension; shown to those who may edit) */
  @ApiPropertyOptional({ type: GitSyncWebhookDto }) webhook?: GitSyncWebhookDto;
}

export class WebhookAnswerDto {
  /** `queued`: a push to the connected branch, imported next; `ignored`: another ref or event */
  @ApiProperty({ enum: ['queued', 'ignored'] }) status: string;
}
