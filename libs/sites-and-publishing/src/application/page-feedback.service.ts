import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Actor, Clock, FixedWindows, IdGenerator, InvalidInputError, NotFoundError, Page, PageRequest } from '@app/shared-kernel';
import { commentOf, PageFeedback, PageFeedbackFilter, PageFeedbackRepository, ratingOf } from '../domain/page-feedback';
import { SITE_ROLES, SitesService } from './sites.service';
import type { LocatedPage } from './page-assembler';

/** Feedback one visitor (one client address) may give on one site per window; comments count too. */
export const FEEDBACK_PER_WINDOW = 20;
export const FEEDBACK_WINDOW_MS = 60 * 60_000;

/** A visitor over FEEDBACK_PER_WINDOW: answered 429 with `Retry-After`. */
export class TooMuchFeedback extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too much feedback from here: try again later');
  }
}

/**
 * Page feedback: visitors give it on a page they can see (the caller found it through the page pipeline, so
 * the site's gate, its hidden pages and the visitor's claims apply), without an account, a bounded number of
 * times per hour; members with the site's read role list it. The client address is only counted, in this
 * process's memory, under a hash: it is never stored.
 */
@Injectable()
export class PageFeedbackService {
  private readonly windows = new FixedWindows(FEEDBACK_WINDOW_MS);

  constructor(
    private readonly feedback: PageFeedbackRepository,
    private readonly siteAccess: SitesService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** A rating (and maybe a comment) on the page: the new feedback, with the key that adds its comment later. */
  async give(located: LocatedPage, input: { rating: unknown; comment?: unknown }, client: string): Promise<PageFeedback> {
    const rating = ratingOf(input.rating);
    const comment = commentOf(input.comment);
    this.count(located.view.site.id, client);
    const feedback: PageFeedback = {
      id: this.ids.next(),
      organizationId: located.view.site.organizationId,
      siteId: located.view.site.id,
      spaceId: located.location.space.id,
      pageId: located.page.node.id,
      pagePath: located.page.path,
      rating,
      comment,
      commentKey: this.ids.next(),
      createdAt: this.clock.now(),
    };
    await this.feedback.insert(feedback);
    return feedback;
  }

  /** The comment of a feedback given before without one (the script's second step); the key proves it is the same visitor's. */
  async comment(siteId: string, input: { id: unknown; key: unknown; comment: unknown }, client: string): Promise<void> {
    if (typeof input.id !== 'string' || typeof input.key !== 'string' || input.id.length > 64 || input.key.length > 64)
      throw new InvalidInputError('id and key must be the feedback’s, as given');
    const comment = commentOf(input.comment);
    if (comment === null) throw new InvalidInputError('comment must not be empty');
    this.count(siteId, client);
    if (!(await this.feedback.addComment(siteId, input.id, input.key, comment)))
      throw new NotFoundError('A feedback of this site without a comment, with this key,');
  }

  async list(
    actor: Actor,
    organizationId: string,
    siteId: string,
    filter: PageFeedbackFilter,
    page: PageRequest,
  ): Promise<Page<PageFeedback>> {
    await this.siteAccess.siteRole(organizationId, actor, siteId, SITE_ROLES.read);
    const site = await this.siteAccess.found(organizationId, siteId);
    return this.feedback.list(site.id, filter, page);
  }

  private count(siteId: string, client: string): void {
    const key = createHash('sha256').update(`${siteId} ${client}`).digest('base64url');
    const now = this.clock.now().getTime();
    if (this.windows.count(key, now) >= FEEDBACK_PER_WINDOW) throw new TooMuchFeedback(this.windows.retryAfter(key, now));
    this.windows.hit(key, now);
  }
}
