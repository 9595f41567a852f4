/** Who is calling: the authenticated user behind the Bearer token, or a published site's visitor (`reader`). */
export interface Actor {
  userId: string;
  tokenId: string;
  /**
   * Set when the token was issued by an SSO login: the organization it is limited to. Every other
   * organization, and everything in it, is out of reach (404), as if the user were not a member.
   */
  scope?: string;
  /**
   * Set for a published site's visitor (the short-lived `apiToken` of resolvePublishedContentByUrl): no user,
   * a member of nothing, who reads the spaces the site shows them, as the site shows them, through the few
   * content reads marked for it, and nothing else.
   */
  reader?: ReaderScope;
}

/**
 * What a site's visitor may read: the spaces the site shows them, each at the revision it shows, the pages their
 * claims leave in it, and the outcome of a condition for their claims (conditional blocks). Built by the sites
 * context for each request (the site's state decides anew: an unpublished site or a revoked key reads nothing).
 */
export interface ReaderScope {
  siteId: string;
  organizationId: string;
  /** The spaces the site shows this visitor: space id → the revision it shows. */
  spaces: ReadonlyMap<string, string>;
  /** The ids of the pages of the space's shown revision this visitor sees (a hidden page's pages are hidden too). */
  pages(spaceId: string): Promise<ReadonlySet<string>>;
  /** Whether a condition (`visitor.claims.…`) holds for this visitor; one that does not parse does not. */
  holds(expression: string): boolean;
}

/** Whether the caller's token reaches an organization at all (a scoped token reaches only its own; a visitor's, none). */
export function reaches(actor: Actor, organizationId: string): boolean {
  if (actor.reader) return false;
  return actor.scope === undefined || actor.scope === organizationId;
}
