import { Injectable } from '@nestjs/common';
import { walk, writeGitbookRepository, type RepositorySources } from '@app/content-model';
import { RepositorySourceRepository } from '../domain/repository-sources';
import type { Actor } from '@app/shared-kernel';
import { ContentService, FilesService, SpacesService } from '@app/spaces-and-content';

/**
 * A space's main content as GitBook's Git Sync layout (`writeGitbookRepository`), with the bytes of its
 * files: what `quire export` writes into a folder and, next, what Git Sync commits. Read access is enough.
 * What a repository import kept (`keepSources`) makes the pages the space did not change come back as they were.
 */
@Injectable()
export class RepositoryExport {
  constructor(
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    private readonly files: FilesService,
    private readonly sources: RepositorySourceRepository,
  ) {}

  /** What the space's last import kept (null when none did); the importer has checked the caller. */
  sourcesOf(spaceId: string): Promise<RepositorySources | null> {
    return this.sources.load(spaceId);
  }

  /** Keeps what an import read beside the space's content (the importer has checked the caller). */
  keepSources(spaceId: string, sources: RepositorySources): Promise<void> {
    return this.sources.save(spaceId, sources);
  }

  async export(
    actor: Actor,
    spaceId: string,
  ): Promise<{
    text: Map<string, string>;
    assets: Map<string, Buffer>;
    missing: string[];
    verbatim: number;
    /** What was written, as an import keeps it (`keepSources` once it is in the repository), and the revision written. */
    written: RepositorySources;
    revision: string;
  }> {
    const { space } = await this.spaces.getLive(actor, spaceId);
    const revision = await this.content.revision(space.id, space.revision);
    const hashes: string[] = [];
    walk(revision.tree, (l) => {
      if (l.node.document) hashes.push(l.node.document);
    });
    const reusable = revision.reusableContents ?? [];
    for (const r of reusable) if (r.document) hashes.push(r.document);
    const documents = await this.content.documents(space.organizationId, [...new Set(hashes)]);
    const sources = await this.sources.load(space.id);
    const written = writeGitbookRepository(
      revision.tree,
      (h) => documents.get(h) ?? null,
      revision.files,
      sources ?? undefined,
      reusable,
      revision.variables ?? {},
    );
    const assets = new Map<string, Buffer>();
    const missing: string[] = [];
    for (const [path, file] of written.assets) {
      const bytes = await this.files.bytes(space.organizationId, file.hash);
      if (bytes) assets.set(path, bytes);
      else missing.push(path);
    }
    return { text: written.text, assets, missing, verbatim: written.verbatim, written: written.written, revision: revision.id };
  }
}
