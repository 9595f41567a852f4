import { Global, Module } from '@nestjs/common';
import { REVIEW_EVENT_TYPES, ReviewAndCommentsModule, ReviewSpaceLifecycle } from '@app/review-and-comments';
import { SITE_EVENT_TYPES, SitesAndPublishingModule, SiteSpaceLifecycle } from '@app/sites-and-publishing';
import { OPENAPI_EVENT_TYPES } from '@app/openapi-specs';
import { CONVERSATION_EVENT_TYPES } from '@app/conversations';
import {
  CollectionsService,
  SpaceLifecycle,
  SpaceLifecycles,
  SpacesAndContentModule,
  SpacesService,
  SPACE_EVENT_TYPES,
} from '@app/spaces-and-content';
import { AuditScopes, WebhookEventTypes } from '@app/audit-and-webhooks';
import { TRANSLATION_EVENT_TYPES } from '@app/translations';

/**
 * The composition root of ports one context defines and others answer. The content context's SpaceLifecycle port: every context that keeps rows per
 * space provides its own adapter; here they become the one `SpaceLifecycle` SpacesService and
 * ContentService call inside the space's unit of work. A new context adds its adapter to the list.
 */
@Global()
@Module({
  imports: [ReviewAndCommentsModule, SitesAndPublishingModule, SpacesAndContentModule],
  providers: [
    {
      provide: SpaceLifecycle,
      useFactory: (...all: SpaceLifecycle[]) => new SpaceLifecycles(all),
      inject: [ReviewSpaceLifecycle, SiteSpaceLifecycle],
    },
    // The audit context's AuditScopes port: which organization a space or collection is in.
    {
      provide: AuditScopes,
      useFactory: (spaces: SpacesService, collections: CollectionsService): AuditScopes => ({
        organizationOf: (kind, id) => (kind === 'space' ? spaces.organizationOf(id) : collections.organizationOf(id)),
      }),
      inject: [SpacesService, CollectionsService],
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
  exports: [SpaceLifecycle, AuditScopes, WebhookEventTypes],
})
export class SpaceLifecycleModule {}
