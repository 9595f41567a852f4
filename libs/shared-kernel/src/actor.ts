/** Who is calling: the authenticated user behind the Bearer token. */
export interface Actor {
  userId: string;
  tokenId: string;
  /**
   * Set when the token was issued by an SSO login: the organization it is limited to. Every other
   * organization, and everything in it, is out of reach (404), as if the user were not a member.
   */
  scope?: string;
}

/** Whether the caller's token reaches an organization at all (a scoped token reaches only its own). */
export function reaches(actor: Actor, organizationId: string): boolean {
  return actor.scope === undefined || actor.scope === organizationId;
}
