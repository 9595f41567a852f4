import { ConflictError, InvalidInputError, Narrowing, Page, PageRequest } from '@app/shared-kernel';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
export const SUBJECT_MAX = 100;
/** The longest a change request's description may be, as markdown (as a comment's body). */
export const CHANGE_REQUEST_DESCRIPTION_MAX = 100_000;

export interface ChangeRequest {
  id: string;
  organizationId: string;
  spaceId: string;
  /** Incremental within the space; usable in place of the id in paths. */
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description: object | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  mergedBy: string | null;
  mergedAt: Date | null;
  /** The change request's head revision. */
  revision: string;
  /** The space revision it was created from. */
  revisionInitial: string;
  /** The space revision it was last updated from (`update`). */
  revisionMergedAncestor: string | null;
  /** The space revision its merge produced. */
  revisionMerged: string | null;
  /** Users who wrote content into it. */
  contributors: string[];
  /** Open comments on it (kept by the comments of this context). */
  comments: number;
  /** The issues cluster (conversations) it addresses. */
  conversationsIssuesCluster: string | null;
}

/** The common ancestor of the change request and the space's main content. */
export function baseOf(cr: ChangeRequest): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

/** True exactly when main moved past the change request's base. */
export function isOutdated(cr: ChangeRequest, spaceRevision: string): boolean {
  return cr.status !== 'merged' && spaceRevision !== baseOf(cr);
}

/** Content can be written and merged only while the change request is open or a draft. */
export function requireWritable(cr: ChangeRequest): void {
  if (cr.status === 'merged') throw new ConflictError(`Change request #${cr.number} is already merged`);
  if (cr.status === 'archived') throw new ConflictError(`Change request #${cr.number} is archived; reopen it first`);
}

export function applyStatus(cr: ChangeRequest, status: ChangeRequestStatus): ChangeRequestStatus {
  if (status === 'merged') throw new InvalidInputError('status: merge a change request with POST …/merge');
  if (cr.status === 'merged') throw new ConflictError(`Change request #${cr.number} is merged; its status cannot change`);
  return status;
}

export interface ChangeRequestFilter {
  status: ChangeRequestStatus;
  creator?: string;
  contributor?: string;
  /** Change requests with a pending review request to this user. */
  requestedReviewer?: string;
  /** Change requests linked to this issues cluster. */
  conversationsIssuesCluster?: string;
}

/** The list of one space: newest first by number, or by `orderBy` (most recent first). */
export interface SpaceChangeRequestFilter extends ChangeRequestFilter {
  orderBy?: 'updatedAt' | 'createdAt';
}

/** The organization-wide list: several statuses, change requests of live spaces (or of one space). */
export interface OrganizationChangeRequestFilter extends Omit<ChangeRequestFilter, 'status'> {
  statuses: ChangeRequestStatus[];
  space?: string;
  orderBy: 'updatedAt' | 'createdAt';
  /** The spaces the caller may read (null: all). */
  narrowing: Narrowing;
}

export abstract class ChangeRequestRepository {
  abstract list(spaceId: string, filter: SpaceChangeRequestFilter, page: PageRequest): Promise<Page<ChangeRequest>>;
  /** Changes whenever the organization's list could show something else (stamps of its rows and marks). */
  abstract listVersion(organizationId: string): Promise<string>;
  /** Newest first by `orderBy`. */
  abstract listInOrganization(
    organizationId: string,
    filter: OrganizationChangeRequestFilter,
    page: PageRequest,
  ): Promise<Page<ChangeRequest>>;
  /** By id, or by number when `ref` is all digits. */
  abstract find(spaceId: string, ref: string): Promise<ChangeRequest | null>;
  /** Inserts with the next number of the space (numbers are never reused). */
  abstract insert(cr: Omit<ChangeRequest, 'number' | 'comments'>): Promise<ChangeRequest>;
  /** Writes subject, description and status as `after` has them, only if the row still has `before`'s status and head. */
  abstract updateFields(before: ChangeRequest, after: ChangeRequest): Promise<boolean>;
  /** Moves the head only if it is still `expected` (concurrent writers retry). */
  abstract compareAndSetRevision(
    id: string,
    expected: string,
    next: string,
    patch: { revisionMergedAncestor?: string; contributor?: string; at: Date },
  ): Promise<boolean>;
  /** Holds the change request's row until the unit of work ends: its writers take turns. */
  abstract lock(id: string): Promise<void>;
  /** Marks merged only if it is still open or a draft; false when someone else merged or closed it. */
  abstract markMerged(id: string, revisionMerged: string, by: string, at: Date): Promise<boolean>;
  abstract counts(spaceId: string): Promise<{ total: number; open: number; draft: number }>;
}
