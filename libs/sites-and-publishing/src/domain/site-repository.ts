import { Narrowing, Page, PageRequest } from '@app/shared-kernel';
import type { AdaptiveJsonSchema } from './adaptive';
import type { CustomizationOverride, CustomizationSettings } from './customization';
import type { Site, SiteType } from './site';

export const SHARE_LINK_NAME_MAX = 50;
/** What a share key can look like (Quire's are generated ids): anything else opens nothing, unread. */
export const SHARE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export interface ShareLink {
  id: string;
  organizationId: string;
  siteId: string;
  name: string;
  /** The secret a visitor presents as `shareKey`. */
  key: string;
  active: boolean;
  createdAt: Date;
}

export interface SiteFilter {
  spaceId?: string;
  title?: string;
  published?: boolean;
  types?: SiteType[];
  /** The sites the caller may see (a guest: those granted to them). */
  narrowing?: Narrowing;
}

/** Settings kept beside the site, read only by the operations that need them. */
export interface SiteSettings {
  adaptiveSchema: { jsonSchema: AdaptiveJsonSchema; updatedAt: Date } | null;
  customization: { settings: CustomizationSettings; updatedAt: Date } | null;
  /** Each site space's customization override, by site space id. */
  siteSpaceCustomizations: Record<string, CustomizationOverride>;
}

/** What every published read checks first: who owns the site, its version, whether and how it is published. */
export interface SiteState {
  organizationId: string;
  version: number;
  published: boolean;
  visibility: Site['visibility'];
  /** The key visitor tokens are signed with (visitor-auth sites); null until an admin reads it. */
  visitorAuthKey: string | null;
}

/** A site's state and whether the share key presented opens it. */
export interface PublishedState extends SiteState {
  /** True when the `shareKey` presented is the key of an active share link of this site. */
  keyValid: boolean;
}

/**
 * Port: tells this process that a site's state changed (its row: published, visibility, version, keys, share
 * links), so what it keeps in memory is dropped. The adapter that writes sites says so for its own process
 * once its write commits; the database says so to every process (a trigger on `sites` notifies; see
 * PgSiteStateChanges). `null`: any site may have changed (the channel was down and came back).
 */
export abstract class SiteStateChanges {
  private readonly handlers: ((siteId: string | null) => void)[] = [];

  subscribe(handler: (siteId: string | null) => void): void {
    this.handlers.push(handler);
  }

  changed(siteId: string | null): void {
    for (const h of this.handlers) h(siteId);
  }

  /** Whether changes made by other processes reach this one now (else what is kept expires by a short TTL). */
  abstract get connected(): boolean;
}

/** One process only (the CLI, adapter specs): every change is its own. */
export class LocalSiteStateChanges extends SiteStateChanges {
  get connected(): boolean {
    return true;
  }
}

/** Visitor authentication of a `visitor-auth` site (official SitePublishingAuth, backend `custom`). */
export interface PublishingAuth {
  privateKey: string;
  fallbackURL: string | null;
  logoutURL: string | null;
}

/** Port: checks a visitor token (a JWT signed with the site's key) and answers its claims, or null. */
export abstract class VisitorTokens {
  abstract verify(token: string, key: string, now: Date): Promise<Record<string, unknown> | null>;
}

export abstract class SiteRepository {
  abstract insert(site: Site): Promise<void>;
  abstract find(organizationId: string, siteId: string): Promise<Site | null>;
  /** A site by id alone (a visitor's request). */
  abstract findById(siteId: string): Promise<Site | null>;
  /** The site served at a custom hostname, in any organization (hostnames are unique). */
  abstract findByHostname(hostname: string): Promise<Site | null>;
  /** The site locked for a read-modify-write (inside a unit of work). */
  abstract findForUpdate(organizationId: string, siteId: string): Promise<Site | null>;
  /** Writes what changed between `before` (as read by findForUpdate) and `after`, and moves the version. */
  abstract save(before: Site, after: Site): Promise<void>;
  abstract delete(organizationId: string, siteId: string): Promise<boolean>;
  abstract list(organizationId: string, filter: SiteFilter, page: PageRequest): Promise<Page<Site>>;
  /** Sites showing any of these spaces, locked (SitesFollowSpaces changes them when a space goes). */
  abstract showingSpaces(spaceIds: string[]): Promise<Site[]>;
  /** Moves the version of every site showing this space (its title or content changed). */
  abstract touchShowing(spaceId: string): Promise<void>;
  abstract settings(siteId: string): Promise<SiteSettings>;
  abstract setAdaptiveSchema(siteId: string, jsonSchema: AdaptiveJsonSchema, at: Date): Promise<void>;
  abstract setCustomization(siteId: string, settings: CustomizationSettings, at: Date): Promise<void>;
  /** Writes (or, with null, removes) a site space's override and moves the site's version. */
  abstract setSiteSpaceCustomization(siteId: string, siteSpaceId: string, override: CustomizationOverride | null): Promise<void>;
  abstract publishingAuth(siteId: string): Promise<PublishingAuth | null>;
  /** Writes the visitor authentication settings and moves the site's version (a new key ends every old token). */
  abstract setPublishingAuth(siteId: string, auth: PublishingAuth): Promise<void>;
  /** The site's state, or null when there is no such site (read by SiteStates, which keeps it in memory). */
  abstract state(siteId: string): Promise<SiteState | null>;
  /** Whether `key` is the key of an active share link of the site. */
  abstract shareKeyActive(siteId: string, key: string): Promise<boolean>;

  /** `search`: names containing `text` (case-insensitive), and with `byKey` the link whose key is `text`. */
  abstract listShareLinks(siteId: string, page: PageRequest, search?: { text: string; byKey: boolean }): Promise<Page<ShareLink>>;
  abstract findShareLink(siteId: string, shareLinkId: string): Promise<ShareLink | null>;
  abstract insertShareLink(link: ShareLink): Promise<void>;
  abstract updateShareLink(link: ShareLink): Promise<void>;
  abstract deleteShareLink(siteId: string, shareLinkId: string): Promise<boolean>;
}
