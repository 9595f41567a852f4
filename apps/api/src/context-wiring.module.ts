import { Global, Module } from '@nestjs/common';
import { REVIEW_EVENT_TYPES } from '@app/review-and-comments';
import { SITE_EVENT_TYPES, SiteRepositorySource, SpaceRepositories } from '@app/sites-and-publishing';
import { RepositoriesForSites, RepositorySyncModule } from '@app/repository-sync';
import { OPENAPI_EVENT_TYPES } from '@app/openapi-specs';
import { CONVERSATION_EVENT_TYPES } from '@app/conversations';
import { CollectionsService, SpacesAndContentModule, SpacesService, SPACE_EVENT_TYPES } from '@app/spaces-and-content';
import { AuditScopes, WebhookEventTypes } from '@app/audit-and-webhooks';
import { TRANSLATION_EVENT_TYPES } from '@app/translations';

/**
 * The composition root of the ports a context declares and a higher one answers: which organization a space or
 * collection is in, and the domain event types webhooks may subscribe to (audit-and-webhooks); what a
 * space's repository gives its site (redirects, edit links) (sites-and-publishing, answered by repository-sync). (What other contexts do when
 * a space changes is not wired here: they record the space events themselves.)
 */
@Global()
@Module({
  imports: [SpacesAndContentModule, RepositorySyncModule],
  providers: [
    // The audit context's AuditScopes port: which organization a space or collection is in.
    {
      provide: AuditScopes,
      useFactory: (spaces: SpacesService, collections: CollectionsService): AuditScopes => ({
        organizationOf: (kind, id) => (kind === 'space' ? spaces.organizationOf(id) : collections.organizationOf(id)),
      }),
      inject: [SpacesService, CollectionsService],
    },
    // The published site's SpaceRepositories port: the `.gitbook.yaml` redirects a repository import kept, and
    // where each page is edited on the Git host of the branch its space is connected to.
    {
      provide: SpaceRepositories,
      useFactory: (repositories: RepositoriesForSites): SpaceRepositories => repositories,
      inject: [RepositoriesForSites],
    },
    // The SiteRepositorySource port: a site whose structure comes from its repository reads it, and connects its spaces.
    {
      provide: SiteRepositorySource,
      useFactory: (repositories: RepositoriesForSites): SiteRepositorySource => repositories,
      inject: [RepositoriesForSites],
    },
    // The webhooks' WebhookEventTypes port: the domain events of every context. A new context adds its list.
    {
      provide: WebhookEventTypes,
      useValue: {
        types: [
          ...SPACE_EVENT_TYPES,
          ...TRANSLATION_EVENT_TYPES,
          ...REVIEW_EVENT_TYPES,
          ...SITE_EVENT_TYPES,
          ...OPENAPI_EVENT_TYPES,
          ...CONVERSATION_EVENT_TYPES,
        ],
      },
    },
  ],
  exports: [AuditScopes, WebhookEventTypes, SpaceRepositories, SiteRepositorySource],
})
export class ContextWiringModule {}
