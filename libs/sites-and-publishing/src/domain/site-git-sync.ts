/**
 * What a site's last import from its repository recorded: where it came from (the URL without credentials;
 * each space's connection keeps them sealed) and, for each key of its configuration, the section, group or
 * site space it became (and a space node's space), so the next import updates them instead of adding new ones.
 */
export interface SiteGitSync {
  siteId: string;
  organizationId: string;
  url: string;
  ref: string;
  projectDirectory: string;
  configPath: string;
  commit: string;
  keys: Record<string, { id: string; spaceId?: string }>;
  updatedAt: Date;
}

export abstract class SiteGitSyncRepository {
  abstract load(siteId: string): Promise<SiteGitSync | null>;
  abstract save(sync: SiteGitSync): Promise<void>;
  /** The sites whose last import made (or kept) this space one of theirs. */
  abstract ofSpace(spaceId: string): Promise<SiteGitSync[]>;
}
