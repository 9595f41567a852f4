import { ComputedContentController } from './computed/computed-content.controller';
import { PageMetaLinksController } from './computed/page-meta-links.controller';
import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailSettings, OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { appRoot } from './auth/sign-in-link';
import {
  Clock,
  DomainEvents,
  HostResolver,
  SecretBox,
  IdGenerator,
  InProcessDomainEvents,
  JobQueue,
  RandomIdGenerator,
  SystemClock,
  SystemHostResolver,
} from '@app/shared-kernel';
import {
  CollectorSettings,
  EmbedSettings,
  FilesSettings,
  FileStorageDirectory,
  FileStorageSettings,
  SearchSettings,
  SpacesAndContentModule,
} from '@app/spaces-and-content';
import { FrontDoor, ReadCacheSettings } from '@app/http-kit';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ReviewAndCommentsModule } from '@app/review-and-comments';
import { SiteAnswerSettings, SitePreviewSettings, SitesAndPublishingModule, SiteStateSettings } from '@app/sites-and-publishing';
import { OpenApiSettings, OpenApiSpecsModule } from '@app/openapi-specs';
import { ConversationsModule, ConversationsSettings } from '@app/conversations';
import { InsightsSettings, SiteInsightsModule } from '@app/site-insights';
import { TranslationSettings, TranslationsModule } from '@app/translations';
import { RepositorySyncModule, GitSyncSettings } from '@app/repository-sync';
import { ContextWiringModule } from './context-wiring.module';
import { AuditAndWebhooksModule, AuditSettings, WebhookSettings } from '@app/audit-and-webhooks';
import { PersistenceModule } from '@app/persistence';
import { Authenticator, BearerAuthGuard } from './auth/bearer-auth.guard';
import { AuthFailureLimiter } from './auth/auth-failures';
import { BootstrapService } from './auth/bootstrap.service';
import { RateLimitGuard } from './auth/rate-limit.guard';
import type { QuireConfig } from './config';
import { dataSourceOptions } from './database/data-source';
import { HealthController } from './health/health.controller';
import { ApiInformation, ApiInformationController } from './health/api-information.controller';
import { apiInformation } from './health/api-information';
import { McpController } from './mcp/mcp.controller';
import { AccessModule } from '@app/access';
import { InternalHttp } from './mcp/internal-http';
import { ErrorEnvelopeFilter } from './http/error.filter';
import { JobsService } from './jobs/jobs.service';
import { MetricsService } from './metrics/metrics.service';
import { DATABASE_URL, QUIRE_CONFIG } from './tokens';
import { AesGcmSecretBox, keyringFor } from './secrets';
import { AccessCacheSettings } from '@app/access';
import { CodeHighlighter } from '@app/site-renderer';

/** Ports every context shares: time, identifiers, configuration. Tests override Clock here. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: QuireConfig, databaseUrl: string): DynamicModule {
    // Signs file download URLs, site preview links and visitors' API tokens. Without QUIRE_FILE_SIGNING_SECRET each process signs
    // with its own random secret (fine for one process).
    const urlSigningSecret = config.fileSigningSecret ?? randomBytes(32).toString('hex');
    return {
      module: CoreModule,
      providers: [
        { provide: Clock, useClass: SystemClock },
        {
          provide: DomainEvents,
          useFactory: () => {
            const logger = new Logger('DomainEvents');
            return new InProcessDomainEvents((e, event) =>
              logger.error(`a handler of ${event.type} failed: ${e instanceof Error ? e.message : String(e)}`),
            );
          },
        },
        { provide: IdGenerator, useClass: RandomIdGenerator },
        { provide: HostResolver, useClass: SystemHostResolver },
        { provide: SecretBox, useFactory: () => new AesGcmSecretBox(keyringFor(config)) },
        {
          provide: AccessCacheSettings,
          useValue: { tokenTtlMs: config.tokenCacheTtlMs, roleTtlMs: config.roleCacheTtlMs, maxEntries: 50_000 },
        },
        { provide: QUIRE_CONFIG, useValue: config },
        { provide: FileStorageDirectory, useValue: { path: join(config.dataDir, 'files') } },
        { provide: FileStorageSettings, useValue: { s3: config.s3 } },
        {
          provide: FilesSettings,
          useValue: {
            signingSecret: urlSigningSecret,
            downloadTtlMs: 60 * 60_000,
            urlAllowlist: config.fileUrlAllowlist,
            allowPrivateNetworks: config.fileUrlAllowPrivate,
            presignedDownloads: config.presignedDownloads,
          },
        },
        // Site preview links (urls.preview) are signed with the same secret, under their own label.
        { provide: SitePreviewSettings, useValue: { signingSecret: urlSigningSecret, ttlMs: 60 * 60_000 } },
        { provide: SearchSettings, useValue: { concurrency: config.searchConcurrency, resultCacheEntries: config.searchCacheEntries } },
        { provide: ReadCacheSettings, useValue: { maxBytes: config.readCacheMb * 1024 * 1024 } },
        // One highlighter per process (its grammars load once, on first use): published pages and the app's pages.
        { provide: CodeHighlighter, useFactory: () => CodeHighlighter.create() },
        // Published pages kept whole, answered before the framework: a quarter of the read cache.
        { provide: FrontDoor, useValue: new FrontDoor(Math.floor((config.readCacheMb * 1024 * 1024) / 4)) },
        { provide: DATABASE_URL, useValue: databaseUrl },
        { provide: TranslationSettings, useValue: config.translation },
        {
          provide: EmbedSettings,
          useValue: { privateHostAllowlist: config.embedPrivateHosts, timeoutMs: 10_000, fetchesPerMinute: config.embedFetchesPerMinute },
        },
        {
          provide: MailSettings,
          useValue: { smtpUrl: config.smtp.url, from: config.smtp.from, appUrl: appRoot(config) },
        },
        {
          provide: GitSyncSettings,
          useValue: {
            allowlist: config.gitUrlAllowlist,
            maxBytes: 512 * 1024 * 1024,
            timeoutMs: 120_000,
            operationTimeoutMs: 15 * 60_000,
            pollMs: config.gitPollSeconds * 1000,
            hosts: config.gitHosts,
          },
        },
        { provide: AuditSettings, useValue: { retentionDays: config.auditRetentionDays } },
        { provide: CollectorSettings, useValue: { graceMs: config.gcGraceHours * 3_600_000, batch: config.gcBatch } },
        { provide: WebhookSettings, useValue: { allowlist: config.webhookAllowlist } },
        { provide: ConversationsSettings, useValue: { llm: config.conversationsLlm } },
        { provide: InsightsSettings, useValue: config.insights },
        { provide: SiteAnswerSettings, useValue: { llm: config.answersLlm } },
        { provide: SiteStateSettings, useValue: { ttlMs: config.siteStateTtlMs, connectedTtlMs: 60_000 } },
        {
          provide: OpenApiSettings,
          useValue: { privateHostAllowlist: config.openApiPrivateHosts, fetchTimeoutMs: config.openApiFetchTimeoutMs },
        },
      ],
      exports: [
        CodeHighlighter,
        Clock,
        DomainEvents,
        IdGenerator,
        HostResolver,
        SecretBox,
        AccessCacheSettings,
        QUIRE_CONFIG,
        DATABASE_URL,
        FileStorageDirectory,
        FileStorageSettings,
        FilesSettings,
        SitePreviewSettings,
        SearchSettings,
        ReadCacheSettings,
        FrontDoor,
        OpenApiSettings,
        TranslationSettings,
        EmbedSettings,
        MailSettings,
        GitSyncSettings,
        ConversationsSettings,
        InsightsSettings,
        AuditSettings,
        CollectorSettings,
        SiteAnswerSettings,
        SiteStateSettings,
        WebhookSettings,
      ],
    };
  }
}

/** Background jobs: the JobQueue port every context sends to and registers its handlers with. */
@Global()
@Module({
  imports: [SpacesAndContentModule],
  providers: [JobsService, { provide: JobQueue, useExisting: JobsService }],
  exports: [JobsService, JobQueue],
})
export class JobsModule {}

@Module({})
export class AppModule {
  static forRoot(config: QuireConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, databaseUrl),
        TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl), autoLoadEntities: true }),
        PersistenceModule,
        OrganizationsAndTeamsModule,
        SpacesAndContentModule,
        TranslationsModule,
        ReviewAndCommentsModule,
        SitesAndPublishingModule,
        OpenApiSpecsModule,
        ConversationsModule,
        SiteInsightsModule,
        AuditAndWebhooksModule,
        RepositorySyncModule,
        ContextWiringModule,
        JobsModule,
        AccessModule,
      ],
      controllers: [HealthController, ApiInformationController, McpController, ComputedContentController, PageMetaLinksController],
      providers: [
        InternalHttp,
        { provide: ApiInformation, useValue: apiInformation(config) },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        // Every authenticated write records its audit event in its own transaction.
        BootstrapService,
        AuthFailureLimiter,
        Authenticator,
        ...(config.metrics ? [MetricsService] : []),
      ],
    };
  }
}
