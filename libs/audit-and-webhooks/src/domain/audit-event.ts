import type { Page, PageRequest } from '@app/shared-kernel';

/** Who made a change (official AuditEventActor types; Quire records users through the API and `system` for the CLI). */
export interface AuditActor {
  type: 'user' | 'system';
  id: string;
  label?: string;
}

/** What a change was made to: a kind of resource and its id (official AuditEventTarget). */
export interface AuditTarget {
  type: string;
  id: string;
  label?: string;
}

/** Where a change came in (official AuditEvent `source`): the HTTP API, or the administration CLI. */
export type AuditSource = 'api' | 'script';

/** One recorded write, as it is appended. Never updated, never deleted but by the retention purge. */
export interface NewAuditEvent {
  /** null for writes outside any organization (a user's own tokens, creating a user from the CLI). */
  organizationId: string | null;
  occurredAt: Date;
  /** Stable action id: the operationId of the API operation, or `cli.<command>`. */
  action: string;
  actor: AuditActor;
  /** The API token the actor used (null from the CLI). */
  tokenId: string | null;
  source: AuditSource;
  target: AuditTarget;
  /** The caller's address as the server saw it (behind a trusted proxy: X-Forwarded-For). */
  clientAddress: string | null;
  /** The request id echoed in `X-Request-Id` (executionId and correlationId of the event). */
  requestId: string | null;
  /** Allowlisted details: the route, its parameters and the response status — never request bodies. */
  payload: Record<string, unknown>;
}

export interface AuditEvent extends NewAuditEvent {
  id: string;
}

/** An action Quire records, with its label (official AuditEventAction). */
export interface AuditAction {
  id: string;
  label: string;
}

export interface AuditEventFilter {
  from?: Date;
  to?: Date;
  action?: string;
  actor?: string;
  target?: string;
}

export abstract class AuditEventRepository {
  /** Appends the event in the caller's unit of work: it commits with the write, or not at all. */
  abstract append(event: NewAuditEvent): Promise<string>;
  /** Newest first (occurrence time, then insertion order). */
  abstract list(organizationId: string, filter: AuditEventFilter, page: PageRequest): Promise<Page<AuditEvent>>;
  abstract get(organizationId: string, id: string): Promise<AuditEvent | null>;
  /** The retention purge, the only path that removes events: those that occurred before `cutoff`. */
  abstract purgeBefore(cutoff: Date): Promise<number>;
}

/**
 * Port answered by the contexts that own the resources: which organization a space or collection
 * belongs to (deleted ones included), so a write under `/spaces/{id}` is recorded for its organization.
 */
export abstract class AuditScopes {
  abstract organizationOf(kind: 'space' | 'collection', id: string): Promise<string | null>;
}

/** The kind of resource a path parameter names: `siteSectionGroupId` → `site-section-group`, `specSlug` → `openapi-spec`. */
export function targetTypeOf(param: string): string {
  if (param === 'specSlug') return 'openapi-spec';
  if (param === 'samlProviderId' || param === 'providerId') return 'saml-provider';
  return param
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}
