import { Injectable } from '@nestjs/common';
import { gitbookRedirects } from '@app/content-model';
import { RepositorySourceRepository } from '../domain/repository-sources';

/**
 * The redirects of the `.gitbook.yaml` a space's last import kept, handed to the published site as data (its
 * `SpaceRepositoryRedirects` port, wired by the app): each old path with the page imported from the file it
 * names. Redirects to a file that is no page of the space are left out. The caller has checked access to the space.
 */
@Injectable()
export class RepositoryRedirectsForSites {
  constructor(private readonly sources: RepositorySourceRepository) {}

  async of(spaceId: string): Promise<{ from: string; pageId: string }[]> {
    const sources = await this.sources.load(spaceId);
    if (!sources?.config) return [];
    const byFile = new Map([...sources.pages].flatMap(([id, p]) => (p.path ? [[p.path, id] as [string, string]] : [])));
    return gitbookRedirects(sources.config, sources.root).flatMap(({ source, destination }) => {
      const pageId = byFile.get(destination);
      const from = source.replace(/^\/+|\/+$/g, '');
      return pageId && from ? [{ from, pageId }] : [];
    });
  }
}
