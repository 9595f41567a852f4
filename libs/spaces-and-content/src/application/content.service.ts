import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, KeyedMutex, NotFoundError, Page, PageRequest, PreconditionError, UnitOfWork } from '@app/shared-kernel';
import { applyChanges, ChangeOutcome, ContentChange } from '@app/content-model';
import type { ApplyContext, JsonDocument, ReusableContent } from '@app/content-model';
import { bodiesToMerge, mergeTrees, MergeConflict } from '@app/content-model';
import { Revision, RevisionGit, RevisionRepository, RevisionEditor, RevisionSummary, RevisionType } from '../domain/content/revision';
import { locate, PageNode, PageTree, walk } from '@app/content-model';
import { Space, SpaceRepository } from '../domain/space';
import { SearchService } from './search.service';
import { SpaceEvents } from './space-events';
import { FileInput, FilesService, StagedFileInput } from './files.service';
import type { FileNode } from '../domain/content/files';

export interface CommitResult {
  revision: Revision;
  outcomes: ChangeOutcome[];
  insertedFiles: FileNode[];
}

/**
 * A batch whose file sources were read and checked (base64 decoded, URLs fetched): what commitChanges
 * applies. Made by prepareChanges, which touches no database, so callers prepare before their unit of work.
 */
export interface PreparedChanges {
  changes: ContentChange[];
  /** The bytes to store with the revision (null: a staged file's, stored already). */
  bytes: { hash: string; bytes: Buffer | null }[];
  /** A repository import: the paths of the pages and files the space has already (see ApplyContext). */
  repository?: ApplyContext['repository'];
}

/**
 * A change as the API receives it: insert_files carries sources (base64 or url), resolved before applying,
 * or (a repository import) files staged by FilesService.stage.
 */
export type ContentChangeInput =
  Exclude<ContentChange, { operation: 'insert_files' }> | { operation: 'insert_files'; files: (FileInput | StagedFileInput)[] };

export interface ThreeWay {
  base: string;
  ours: string;
  theirs: string;
}

export type MergeOutcome =
  | {
      ok: true;
      tree: PageTree;
      files: FileNode[];
      documents: Map<string, JsonDocument>;
      reusableContents: ReusableContent[];
      variables: Record<string, string>;
    }
  | { ok: false; conflicts: MergeConflict[] };

/** Variables of a merge, by name, as reusable contents are (a side's change wins; both: ours). */
function mergeVariables(
  base: Record<string, string>,
  ours: Record<string, string>,
  theirs: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])) {
    const value = theirs[name] !== base[name] && ours[name] === base[name] ? theirs[name] : ours[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Reusable contents of a merge, by id: a side's change (added, edited, removed) against the base wins; both
 * sides' changes to one: ours (main) is kept, theirs stays in the change request's history.
 */
function mergeReusable(base: ReusableContent[], ours: ReusableContent[], theirs: ReusableContent[]): ReusableContent[] {
  const key = (r: ReusableContent | undefined) => (r ? JSON.stringify([r.title, r.document, r.path ?? null]) : '');
  const byId = (list: ReusableContent[]) => new Map(list.map((r) => [r.id, r]));
  const [b, o, t] = [byId(base), byId(ours), byId(theirs)];
  const out: ReusableContent[] = [];
  for (const id of new Set([...o.keys(), ...t.keys(), ...b.keys()])) {
    const theirsChanged = key(t.get(id)) !== key(b.get(id));
    const oursChanged = key(o.get(id)) !== key(b.get(id));
    const kept = theirsChanged && !oursChanged ? t.get(id) : o.get(id);
    if (kept) out.push(kept);
  }
  return out;
}

/** Files of a merge: both sides' files (files are only ever added). */
function unionFiles(ours: FileNode[], theirs: FileNode[]): FileNode[] {
  const ids = new Set(ours.map((f) => f.id));
  return [...ours, ...theirs.filter((f) => !ids.has(f.id))];
}

/**
 * The content engine's facade: revisions, page bodies, change batches and three-way merges.
 * Other contexts (change requests) use it through index.ts; it never calls them back.
 */
@Injectable()
export class ContentService {
  constructor(
    private readonly revisions: RevisionRepository,
    private readonly spaces: SpaceRepository,
    private readonly search: SearchService,
    private readonly files: FilesService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly events: SpaceEvents,
  ) {}

  /** Writers of one space's content, in this process (see writeSpace). */
  private readonly writers = new KeyedMutex();

  /** The empty first revision of a new space (its id is already on the space). */
  async createInitialRevision(space: Space, createdBy: string | null): Promise<void> {
    await this.revisions.insert(
      {
        id: space.revision,
        organizationId: space.organizationId,
        spaceId: space.id,
        parents: [],
        type: 'edits',
        tree: [],
        files: [],
        createdAt: space.createdAt,
        createdBy,
      },
      new Map(),
    );
  }

  async copyContent(from: Space, to: Space, createdBy: string | null): Promise<void> {
    const source = await this.revision(from.id, from.revision);
    await this.revisions.copy(source, {
      id: to.revision,
      spaceId: to.id,
      organizationId: to.organizationId,
      createdAt: to.createdAt,
      createdBy,
    });
    await this.search.reindex(to.id);
  }

  async moveSpaceContent(spaceId: string, fromOrganizationId: string, toOrganizationId: string): Promise<void> {
    await this.revisions.moveSpace(spaceId, fromOrganizationId, toOrganizationId);
    // File bytes are kept per organization: the space's go with it (the old organization's are collected
    // once nothing there references them).
    await this.files.copyBytes(fromOrganizationId, toOrganizationId, await this.revisions.fileHashes(spaceId));
    await this.search.moveSpace(spaceId, toOrganizationId);
  }

  /** Re-indexes a space after a change of what search depends on (e.g. its language). */
  reindex(spaceId: string): Promise<void> {
    return this.search.reindex(spaceId);
  }

  async revision(spaceId: string, revisionId: string): Promise<Revision> {
    const r = await this.revisions.find(spaceId, revisionId);
    if (!r) throw new NotFoundError('Revision', revisionId);
    return r;
  }

  /**
   * The space's history: its current revision and the first parents before it (main's line; the
   * revisions of change requests show up as the merges that brought them), newest first.
   */
  history(space: Space, page: PageRequest): Promise<Page<RevisionSummary>> {
    return this.revisions.history(space.id, space.revision, page);
  }

  /**
   * Who edited on a line of work (a change request: its head, where main was when it was last brought up to
   * date, where it started), with how many edits and when last (RevisionRepository.editors).
   */
  editors(space: Space, head: string, base: string, start: string): Promise<RevisionEditor[]> {
    return this.revisions.editors(space.id, head, base, start);
  }

  /**
   * A body by its id (the official `documentId` of a page or a reusable content: the hash it is stored by), when
   * a revision of the space references it (its history included); 404 otherwise, whatever else holds it.
   */
  async documentById(space: Space, documentId: string): Promise<JsonDocument> {
    // The current content first (its revision is cached): the common case reads one body by its key.
    const current = await this.revision(space.id, space.revision);
    let inCurrent = (current.reusableContents ?? []).some((r) => r.document === documentId);
    if (!inCurrent) walk(current.tree, ({ node }) => (inCurrent ||= node.document === documentId));
    const document = inCurrent
      ? ((await this.revisions.documents(space.organizationId, [documentId])).get(documentId) ?? null)
      : await this.revisions.spaceDocument(space.organizationId, space.id, documentId);
    if (!document) throw new NotFoundError('Document', documentId);
    return document;
  }

  /** A page of a revision with its body (null for an empty page); 404 when the page is not there. */
  async page(
    space: Space,
    revisionId: string,
    pageId: string,
  ): Promise<{ revision: Revision; node: PageNode; path: string; document: JsonDocument | null }> {
    const revision = await this.revision(space.id, revisionId);
    const found = locate(revision.tree, pageId);
    if (!found) throw new NotFoundError('Page', pageId);
    return { revision, node: found.node, path: found.path, document: await this.pageDocument(space, found.node) };
  }

  /** A page's document, read from its revision's stored documents; null for a page without one. */
  async pageDocument(space: Space, node: PageNode): Promise<JsonDocument | null> {
    if (!node.document) return null;
    return (await this.revisions.documents(space.organizationId, [node.document])).get(node.document) ?? null;
  }

  /**
   * The pages of a revision in reading order (depth first), with their bodies and depth, for an
   * export: all of them, or `pageId` with its subpages, or `pageId` alone (`only`). 404 for an unknown page.
   */
  async exportPages(
    space: Space,
    revisionId: string,
    pageId?: string,
    only = false,
  ): Promise<{ revision: Revision; pages: { id: string; title: string; depth: number; document: JsonDocument | null }[] }> {
    const revision = await this.revision(space.id, revisionId);
    let roots = revision.tree;
    if (pageId !== undefined) {
      const found = locate(revision.tree, pageId);
      if (!found) throw new NotFoundError('Page', pageId);
      roots = [only ? { ...found.node, pages: [] } : found.node];
    }
    const nodes: { node: PageNode; depth: number }[] = [];
    const visit = (list: PageNode[], depth: number) =>
      list.forEach((node) => {
        nodes.push({ node, depth });
        visit(node.pages, depth + 1);
      });
    visit(roots, 0);
    const docs = await this.revisions.documents(
      space.organizationId,
      nodes.flatMap(({ node }) => (node.document ? [node.document] : [])),
    );
    return {
      revision,
      pages: nodes.map(({ node, depth }) => ({
        id: node.id,
        title: node.title,
        depth,
        document: node.document ? (docs.get(node.document) ?? null) : null,
      })),
    };
  }

  async documents(organizationId: string, hashes: string[]): Promise<Map<string, JsonDocument>> {
    return this.revisions.documents(organizationId, hashes);
  }

  /**
   * Reads and checks the batch's file sources: base64 decoded, URL sources fetched (the kernel's
   * safeGet). No database: call it before the unit of work opens, so a slow remote holds no connection
   * and no lock (UnitOfWork.outside).
   */
  async prepareChanges(input: ContentChangeInput[], repository?: ApplyContext['repository']): Promise<PreparedChanges> {
    const changes: ContentChange[] = [];
    const bytes: PreparedChanges['bytes'] = [];
    for (const [i, c] of input.entries()) {
      if (c.operation !== 'insert_files') changes.push(c);
      else {
        const files = [];
        for (const [j, f] of c.files.entries()) {
          if ('staged' in f) {
            files.push(f.staged);
            bytes.push({ hash: f.staged.hash, bytes: null });
            continue;
          }
          const read = await this.files.resolve(f, `changes[${i}] (insert_files).files[${j}]`);
          files.push(read.file);
          bytes.push({ hash: read.file.hash, bytes: read.bytes });
        }
        changes.push({ operation: 'insert_files', files });
      }
    }
    return { changes, bytes, ...(repository ? { repository } : {}) };
  }

  /** Applies a prepared batch of changes on top of `parent` and stores the result as a new revision. */
  async commitChanges(
    space: Space,
    parentId: string,
    { changes, bytes, repository }: PreparedChanges,
    createdBy: string,
    revertBase: string,
  ): Promise<CommitResult> {
    const parent = await this.revision(space.id, parentId);
    const trees = new Map<string, PageTree>([['', (await this.revision(space.id, revertBase)).tree]]);
    for (const c of changes) {
      if (c.operation === 'revert_page' && c.revision && !trees.has(c.revision)) {
        const r = await this.revisions.find(space.id, c.revision);
        if (r) trees.set(c.revision, r.tree);
      }
    }
    // Bodies that block-level reverts compare: the page in the parent and in the revision it goes back to.
    const hashes = changes.flatMap((c) =>
      c.operation === 'revert_page' && c.block
        ? [locate(parent.tree, c.page)?.node.document, locate(trees.get(c.revision ?? '') ?? [], c.page)?.node.document]
        : [],
    );
    const documents = await this.revisions.documents(space.organizationId, [...new Set(hashes.filter((h): h is string => !!h))]);
    const now = this.clock.now();
    const result = applyChanges(
      parent.tree,
      changes,
      { newId: () => this.ids.next(), now: now.toISOString(), trees, documents, ...(repository ? { repository } : {}) },
      parent.files,
      { reusableContents: parent.reusableContents ?? [], variables: parent.variables ?? {} },
    );
    const revision: Revision = {
      id: this.ids.next(),
      organizationId: space.organizationId,
      spaceId: space.id,
      parents: [parent.id],
      type: 'edits',
      tree: result.tree,
      files: result.files,
      reusableContents: result.reusableContents,
      variables: result.variables,
      createdAt: now,
      createdBy,
    };
    // The batch is valid: its file bytes and its revision are written together (bytes undone on rollback).
    await this.uow.run(async () => {
      await this.files.store(space.organizationId, bytes);
      await this.revisions.insert(revision, result.documents);
    });
    return { revision, outcomes: result.outcomes, insertedFiles: result.insertedFiles };
  }

  /** Three-way merge of two revisions of a space over their common base. */
  async merge(space: Space, revs: ThreeWay): Promise<MergeOutcome> {
    const [base, ours, theirs] = await Promise.all([
      this.revision(space.id, revs.base),
      this.revision(space.id, revs.ours),
      this.revision(space.id, revs.theirs),
    ]);
    const bodies = await this.revisions.documents(space.organizationId, bodiesToMerge(base.tree, ours.tree, theirs.tree));
    const result = mergeTrees(base.tree, ours.tree, theirs.tree, (h) => bodies.get(h) ?? null);
    return result.conflicts.length
      ? { ok: false, conflicts: result.conflicts }
      : {
          ok: true,
          tree: result.tree,
          files: unionFiles(ours.files, theirs.files),
          documents: result.documents,
          reusableContents: mergeReusable(base.reusableContents ?? [], ours.reusableContents ?? [], theirs.reusableContents ?? []),
          variables: mergeVariables(base.variables ?? {}, ours.variables ?? {}, theirs.variables ?? {}),
        };
  }

  async storeRevision(
    space: Space,
    tree: PageTree,
    files: FileNode[],
    documents: Map<string, JsonDocument>,
    parents: string[],
    type: RevisionType,
    createdBy: string,
    mergedFrom: string | null = null,
    git: RevisionGit | null = null,
    reusableContents?: ReusableContent[],
    variables?: Record<string, string>,
  ): Promise<Revision> {
    const revision: Revision = {
      id: this.ids.next(),
      organizationId: space.organizationId,
      spaceId: space.id,
      parents,
      type,
      tree,
      files,
      createdAt: this.clock.now(),
      createdBy,
      mergedFrom,
      ...(git ? { git } : {}),
      ...(reusableContents ? { reusableContents } : {}),
      ...(variables ? { variables } : {}),
    };
    await this.revisions.insert(revision, documents);
    return revision;
  }

  /**
   * Merges `theirs` into the space's current revision and moves the space to the result. Writers of a
   * space's content take turns (a per-space mutex in this process, the space's row lock across
   * processes, held until the unit of work ends), so N independent merges all succeed one after the
   * other; only a true content conflict fails. Inside the caller's unit of work the move commits (or
   * rolls back) with the rest of the caller's writes. The search index is refreshed by `refreshSearch`
   * after the commit (a search that finds the index behind heals it too).
   */
  mergeIntoSpace(
    spaceId: string,
    base: string,
    theirs: string,
    createdBy: string,
    mergedFrom: string | null = null,
    git: RevisionGit | null = null,
  ): Promise<MergeOutcome & { revision?: Revision }> {
    return this.writeSpace(spaceId, 'merges', async (space) => {
      let tree: PageTree;
      let files: FileNode[];
      let reusableContents: ReusableContent[];
      let variables: Record<string, string>;
      let documents = new Map<string, JsonDocument>();
      if (space.revision === base) {
        const head = await this.revision(space.id, theirs);
        tree = head.tree;
        files = head.files;
        reusableContents = head.reusableContents ?? [];
        variables = head.variables ?? {};
      } else {
        const merged = await this.merge(space, { base, ours: space.revision, theirs });
        if (!merged.ok) return merged;
        tree = merged.tree;
        files = merged.files;
        documents = merged.documents;
        reusableContents = merged.reusableContents;
        variables = merged.variables;
      }
      const revision = await this.storeRevision(
        space,
        tree,
        files,
        documents,
        [space.revision, theirs],
        'merge',
        createdBy,
        mergedFrom,
        git,
        reusableContents,
        variables,
      );
      await this.moveSpaceTo(space, revision.id);
      return { ok: true, tree, files, documents, reusableContents, variables, revision };
    });
  }

  /** Applies changes directly to the space's main content (templates), taking its turn like merges. */
  async commitToSpace(spaceId: string, changes: ContentChangeInput[], createdBy: string): Promise<Revision> {
    const prepared = await this.prepareChanges(changes);
    const revision = await this.writeSpace(spaceId, 'edits', async (space) => {
      const { revision } = await this.commitChanges(space, space.revision, prepared, createdBy, space.revision);
      await this.moveSpaceTo(space, revision.id);
      return revision;
    });
    await this.refreshSearch(spaceId);
    return revision;
  }

  /**
   * Writes a whole new tree as the space's next revision (a translation run), taking its turn like
   * merges; `documents` are the bodies it introduces. Inside the caller's unit of work.
   */
  replaceContent(
    spaceId: string,
    tree: PageTree,
    files: FileNode[],
    documents: Map<string, JsonDocument>,
    createdBy: string,
  ): Promise<Revision> {
    return this.writeSpace(spaceId, 'translations', async (space) => {
      const revision = await this.storeRevision(space, tree, files, documents, [space.revision], 'update', createdBy);
      await this.moveSpaceTo(space, revision.id);
      return revision;
    });
  }

  /** Brings the space's search index up to its current revision (after a write has committed). */
  async refreshSearch(spaceId: string): Promise<void> {
    await this.search.reindex(spaceId);
  }

  /** One writer of a space's content at a time: in this process (mutex), then across processes (row lock). */
  private writeSpace<T>(spaceId: string, what: string, write: (space: Space) => Promise<T>): Promise<T> {
    return this.writers.run(spaceId, () =>
      this.uow.run(async () => {
        await this.spaces.lockForWrite(spaceId);
        const space = await this.spaces.findById(spaceId);
        if (!space || space.deletedAt) throw new NotFoundError('Space', spaceId);
        if (space.editMode === 'locked') throw new PreconditionError(`The space is locked (editMode: locked): ${what} are refused`);
        return write(space);
      }),
    );
  }

  private async moveSpaceTo(space: Space, revisionId: string): Promise<void> {
    // Under the row lock nobody else moves the revision: a failed compare-and-set is a bug, not a race.
    if (!(await this.spaces.compareAndSetRevision(space.id, space.revision, revisionId, this.clock.now()))) {
      throw new Error(`space ${space.id} moved while its row was locked`);
    }
    this.events.publish('space.content-moved', space.organizationId, null, { spaceId: space.id });
  }

  /** Change request counters of a space (the review context reports them after every change). */
  setChangeRequestCounters(
    spaceId: string,
    counters: { changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number },
  ): Promise<void> {
    return this.spaces.setCounters(spaceId, counters);
  }

  /** The space's count of open comments (kept by the review-and-comments context). */
  setCommentCount(spaceId: string, comments: number): Promise<void> {
    return this.spaces.setCounters(spaceId, { comments });
  }
}
