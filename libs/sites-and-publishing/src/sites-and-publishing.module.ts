import { Module, OnModuleDestroy } from '@nestjs/common';
import { SitePermissionsController } from './http/site-permissions.controller';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { SpacesAndContentModule } from '@app/spaces-and-content';
import { PublishedSitesService } from './application/published-sites.service';
import { ShareLinksService } from './application/share-links.service';
import { SiteEvents } from './application/site-events';
import { SitesService } from './application/sites.service';
import { SiteRepository, SiteStateChanges, VisitorTokens } from './domain/site-repository';
import { PgSiteStateChanges } from './infrastructure/pg-site-state-changes';
import { SiteStates } from './application/site-states';
import { SitePageTexts } from './application/site-page-texts';
import { SiteContentSearchController } from './http/site-content-search.controller';
import { SiteModels } from './application/site-models';
import { VisitorGate } from './application/visitor-gate';
import { PageAssembler } from './application/page-assembler';
import { PublishedUrls } from './application/published-urls';
import { VisitorApiTokens } from './application/visitor-api-tokens';
import { VisitorReaders } from './application/visitor-readers';
import { PublishedUrlsController } from './http/published-urls.controller';
import { SitePages } from './http/site-pages';
import { SitePageRenderer } from './http/site-page.renderer';
import { SiteMachineFiles } from './http/site-machine-files';
import { SiteSearch } from './http/site-search';
import { SiteFeedback } from './http/site-feedback';
import { PageFeedbackController } from './http/page-feedback.controller';
import { StorageController } from './http/storage.controller';
import { CustomFontsController } from './http/custom-fonts.controller';
import { CustomFontsService } from './application/custom-fonts.service';
import { CustomFontRepository } from './domain/custom-fonts';
import { PgCustomFontRepository } from './infrastructure/custom-fonts.repository';
import { StorageService } from './application/storage.service';
import { StorageRepository } from './domain/storage';
import { PgStorageRepository } from './infrastructure/storage.repository';
import { SiteGitController } from './http/site-git.controller';
import { SiteRepositoryImport } from './application/site-repository-import';
import { SiteGitSyncRepository } from './domain/site-git-sync';
import { SqlSiteGitSyncRepository } from './infrastructure/site-git-sync.repository';
import { PageFeedbackService } from './application/page-feedback.service';
import { PageFeedbackRepository } from './domain/page-feedback';
import { PgPageFeedbackRepository } from './infrastructure/page-feedback.repository';
import { VisitorResponses } from './http/visitor-responses';
import { JoseVisitorTokens } from './infrastructure/jose-visitor-tokens';
import { ShareLinksController } from './http/share-links.controller';
import { SiteStructureController } from './http/site-structure.controller';
import { SitesController } from './http/sites.controller';
import { PublishedSitePresenter } from './http/published-site.presenter';
import { SitesFollowSpaces } from './application/sites-follow-spaces';
import { SitesFollowRepositories } from './application/sites-follow-repositories';
import { SqlSiteRepository } from './infrastructure/sites.repository';
import { AccessModule } from '@app/access';
import { OpenApiSpecsModule } from '@app/openapi-specs';
import { VisitorSitesService } from './application/visitor-sites.service';
import { SitePreviews } from './application/site-previews';
import { SitePreviewLinks } from './application/site-preview-links';
import { SitePreviewController } from './http/site-preview.controller';
import { VisitorSiteController } from './http/visitor-site.controller';
import { RedirectsController } from './http/redirects.controller';
import { CustomHostnamesController } from './http/custom-hostnames.controller';
import { SiteHostnames } from './application/site-hostnames';
import { RedirectsService } from './application/redirects.service';
import { SiteRedirects } from './domain/redirects';
import { SqlSiteRedirects } from './infrastructure/site-redirects.repository';
import { CodeHighlighter, MermaidDiagrams } from '@app/site-renderer';

import { SiteAnswerer, SiteAnswerSettings } from './application/site-answers';
import { SiteApiAnswers } from './application/site-api-answers';
import { ChatCompletionsAnswerer } from './infrastructure/chat-completions-answerer';

/** Sites, their structure, share links, adaptive schema, customization, and the published sites visitors read. */
@Module({
  imports: [AccessModule, SpacesAndContentModule, OrganizationsAndTeamsModule, OpenApiSpecsModule],
  controllers: [
    SitesController,
    SitePreviewController,
    SiteStructureController,
    ShareLinksController,
    SitePermissionsController,
    RedirectsController,
    CustomHostnamesController,
    PageFeedbackController,
    StorageController,
    CustomFontsController,
    SiteGitController,
    VisitorSiteController,
    SiteContentSearchController,
    PublishedUrlsController,
  ],
  providers: [
    PublishedSitePresenter,
    SitesService,
    ShareLinksService,
    PublishedSitesService,
    VisitorSitesService,
    SiteStates,
    SiteModels,
    SitePageTexts,
    VisitorGate,
    PageAssembler,
    SitePages,
    SitePageRenderer,
    SiteMachineFiles,
    SiteSearch,
    SiteFeedback,
    PageFeedbackService,
    StorageService,
    CustomFontsService,
    SiteRepositoryImport,
    { provide: SiteGitSyncRepository, useClass: SqlSiteGitSyncRepository },
    { provide: PageFeedbackRepository, useClass: PgPageFeedbackRepository },
    { provide: StorageRepository, useClass: PgStorageRepository },
    { provide: CustomFontRepository, useClass: PgCustomFontRepository },
    VisitorResponses,
    { provide: SiteStateChanges, useClass: PgSiteStateChanges },
    SitePreviews,
    SitePreviewLinks,
    VisitorApiTokens,
    VisitorReaders,
    PublishedUrls,
    RedirectsService,
    SiteHostnames,
    { provide: SiteRedirects, useClass: SqlSiteRedirects },
    SiteEvents,
    SitesFollowSpaces,
    SitesFollowRepositories,
    SiteApiAnswers,
    { provide: SiteRepository, useClass: SqlSiteRepository },
    { provide: VisitorTokens, useClass: JoseVisitorTokens },
    {
      provide: SiteAnswerer,
      useFactory: (settings?: SiteAnswerSettings) =>
        settings?.llm ? new ChatCompletionsAnswerer(settings.llm.url, settings.llm.model, settings.llm.apiKey) : null,
      inject: [{ token: SiteAnswerSettings, optional: true }],
    },
    { provide: MermaidDiagrams, useFactory: () => new MermaidDiagrams() },
  ],
  exports: [SitesService, SiteHostnames, SitePageTexts, VisitorReaders],
})
export class SitesAndPublishingModule implements OnModuleDestroy {
  /** The process's one highlighter (the core module provides it: the content context's app pages use it too). */
  constructor(private readonly highlighter: CodeHighlighter) {}

  /** The highlighter's background work (warm-up, code tokenized ahead) ends with the process. */
  onModuleDestroy(): Promise<void> {
    return this.highlighter.stop();
  }
}
