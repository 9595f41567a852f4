/**
 * Port (answered by the sites context): the organization a site belongs to, so sites can be shared
 * like spaces and collections (official inviteToSite …). Without it, sites cannot be granted.
 */
export abstract class SiteDirectory {
  abstract organizationOf(siteId: string): Promise<string | null>;
}
