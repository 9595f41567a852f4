import { Injectable } from '@nestjs/common';
import { imageSize } from 'image-size';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import {
  FILE_MAX_BYTES,
  repositoryPageChanges,
  repositoryPathOf,
  repositorySources,
  type FileNode,
  type GitbookRepository,
  type RepositorySources,
} from '@app/content-model';
import {
  ContentService,
  FilesService,
  LinksService,
  SpacesService,
  type ContentChangeInput,
  type StagedFileInput,
} from '@app/spaces-and-content';
import { RepositoryExport } from './repository-export';
import { pageRequest, type Actor } from '@app/shared-kernel';
import { ChangeRequestsService, type ChangeRequestView } from '@app/review-and-comments';

/** Content types of the files documentation repositories hold, by extension (others: application/octet-stream). */
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.mp4': 'video/mp4',
};

/** An asset's content type: by its extension, an image only when its bytes read as one (else a file). */
function contentTypeOf(path: string, bytes: Buffer): string {
  const type = TYPES[posix.extname(path).toLowerCase()] ?? 'application/octet-stream';
  if (!type.startsWith('image/')) return type;
  try {
    const size = imageSize(bytes);
    return size.width && size.height ? type : 'application/octet-stream';
  } catch {
    return 'application/octet-stream';
  }
}

export interface RepositoryImportResult {
  /** Null when the space already holds what the repository does (nothing to change). */
  changeRequest: ChangeRequestView | null;
  pages: number;
  files: number;
  /** Files the repository names but does not hold, and assets left out (too large). */
  missing: string[];
  notes: string[];
  /**
   * Links of the imported pages that reach nothing (a relative path the repository does not hold, a page or file
   * that is gone): kept as written, listed by `GET /spaces/{id}/content/broken-links`, shown as text on sites.
   */
  brokenLinks: { target: string; pages: string[] }[];
}

/** Broken links reported by an import, at most (the endpoint lists them all). */
const BROKEN_REPORTED = 200;

/**
 * A GitBook repository (read by `readGitbookRepository`) into a space, as one change request the space's
 * editors review and merge (into a space that imported before: the pages matched by their files' paths,
 * updated, moved, added and deleted to match the repository; see `repositoryPageChanges`): every page in the summary's order and nesting, with its markdown (GitBook's block
 * tags read, front matter applied), links between pages and to assets resolved through their repository
 * paths, and the assets under `.gitbook/assets/` as the space's files. Missing files are reported, never
 * fatal: their pages are created empty. All of it is one batch: written entirely or not at all. What was read
 * is kept beside the space (`repositorySources`), so that an export writes back unchanged what the space did
 * not change.
 */
@Injectable()
export class RepositoryImport {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentService,
    private readonly spaces: SpacesService,
    private readonly exporter: RepositoryExport,
    private readonly files: FilesService,
    private readonly links: LinksService,
  ) {}

  /**
   * `base`: the revision the change request starts from (default main; Git Sync gives the revision of the last
   * sync when the space moved since, so that the merge is three-way).
   */
  async import(
    actor: Actor,
    spaceId: string,
    repo: GitbookRepository,
    bytesOf: (path: string) => Buffer | null,
    subject = 'Import from a Git repository',
    base?: string,
  ): Promise<RepositoryImportResult> {
    const previous = await this.exporter.sourcesOf(spaceId);
    const { space } = await this.spaces.getLive(actor, spaceId);
    const start = await this.content.revision(space.id, base ?? space.revision);
    const assets = this.assets(repo, previous, start.files, bytesOf);
    // Nothing to change (the same repository again): no change request.
    if (
      !assets.upload.length &&
      !repositoryPageChanges(repo, {
        tree: start.tree,
        sources: previous,
        reusable: start.reusableContents ?? [],
        variables: start.variables ?? {},
      }).changes.length
    )
      return { changeRequest: null, pages: 0, files: 0, missing: assets.missing, notes: assets.notes, brokenLinks: [] };
    // The change request is created first: that checks the caller may write to the space before any byte is stored.
    const created = await this.changeRequests.create(actor, spaceId, { subject }, base);
    const from = await this.content.revision(spaceId, created.changeRequest.revision);
    // Each asset is read, checked and stored on its own: one file in memory at a time, whatever the repository's size.
    const staged: StagedFileInput[] = [];
    for (const path of assets.upload) {
      const bytes = bytesOf(path);
      if (bytes === null) continue;
      const file = { ref: path, name: posix.basename(path).slice(-200), contentType: contentTypeOf(path, bytes) };
      staged.push({ staged: await this.files.stage(space.organizationId, file, bytes, path) });
    }
    const changes: ContentChangeInput[] = [];
    for (let i = 0; i < staged.length; i += 20) changes.push({ operation: 'insert_files', files: staged.slice(i, i + 20) });
    const pages = repositoryPageChanges(repo, {
      tree: from.tree,
      sources: previous,
      reusable: from.reusableContents ?? [],
      variables: from.variables ?? {},
    });
    changes.push(...pages.changes);
    // Paths kept by an earlier import (relative to the project) → ids, as the engine reads the repository's paths.
    const kept = (sources: Map<string, { path: string | null }> | undefined) =>
      new Map(
        [...(sources ?? [])].flatMap(([id, p]) => (p.path === null ? [] : [[repositoryPathOf(repo, p.path), id] as [string, string]])),
      );
    const keptPages = kept(previous?.pages);
    const keptReusable = kept(previous?.reusable);
    const written = await this.changeRequests.writeContent(actor, spaceId, created.changeRequest.id, changes, {
      pages: keptPages,
      files: assets.reused,
      reusable: keptReusable,
    });
    const head = await this.content.revision(spaceId, written.view.changeRequest.revision);
    const pageIds = new Map(written.outcomes.filter((o) => o.ref !== undefined).map((o) => [o.ref!, o.page]));
    const fileIds = new Map(
      staged.map((f, i) => [f.staged.ref, written.insertedFiles[i]?.id]).filter((e): e is [string, string] => !!e[0] && !!e[1]),
    );
    await this.exporter.keepSources(
      spaceId,
      repositorySources(repo, pages.changes, head.tree, pageIds, fileIds, previous, head.reusableContents ?? []),
    );
    const broken = await this.links.list(space, head.id, { appOrigin: '', status: 'broken' }, pageRequest(undefined, BROKEN_REPORTED));
    const brokenLinks = broken.items.map((u) => ({
      target: `${u.link.target}${u.link.anchor ? `#${u.link.anchor}` : ''}`,
      pages: u.locations.map((l) => l.path),
    }));
    return {
      changeRequest: written.view,
      pages: pages.pages,
      files: written.insertedFiles.length,
      missing: assets.missing,
      notes: [
        ...assets.notes,
        ...pages.notes,
        ...brokenLinks.map((b) => `a link to ${b.target} (on ${b.pages.join(', ')}) reaches nothing: kept, reported as broken`),
      ],
      brokenLinks,
    };
  }

  /**
   * The repository's assets: the paths of those to upload, and those the space holds already (imported before
   * with the same bytes: repository path → file id). Missing and too large ones are reported. Each file is read
   * and hashed on its own, then let go.
   */
  private assets(
    repo: GitbookRepository,
    previous: RepositorySources | null,
    spaceFiles: FileNode[],
    bytesOf: (path: string) => Buffer | null,
  ) {
    const missing = new Set(repo.missing);
    const notes = [...repo.notes];
    // Paths kept by an earlier import are relative to the project; the reader's are the repository's.
    const kept = new Map([...(previous?.files ?? [])].map(([id, path]) => [repositoryPathOf(repo, path), id]));
    const byId = new Map(spaceFiles.map((f) => [f.id, f]));
    const reused = new Map<string, string>();
    const upload = repo.assets.filter((path) => {
      const bytes = bytesOf(path);
      if (bytes === null) {
        missing.add(path);
        return false;
      }
      if (bytes.length > FILE_MAX_BYTES) {
        notes.push(`${path} is larger than ${FILE_MAX_BYTES} bytes: left out`);
        missing.add(path);
        return false;
      }
      const known = byId.get(kept.get(path) ?? '');
      if (known && known.hash === createHash('sha256').update(bytes).digest('hex')) {
        reused.set(path, known.id);
        return false;
      }
      return true;
    });
    return { upload, reused, missing: [...missing], notes };
  }
}
