import { InvalidInputError, type Page, type PageRequest } from '@app/shared-kernel';

/**
 * Page feedback (#49): what a visitor of a published page says of it, with no account. The official
 * `PageFeedbackRating` (good, ok, bad: "Was this helpful?") and an optional comment (the official
 * `page_post_feedback_comment`: 1 to 512 characters). Shown when the site's customization enables it
 * (official `feedback.enabled`). Nothing of the visitor is kept: no address, no user agent, no cookie.
 */
export const PAGE_FEEDBACK_RATINGS = ['good', 'ok', 'bad'] as const;
export type PageFeedbackRating = (typeof PAGE_FEEDBACK_RATINGS)[number];
export const FEEDBACK_COMMENT_MAX = 512;

export interface PageFeedback {
  id: string;
  organizationId: string;
  siteId: string;
  spaceId: string;
  pageId: string;
  /** The page's path below the site's root when the feedback was given (`guides/setup`). */
  pagePath: string;
  rating: PageFeedbackRating;
  comment: string | null;
  /** What the visitor's browser shows to add a comment to this feedback later (the script's second step); never listed. */
  commentKey: string;
  createdAt: Date;
}

export interface PageFeedbackFilter {
  rating?: PageFeedbackRating;
  spaceId?: string;
  pageId?: string;
  /** Only feedback with a comment. */
  commented?: boolean;
}

export abstract class PageFeedbackRepository {
  abstract insert(feedback: PageFeedback): Promise<void>;
  /** Sets the comment of a feedback that has none yet, when the key is its own: false otherwise. */
  abstract addComment(siteId: string, id: string, commentKey: string, comment: string): Promise<boolean>;
  /** Newest first. */
  abstract list(siteId: string, filter: PageFeedbackFilter, page: PageRequest): Promise<Page<PageFeedback>>;
}

/** A rating as the visitor's form or script sends it. */
export function ratingOf(value: unknown): PageFeedbackRating {
  if (typeof value !== 'string' || !(PAGE_FEEDBACK_RATINGS as readonly string[]).includes(value))
    throw new InvalidInputError(`rating must be one of ${PAGE_FEEDBACK_RATINGS.join(', ')}`);
  return value as PageFeedbackRating;
}

/**
 * A comment as sent: trimmed, with Windows line ends made plain; absent or empty is no comment. Control
 * characters but line ends and tabs (a NUL byte among them) are refused, as are more than FEEDBACK_COMMENT_MAX
 * characters.
 */
export function commentOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new InvalidInputError('comment must be a string');
  const text = value.replace(/\r\n?/g, '\n').trim();
  if (!text) return null;
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) throw new InvalidInputError('comment must not hold control characters');
  if ([...text].length > FEEDBACK_COMMENT_MAX) throw new InvalidInputError(`comment must be at most ${FEEDBACK_COMMENT_MAX} characters`);
  return text;
}
