import { Global, Module } from '@nestjs/common';
import { ReviewAndCommentsModule, ReviewSpaceLifecycle } from '@app/review-and-comments';
import { SitesAndPublishingModule, SiteSpaceLifecycle } from '@app/sites-and-publishing';
import { SpaceLifecycle, SpaceLifecycles } from '@app/spaces-and-content';

/**
 * The composition root of the content context's SpaceLifecycle port: every context that keeps rows per
 * space provides its own adapter; here they become the one `SpaceLifecycle` SpacesService and
 * ContentService call inside the space's unit of work. A new context adds its adapter to the list.
 */
@Global()
@Module({
  imports: [ReviewAndCommentsModule, SitesAndPublishingModule],
  providers: [
    {
      provide: SpaceLifecycle,
      useFactory: (...all: SpaceLifecycle[]) => new SpaceLifecycles(all),
      inject: [ReviewSpaceLifecycle, SiteSpaceLifecycle],
    },
  ],
  exports: [SpaceLifecycle],
})
export class SpaceLifecycleModule {}
