import { Injectable, Logger } from '@nestjs/common';
import { posix } from 'node:path';
import { Actor, Clock, IdGenerator, InvalidInputError, NotFoundError, UnitOfWork } from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import {
  configSpaces,
  readSiteConfig,
  SITE_CONFIG_FILES,
  structureFromConfig,
  writeSiteConfig,
  type WrittenSpace,
} from '../domain/site-config';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
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
  private readonly logger = new Logger('Sites');

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
    const { site, found, config } = await this.uow.outside(async () => {
      await this.sites.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
      const site = await this.sites.found(organizationId, siteId);
      const names = SITE_CONFIG_FILES.map((f) => (project ? `${project}/${f}` : f));
      const found = await this.source.readFirst(input.url, input.ref, names);
      if (!found)
        throw new InvalidInputError(
          `No ${SITE_CONFIG_FILES.join(' or ')} in ${project || 'the top of the repository'} on ${input.ref}: a repository without one is one space (POST /v1/spaces/{spaceId}/git/import)`,
        );
      const config = readSiteConfig(found.text, found.path, project);
      return { site, found, config };
    });
    const origin = { url: input.url, ref: input.ref, project };
    const done = await this.apply(actor, organizationId, site.id, found, config, origin, false, (s) =>
      this.source.connectSpace(actor, s.spaceId, { url: input.url, ref: input.ref, directory: s.directory }),
    );
    return done!;
  }

  /**
   * A push to the site's branch (#49 §5): after a Git Sync import of one of the site's spaces brings in
   * `commit`, the site's file is read again from that branch (with the space's connection) and, when it is at
   * another commit than the site's last import, applied as an import would: as the person the space's import
   * ran as, who must still administer the site. Spaces already following their folder are left to their own
   * Git Sync; new ones are connected like the space that was pushed. A file that no longer reads is logged and
   * changes nothing. Answers how many sites changed.
   */
  async reread(spaceId: string, commit: string, userId: string): Promise<number> {
    const actor: Actor = { userId, tokenId: 'git-sync' };
    let changed = 0;
    for (const sync of await this.syncs.ofSpace(spaceId)) {
      if (sync.commit === commit) continue;
      try {
        const read = await this.uow.outside(async () => {
          await this.sites.siteRole(sync.organizationId, actor, sync.siteId, SITE_ROLES.admin);
          const names = SITE_CONFIG_FILES.map((f) => (sync.projectDirectory ? `${sync.projectDirectory}/${f}` : f));
          const found = await this.source.readFirstOnBranchOf(spaceId, names);
          // The space follows another repository now, or the site's file is gone: not this site's to change.
          if (!found || withoutCredentials(found.url) !== sync.url || found.ref !== sync.ref || found.commit === sync.commit) return null;
          return { found, config: readSiteConfig(found.text, found.path, sync.projectDirectory) };
        });
        if (!read) continue;
        const origin = { url: sync.url, ref: sync.ref, project: sync.projectDirectory };
        const done = await this.apply(actor, sync.organizationId, sync.siteId, read.found, read.config, origin, true, async (s) => {
          const at = await this.source.spaceDirectory(s.spaceId);
          if (at && withoutCredentials(at.url) === sync.url && at.ref === sync.ref && at.directory === s.directory) return;
          await this.source.connectSpaceLike(actor, s.spaceId, spaceId, s.directory);
        });
        if (done) changed += 1;
      } catch (e) {
        this.logger.warn(`site ${sync.siteId}: ${messageOf(e)} (its structure is unchanged)`);
      }
    }
    return changed;
  }

  /**
   * The file applied to the site, in one unit of work under the site's lock: its spaces found (by key) or
   * made, its structure and title, what the import recorded, and each space with a folder handed to `connect`.
   * `onlyNewer`: null when the site's last import already read this commit (a concurrent re-read got there first).
   */
  private apply(
    actor: Actor,
    organizationId: string,
    siteId: string,
    found: { path: string; commit: string },
    config: ReturnType<typeof readSiteConfig>,
    origin: { url: string; ref: string; project: string },
    onlyNewer: boolean,
    connect: (space: { spaceId: string; directory: string }) => Promise<void>,
  ): Promise<SiteImportResult | null> {
    return this.uow.run(async () => {
      // Under the site's lock: a second import of the same site waits, then sees the spaces this one made.
      await this.sites.locked(organizationId, siteId);
      const previous = await this.syncs.load(siteId);
      if (onlyNewer && previous?.commit === found.commit) return null;
      const known = previous?.keys ?? {};
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
      // Keys the file does not name now (a draft, a node taken out for a while) keep what they were: back, they
      // are the same space again.
      for (const [key, value] of Object.entries(known)) keys[key] ??= value;
      await this.sites.replaceStructure(actor, organizationId, siteId, structure, config.title);
      await this.syncs.save({
        siteId,
        organizationId,
        url: withoutCredentials(origin.url),
        ref: origin.ref,
        projectDirectory: origin.project,
        configPath: found.path,
        commit: found.commit,
        keys,
        updatedAt: this.clock.now(),
      });
      for (const s of spaces) if (s.directory !== null) await connect({ spaceId: s.spaceId, directory: s.directory });
      return { configPath: found.path, commit: found.commit, spaces, notes: config.notes };
    });
  }

  /**
   * The site's structure written back to its repository's configuration file (the one the last import read,
   * else `gitbook-docs.yaml` in the project folder): the file as it is on the branch, with what the site
   * changed (writeSiteConfig), committed by the caller; nothing is committed when it already says so. Each
   * space's content goes back through its own Git Sync (its merges export it).
   */
  async export(actor: Actor, organizationId: string, siteId: string, input: SiteExportInput): Promise<SiteExportResult> {
    const project = projectDirectory(input.repoProjectDirectory);
    // Every read and the commit come first, outside the unit of work (no connection held while the remote answers).
    const { site, path, repository, keys, commit, changed } = await this.uow.outside(async () => {
      const { site } = await this.sites.get(actor, organizationId, siteId);
      await this.sites.siteRole(organizationId, actor, siteId, SITE_ROLES.admin);
      const previous = await this.syncs.load(site.id);
      const path =
        previous && previous.projectDirectory === project
          ? previous.configPath
          : project
            ? `${project}/${SITE_CONFIG_FILES[0]}`
            : SITE_CONFIG_FILES[0];
      const spaces = new Map<string, WrittenSpace>();
      const views = await this.sites.spacesOf(actor, site);
      const repository = withoutCredentials(input.url);
      for (const [spaceId, view] of views) {
        const connected = await this.source.spaceDirectory(spaceId);
        const here = connected && withoutCredentials(connected.url) === repository && connected.ref === input.ref;
        spaces.set(spaceId, {
          title: view.space.title,
          ...(view.space.language ? { language: view.space.language } : {}),
          directory: here ? connected.directory : null,
        });
      }
      const current = await this.source.readFirst(input.url, input.ref, [path]);
      let original: unknown = null;
      if (current) {
        try {
          original = parseYaml(current.text, { maxAliasCount: 100 });
        } catch {
          original = null; // a file that is not YAML is written anew
        }
      }
      const byId = new Map(Object.entries(previous?.keys ?? {}).map(([key, v]) => [v.id, key]));
      const { value, keys } = writeSiteConfig({
        original,
        title: site.title,
        structure: site.structure,
        spaces,
        keyOf: (id) => byId.get(id),
        projectDirectory: project,
      });
      for (const [key, known] of Object.entries(previous?.keys ?? {})) keys[key] ??= known;
      const text = stringifyYaml(value, { lineWidth: 0 });
      readSiteConfig(text, path, project); // never write what would not read back
      const changed = !current || !isDeepStrictEqual(original, value);
      const commit = changed
        ? await this.source.writeFile(actor, input.url, input.ref, path, text, input.commitMessage || `Update ${path} from Quire`)
        : current.commit;
      return { site, path, repository, keys, commit, changed };
    });
    await this.uow.run(() =>
      this.syncs.save({
        siteId: site.id,
        organizationId,
        url: repository,
        ref: input.ref,
        projectDirectory: project,
        configPath: path,
        commit,
        keys,
        updatedAt: this.clock.now(),
      }),
    );
    return { configPath: path, commit, changed };
  }
}

export interface SiteExportInput extends SiteImportInput {
  commitMessage?: string;
}

export interface SiteExportResult {
  configPath: string;
  /** The commit the branch is at afterwards. */
  commit: string;
  /** False when the file already said what the site is (nothing was committed). */
  changed: boolean;
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

/** What went wrong, as one line. */
function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return url;
  }
}
