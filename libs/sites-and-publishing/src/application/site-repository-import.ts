import { Injectable } from '@nestjs/common';
import { posix } from 'node:path';
import { Actor, Clock, IdGenerator, InvalidInputError, NotFoundError, UnitOfWork } from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import { configSpaces, readSiteConfig, SITE_CONFIG_FILES, structureFromConfig } from '../domain/site-config';
import { SiteGitSyncRepository } from '../domain/site-git-sync';
import { SiteRepositorySource } from './site-repository-source';
import { SITE_ROLES, SitesService } from './sites.service';

export interface SiteImportInput {
  /** The repository's URL (credentials in it are handed to each space's Git Sync, kept sealed there). */
  url: string;
  ref: string;
  repoProjectDirectory?: string;
}

export interface SiteImportResult {
  configPath: string;
  commit: string;
  spaces: { key: string; spaceId: string; created: boolean; directory: string | null }[];
  notes: string[];
}

/**
 * A whole site from one repository (#49 §5): the `gitbook-docs.yaml` (or `docs.yaml`) at the top of the site's
 * project directory makes the site's structure (sections, section groups, site spaces and their paths,
 * defaults and conditions, the site's title) and names each space's content directory and language. Each key
 * of the file keeps what it became, so importing again updates the same sections and spaces: a space is
 * created once, then renamed or given its language as the file says; site spaces the file no longer names
 * leave the site (their spaces stay). Every space with a directory is connected to it by Git Sync and
 * imported in the background, as `POST /spaces/{id}/git/import` would.
 */
@Injectable()
export class SiteRepositoryImport {
  constructor(
    private readonly sites: SitesService,
    private readonly spaces: SpacesService,
    private readonly source: SiteRepositorySource,
    private readonly syncs: SiteGitSyncRepository,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async import(actor: Actor, organizationId: string, siteId: string, input: SiteImportInput): Promise<SiteImportResult> {
    const project = projectDirectory(input.repoProjectDirectory);
    // The checks and the repository's read come first, outside the unit of work (no connection, no lock held
    // while the remote answers); a caller who may not do this never makes Quire read the remote.
    const { site, found, config, known } = await this.uow.outside(async () => {
      await this.sites.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
      const site = await this.sites.found(organizationId, siteId);
      const names = SITE_CONFIG_FILES.map((f) => (project ? `${project}/${f}` : f));
      const found = await this.source.readFirst(input.url, input.ref, names);
      if (!found)
        throw new InvalidInputError(
          `No ${SITE_CONFIG_FILES.join(' or ')} in ${project || 'the top of the repository'} on ${input.ref}: a repository without one is one space (POST /v1/spaces/{spaceId}/git/import)`,
        );
      const config = readSiteConfig(found.text, found.path, project);
      return { site, found, config, known: (await this.syncs.load(site.id))?.keys ?? {} };
    });
    return this.uow.run(async () => {
      const spaces: SiteImportResult['spaces'] = [];
      for (const node of configSpaces(config)) {
        let spaceId = known[node.key]?.spaceId;
        if (spaceId !== undefined) {
          try {
            const { space } = await this.spaces.getLive(actor, spaceId);
            const language = node.language ?? space.language ?? undefined;
            if (space.title !== node.title || (space.language ?? undefined) !== language)
              await this.spaces.update(actor, spaceId, { title: node.title, ...(language ? { language } : {}) });
          } catch (e) {
            if (!(e instanceof NotFoundError)) throw e;
            spaceId = undefined; // deleted since: made again
          }
        }
        const created = spaceId === undefined;
        if (spaceId === undefined)
          spaceId = (
            await this.spaces.create(actor, organizationId, { title: node.title, ...(node.language ? { language: node.language } : {}) })
          ).space.id;
        spaces.push({ key: node.key, spaceId, created, directory: node.directory });
      }
      const keys: Record<string, { id: string; spaceId?: string }> = {};
      const idOf = (key: string) => (keys[key] ??= { id: known[key]?.id ?? this.ids.next() }).id;
      const spaceOf = (key: string) => {
        const spaceId = spaces.find((s) => s.key === key)!.spaceId;
        keys[key] = { id: idOf(key), spaceId };
        return spaceId;
      };
      const structure = structureFromConfig(config, idOf, spaceOf);
      await this.sites.replaceStructure(actor, organizationId, siteId, structure, config.title);
      await this.syncs.save({
        siteId: site.id,
        organizationId,
        url: withoutCredentials(input.url),
        ref: input.ref,
        projectDirectory: project,
        configPath: found.path,
        commit: found.commit,
        keys,
        updatedAt: this.clock.now(),
      });
      for (const s of spaces)
        if (s.directory !== null)
          await this.source.connectSpace(actor, s.spaceId, { url: input.url, ref: input.ref, directory: s.directory });
      return { configPath: found.path, commit: found.commit, spaces, notes: config.notes };
    });
  }
}

/** The site's folder in the repository: no leading or trailing slash, no `..`. */
function projectDirectory(raw: string | undefined): string {
  if (raw === undefined || raw === '' || raw === '.' || raw === './') return '';
  if (raw.split(/[\\/]/).includes('..') || raw.includes('\0'))
    throw new InvalidInputError('repoProjectDirectory must be a folder of the repository (no "..")');
  return posix
    .normalize(raw)
    .replace(/^\/+|\/+$/g, '')
    .replace(/^\.$/, '');
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}
