// The public surface of the sites-and-publishing context. Other contexts import only this file.
export { SitesAndPublishingModule } from './sites-and-publishing.module';
export { SitesService } from './application/sites.service';
export { SitePreviewSettings } from './application/site-previews';
export { SiteAnswerSettings } from './application/site-answers';
export { SiteStateSettings } from './application/site-states';
export { SiteHostnames } from './application/site-hostnames';
export { VisitorReaders } from './application/visitor-readers';
export { VISITOR_API_TOKEN_MAX, VISITOR_API_TOKEN_PREFIX } from './application/visitor-api-tokens';
export { SitePageTexts, pagePassages } from './application/site-page-texts';
export type { SitePageText, PagePassage } from './application/site-page-texts';
export type { SiteView } from './application/sites.service';
export type { Site } from './domain/site';
export { SITE_EVENT_TYPES } from './application/site-events';
export type { SiteEventType } from './application/site-events';
// The port itself, for tests that intercept a write.
export { SiteRepository } from './domain/site-repository';
export { SpaceRepositories } from './application/space-repositories';
export { SiteRepositorySource } from './application/site-repository-source';
export { SiteRepositoryImport } from './application/site-repository-import';
export type { PageEditLink, RepositoryRedirect } from './application/space-repositories';
