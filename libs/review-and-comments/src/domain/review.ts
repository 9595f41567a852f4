import { Page, PageRequest } from '@app/shared-kernel';

/** Reviews of change requests and review requests (official ChangeRequestReview, ChangeRequestRequestedReviewer). */

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export interface Review {
  id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  reviewer: string;
  /** Who asked for it (null: left without a request). */
  requestedBy: string | null;
  status: ReviewStatus;
  /** The change request's head the review was made against. */
  revision: string;
  /** The comment submitted with it, if any. */
  commentId: string | null;
  /** Superseded by a newer submission of the reviewer, or by a newer request to them. */
  outdated: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReviewRequest {
  changeRequestId: string;
  userId: string;
  requestedBy: string;
  revision: string;
  createdAt: Date;
}

export abstract class ReviewRepository {
  abstract insert(review: Review): Promise<void>;
  abstract find(changeRequestId: string, id: string): Promise<Review | null>;
  abstract list(changeRequestId: string, filter: { outdated?: boolean }, page: PageRequest): Promise<Page<Review>>;
  /** The reviews that still count (not outdated). */
  abstract current(changeRequestId: string): Promise<Review[]>;
  /** Marks the user's reviews of the change request outdated. */
  abstract supersede(changeRequestId: string, reviewer: string, at: Date): Promise<void>;
  abstract requests(changeRequestId: string, page: PageRequest): Promise<Page<ReviewRequest>>;
  /** Asks these users (again): one pending request per user, the newest wins. */
  abstract request(requests: ReviewRequest[]): Promise<void>;
  /** Removes the user's pending request; returns it (null when there was none). */
  abstract takeRequest(changeRequestId: string, userId: string): Promise<ReviewRequest | null>;
}

/** A merge rule of the official MergeRule union (custom expressions are refused where rules are set). */
export interface MergeRuleInput {
  rule: string;
  users?: string[];
}

export interface MergeContext {
  /** Reviews that count (not outdated). */
  reviews: Pick<Review, 'reviewer' | 'status'>[];
  author: string;
  merger: string;
  /** Main moved past the change request's base. */
  outdated: boolean;
  subject: string;
  hasDescription: boolean;
}

/**
 * The first rule the merge does not meet, as a message naming it (null: the merge may go ahead).
 * `allow_bypass` lets its users merge whatever the other rules say. Quire has no review agent, so
 * `require_agent_review` is never met.
 */
export function unmetMergeRule(rules: MergeRuleInput[], ctx: MergeContext): string | null {
  if (rules.some((r) => r.rule === 'allow_bypass' && r.users?.includes(ctx.merger))) return null;
  const approved = new Set(ctx.reviews.filter((r) => r.status === 'approved').map((r) => r.reviewer));
  for (const r of rules) {
    const unmet = (why: string) => `Merge rule "${r.rule}" is not met: ${why}`;
    switch (r.rule) {
      case 'require_at_least_one_review':
        if (ctx.reviews.length === 0) return unmet('the change request has no review');
        break;
      case 'require_at_least_one_approved_review':
        if (approved.size === 0) return unmet('no review approves the change request');
        break;
      case 'require_all_reviews_approved':
        if (ctx.reviews.length === 0 || ctx.reviews.some((x) => x.status !== 'approved'))
          return unmet(ctx.reviews.length === 0 ? 'the change request has no review' : 'a review requests changes');
        break;
      case 'require_specific_reviewers': {
        const missing = (r.users ?? []).filter((u) => !approved.has(u));
        if (missing.length) return unmet(`no approval yet from ${missing.join(', ')}`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!(r.users ?? []).some((u) => approved.has(u))) return unmet(`an approval from one of ${(r.users ?? []).join(', ')} is needed`);
        break;
      case 'require_agent_review':
        return unmet('Quire has no review agent');
      case 'require_up_to_date_change_request':
        if (ctx.outdated) return unmet('the change request is behind the space (update it first)');
        break;
      case 'require_change_request_subject':
        if (!ctx.subject.trim()) return unmet('the change request has no subject');
        break;
      case 'require_change_request_description':
        if (!ctx.hasDescription) return unmet('the change request has no description');
        break;
      case 'require_author_to_merge':
        if (ctx.merger !== ctx.author) return unmet('only the author merges');
        break;
      case 'allow_bypass':
        break;
      default:
        return unmet('Quire does not evaluate this rule');
    }
  }
  return null;
}
