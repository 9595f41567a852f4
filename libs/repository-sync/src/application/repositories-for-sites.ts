import { Injectable } from '@nestjs/common';
import { posix } from 'node:path';
import { gitbookRedirects } from '@app/content-model';
import { RepositorySourceRepository } from '../domain/repository-sources';
import { GitSyncRepository } from '../domain/git-sync';
import { editLink, type EditLink } from '../domain/git-hosts';
import { GitSyncSettings } from './git-sync-settings';
import { GitSyncService } from './git-sync.service';
import type { Actor } from '@app/shared-kernel';

/**
 * What a space's repository gives its published site, as data (the site's `SpaceRepositories` port, wired by
 * the app): the redirects of the `.gitbook.yaml` its last import kept, and where each page is edited on the Git
 * host of the branch the space is connected to. The caller has checked access to the space.
 */
@Injectable()
export class RepositoriesForSites {
  constructor(
    private readonly sources: RepositorySourceRepository,
    private readonly gitSync: GitSyncRepository,
    private readonly settings: GitSyncSettings,
    private readonly git: GitSyncService,
  ) {}

  /** For a site whose structure comes from its repository: the first of `paths` its branch holds. */
  readFirst(url: string, ref: string, paths: readonly string[]): Promise<{ path: string; text: string; commit: string } | null> {
    return this.git.readFirst(url, ref, paths);
  }

  writeFile(actor: Actor, url: string, ref: string, path: string, text: string, message: string): Promise<string> {
    return this.git.writeFile(actor, url, ref, path, text, message);
  }

  spaceDirectory(spaceId: string): Promise<{ url: string; ref: string; directory: string } | null> {
    return this.git.connectionOf(spaceId);
  }

  /** A space of such a site connected to its directory of the repository, and imported (as the official import). */
  connectSpace(actor: Actor, spaceId: string, remote: { url: string; ref: string; directory: string }): Promise<void> {
    return this.git.request(actor, spaceId, 'import', { url: remote.url, ref: remote.ref, repoProjectDirectory: remote.directory });
  }

  /** For a site whose structure comes from the branch a space is connected to: the first of `paths` on it now. */
  readFirstOnBranchOf(
    spaceId: string,
    paths: readonly string[],
  ): Promise<{ url: string; ref: string; path: string; text: string; commit: string } | null> {
    return this.git.readFirstOnBranchOf(spaceId, paths);
  }

  /** A new space of such a site connected to its folder of the branch another of its spaces is connected to. */
  connectSpaceLike(actor: Actor, spaceId: string, like: string, directory: string): Promise<boolean> {
    return this.git.connectLike(actor, spaceId, like, directory);
  }

  /** Each old path with the page imported from the file it names; redirects to a file that is no page are left out. */
  async redirects(spaceId: string): Promise<{ from: string; pageId: string }[]> {
    const sources = await this.sources.load(spaceId);
    if (!sources?.config) return [];
    const byFile = new Map([...sources.pages].flatMap(([id, p]) => (p.path ? [[p.path, id] as [string, string]] : [])));
    return gitbookRedirects(sources.config, sources.root).flatMap(({ source, destination }) => {
      const pageId = byFile.get(destination);
      const from = source.replace(/^\/+|\/+$/g, '');
      return pageId && from ? [{ from, pageId }] : [];
    });
  }

  /**
   * The edit link of each page imported from a file, for a space connected by Git Sync to a branch of a host
   * of a known kind (git-hosts.ts); empty otherwise (a space imported once from an archive, an unknown host).
   */
  async editLinks(spaceId: string): Promise<Map<string, EditLink>> {
    const connection = await this.gitSync.connection(spaceId);
    if (!connection) return new Map();
    const sources = await this.sources.load(spaceId);
    const links = new Map<string, EditLink>();
    for (const [pageId, { path }] of sources?.pages ?? []) {
      if (!path) continue;
      const link = editLink(
        connection.remote.url,
        connection.ref,
        posix.join(connection.projectDirectory || '.', path),
        this.settings.hosts,
      );
      if (!link) break;
      links.set(pageId, link);
    }
    return links;
  }
}
