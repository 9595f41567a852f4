import { Injectable } from '@nestjs/common';
import { Actor, Clock, NotFoundError, TtlCache } from '@app/shared-kernel';
import { Access } from '@app/access';
import { HOSTNAME_PATTERN, Site } from '../domain/site';
import { SiteRepository, SiteStateChanges } from '../domain/site-repository';
import { SITE_ROLES, SitesService } from './sites.service';

/** How long a process trusts what it learned of a hostname (any change to a site drops it at once; this bounds a lost notification). */
const TTL_MS = 5_000;
const ENTRIES_MAX = 10_000;

/**
 * Custom hostnames: a site whose `hostname` is set answers at `https://{hostname}/` (Quire routes by the
 * Host header; TLS stays with the reverse proxy), and the official custom-hostname operations read and
 * remove them. Setting one is `PATCH …/sites/{id}` with `hostname` (a Quire extension: the official
 * document has no operation that sets it).
 */
@Injectable()
export class SiteHostnames {
  private readonly known = new TtlCache<string, string | null>(TTL_MS, ENTRIES_MAX);

  constructor(
    private readonly sites: SiteRepository,
    private readonly siteAccess: SitesService,
    private readonly access: Access,
    private readonly clock: Clock,
    changes: SiteStateChanges,
  ) {
    // A hostname moves with a change to a site's row: what this process learned of hostnames is dropped with
    // any site's state (here once the change commits, elsewhere when its notification arrives), so a warm page
    // is never kept for a hostname that has gone to another site.
    changes.subscribe(() => this.known.clear());
  }

  /** The site served at this Host (lowercase, no port), or null; cached for a few seconds either way. */
  async siteFor(host: string): Promise<string | null> {
    if (!HOSTNAME_PATTERN.test(host)) return null;
    const now = this.clock.now().getTime();
    const hit = this.known.get(host, now);
    if (hit !== undefined) return hit;
    const siteId = (await this.sites.findByHostname(host))?.id ?? null;
    this.known.set(host, siteId, now);
    return siteId;
  }

  /** Official getCustomHostname: the site a hostname points to, for a member of its organization (else 404). */
  async get(actor: Actor, hostname: string): Promise<Site> {
    const site = await this.sites.findByHostname(hostname.toLowerCase());
    if (!site || (await this.access.roleOf(site.organizationId, actor)) === null) throw new NotFoundError('Custom hostname', hostname);
    await this.siteAccess.siteRole(site.organizationId, actor, site.id, SITE_ROLES.read);
    return site;
  }

  /** Official removeCustomHostname: the site no longer answers at it (admin of the site); 'absent' when no site has it. */
  async remove(actor: Actor, hostname: string): Promise<'deleted' | 'absent'> {
    const site = await this.sites.findByHostname(hostname.toLowerCase());
    if (!site || (await this.access.roleOf(site.organizationId, actor)) === null) return 'absent';
    await this.siteAccess.update(actor, site.organizationId, site.id, { hostname: null });
    this.known.delete(site.hostname!);
    return 'deleted';
  }
}
