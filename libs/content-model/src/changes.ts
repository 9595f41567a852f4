import { posix } from 'node:path';
import { InvalidInputError } from '@app/shared-kernel';
import { documentData, EMPTY_DOCUMENT, JsonDocument, withDefaults } from './document';
import type { FileNode } from './files';
import { revertBlocks } from './block-revert';
import { contentHash } from './hash';
import { markdownToDocument } from './markdown';
import { defaultLinkResolver, type LinkResolver } from './markdown-links';
import {
  checkSlugFree,
  childrenOf,
  cloneTree,
  insertAt,
  isInside,
  locate,
  PageLayout,
  PageNode,
  PageTree,
  pathIndex,
  ReusableContent,
  SLUG_MAX,
  slugify,
  uniqueSlug,
} from './tree';

export type DocumentInput = { markdown: string } | { document: JsonDocument } | Record<string, never>;

export interface PageMeta {
  title?: string;
  slug?: string;
  emoji?: string;
  /** The official page `icon` (an icon name, GitBook's front matter `icon`); `''` removes it. */
  icon?: string;
  description?: string;
  hidden?: boolean;
  /** The page's adaptive-content condition; `null` or `''` removes it. */
  condition?: string | null;
  /** The page's variables (markdown front matter `vars:`; an import, not an API field). */
  variables?: Record<string, string>;
  /** The page's layout (markdown front matter `layout:`); `null` removes it. */
  layout?: PageLayout | null;
}

export type ContentChange =
  | ({
      operation: 'insert_page';
      into?: string;
      at?: number;
      ref?: string;
      document: DocumentInput;
      /**
       * The page's file in a Git repository (an import, not an API field): relative links in its markdown
       * (`../guide/setup.md#step-2`, `.gitbook/assets/a.png`) resolve against the paths of the batch's other
       * pages and the refs of its files.
       */
      path?: string;
      /** `group`: a page group (an import's `##` heading of SUMMARY.md), which holds pages and no document. */
      type?: 'document' | 'group' | 'link';
      /**
       * A link page's target (an import's summary entry; not an API field): a link of the repository's top
       * (`/guide/setup.md#step-2`), resolved like the batch's links, or a URL.
       */
      link?: string;
    } & PageMeta)
  | ({
      operation: 'update_page';
      page: string;
      document?: DocumentInput;
      into?: string | null;
      at?: number;
      /** The page's file in a Git repository (an import, not an API field), as for insert_page. */
      path?: string;
      /** A link page's new target (an import), as for insert_page. */
      link?: string;
    } & PageMeta)
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string; block?: string[] }
  | { operation: 'insert_files'; files: ResolvedFile[] }
  /**
   * Reusable contents (a repository import, not API operations): inserted with the repository path of their
   * file (`.gitbook/includes/…`), so that `{% include %}` tags of the batch's pages reach them.
   */
  | { operation: 'insert_reusable_content'; ref: string; path: string; title: string; document: DocumentInput }
  | { operation: 'update_reusable_content'; reusableContent: string; path: string; title: string; document: DocumentInput }
  | { operation: 'delete_reusable_content'; reusableContent: string }
  /** The space's variables, all of them (a repository import's `.gitbook/vars.yaml`, not an API operation). */
  | { operation: 'set_variables'; variables: Record<string, string> };

/** A file of an insert_files change, once the application has stored its bytes. */
export interface ResolvedFile extends Omit<FileNode, 'id'> {
  ref?: string;
}

export interface ChangeOutcome {
  object: 'created_page' | 'updated_page' | 'deleted_page';
  page: string;
  ref?: string;
  /** What the page's markdown lost or changed on import (heading depth, raw HTML, footnotes…). */
  normalized?: string[];
}

export interface ApplyContext {
  newId(): string;
  /** ISO time of the change. */
  now: string;
  /** Trees of revisions that revert_page may name (the base revision under the key ''). */
  trees: Map<string, PageTree>;
  /** Page bodies by hash that revert_page with `block` compares (the page now and in the revision). */
  documents?: Map<string, JsonDocument>;
  /**
   * A repository import into a space that has imported before: the repository paths of its pages and files
   * (path → id), so that links in the batch's markdown reach pages and files the batch does not touch.
   */
  repository?: { pages: Map<string, string>; files: Map<string, string>; reusable?: Map<string, string> };
}

export interface ApplyResult {
  tree: PageTree;
  files: FileNode[];
  /** Files added by this batch, in order. */
  insertedFiles: FileNode[];
  /** New page bodies by content hash. */
  documents: Map<string, JsonDocument>;
  outcomes: ChangeOutcome[];
  reusableContents: ReusableContent[];
  variables: Record<string, string>;
}

interface PendingBody {
  input: DocumentInput;
  /** The index of the change that gave it (set by applyChanges): a failing body names its change. */
  change?: number;
  /** The page's repository path (an import): its links resolve against the batch's paths first. */
  path?: string;
}

function isMarkdown(d: DocumentInput): d is { markdown: string } {
  return typeof (d as { markdown?: unknown }).markdown === 'string';
}

function isJson(d: DocumentInput): d is { document: JsonDocument } {
  return typeof (d as { document?: unknown }).document === 'object' && (d as { document?: unknown }).document !== null;
}

function checkDocument(doc: JsonDocument): JsonDocument {
  if (doc.object !== 'document' || !Array.isArray(doc.nodes)) {
    throw new InvalidInputError('document must be {"object":"document","data":{...},"nodes":[...]}');
  }
  if (doc.data === undefined) throw new InvalidInputError('document.data is required (an object)');
  documentData(doc);
  return { ...doc, nodes: withDefaults(doc.nodes) };
}

function checkSlug(slug: string): string {
  if (slug.length > SLUG_MAX || !/^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u.test(slug)) {
    throw new InvalidInputError(`slug "${slug}" must be 1 to ${SLUG_MAX} letters, digits, dots, hyphens or underscores`);
  }
  return slug;
}

type Change<K extends ContentChange['operation']> = Extract<ContentChange, { operation: K }>;

/** The state of one batch being applied: the tree and files it builds, and what it remembers for the bodies. */
class Batch {
  readonly tree: PageTree;
  readonly files: FileNode[];
  readonly insertedFiles: FileNode[] = [];
  private readonly fileRefs = new Map<string, string>();
  readonly refs = new Map<string, string>();
  /** Repository path → page id, for the pages inserted with a `path` (an import). */
  private readonly repoPaths = new Map<string, string>();
  /** The paths given in this batch (each at most once). */
  private readonly taken = new Set<string>();
  private readonly pending = new Map<string, PendingBody>();
  /** The index of the change being applied: bodies remember it. */
  current = -1;
  readonly reusable: ReusableContent[];
  variables: Record<string, string>;
  /** Repository path → reusable content id (an import's `.gitbook/includes/` files). */
  private readonly reusablePaths = new Map<string, string>();
  private readonly pendingReusable = new Map<string, PendingBody>();
  /** Link pages' targets as written (RepositoryPage.link), resolved with the bodies. */
  private readonly pendingLinks = new Map<string, string>();
  private readonly outcomes = new Map<string, ChangeOutcome>();

  constructor(
    current: PageTree,
    currentFiles: FileNode[],
    private readonly ctx: ApplyContext,
    currentReusable: ReusableContent[],
    currentVariables: Record<string, string>,
  ) {
    this.variables = { ...currentVariables };
    this.tree = cloneTree(current);
    this.files = [...currentFiles];
    this.reusable = currentReusable.map((r) => ({ ...r }));
    for (const [path, id] of ctx.repository?.reusable ?? []) if (this.reusable.some((r) => r.id === id)) this.reusablePaths.set(path, id);
    const known = new Set(currentFiles.map((f) => f.id));
    for (const [path, id] of ctx.repository?.pages ?? []) if (locate(this.tree, id)) this.repoPaths.set(path, id);
    for (const [path, id] of ctx.repository?.files ?? []) if (known.has(id)) this.fileRefs.set(path, id);
  }

  private takeReusable(id: string, raw: string, document: DocumentInput): void {
    const path = repositoryPath(raw);
    if (path === null || !path.endsWith('.md')) throw new InvalidInputError(`path "${raw}" must be a markdown file inside the repository`);
    if (this.taken.has(path)) throw new InvalidInputError(`path "${path}" is used twice in this batch`);
    this.taken.add(path);
    this.reusablePaths.set(path, id);
    this.pendingReusable.set(id, { input: document, path, change: this.current });
  }

  /** A repository path given with a page (an import), checked and taken by `id`. */
  private takePath(raw: string | undefined, id: string): string | undefined {
    if (raw === undefined) return undefined;
    const path = repositoryPath(raw);
    if (path === null || !path.endsWith('.md')) throw new InvalidInputError(`path "${raw}" must be a markdown file inside the repository`);
    if (this.taken.has(path)) throw new InvalidInputError(`path "${path}" is used twice in this batch`);
    this.taken.add(path);
    this.repoPaths.set(path, id);
    return path;
  }

  private touch(o: ChangeOutcome): void {
    const prev = this.outcomes.get(o.page);
    if (!prev) this.outcomes.set(o.page, o);
    else if (o.object === 'deleted_page') this.outcomes.set(o.page, prev.object === 'created_page' ? { ...o, object: 'deleted_page' } : o);
  }

  private idOf(ref: string): string {
    return this.refs.get(ref) ?? ref;
  }

  apply(change: ContentChange): void {
    switch (change.operation) {
      case 'insert_page':
        return this.insertPage(change);
      case 'update_page':
        return this.updatePage(change);
      case 'delete_page':
        return this.deletePage(change);
      case 'revert_page':
        return change.block ? this.revertBlocks(change) : this.revertPage(change);
      case 'insert_files':
        return this.insertFiles(change);
      case 'insert_reusable_content': {
        const id = this.ctx.newId();
        if (this.refs.has(change.ref)) throw new InvalidInputError(`ref "${change.ref}" is used twice in this batch`);
        this.refs.set(change.ref, id);
        this.reusable.push({ id, title: change.title, document: null, path: repositoryPath(change.path) ?? change.path });
        return this.takeReusable(id, change.path, change.document);
      }
      case 'update_reusable_content': {
        const found = this.reusable.find((r) => r.id === change.reusableContent);
        if (!found) throw new InvalidInputError(`reusable content "${change.reusableContent}" does not exist`);
        found.title = change.title;
        found.path = repositoryPath(change.path) ?? change.path;
        return this.takeReusable(found.id, change.path, change.document);
      }
      case 'set_variables':
        this.variables = { ...change.variables };
        return;
      case 'delete_reusable_content': {
        const at = this.reusable.findIndex((r) => r.id === change.reusableContent);
        if (at < 0) throw new InvalidInputError(`reusable content "${change.reusableContent}" does not exist`);
        this.reusable.splice(at, 1);
        this.pendingReusable.delete(change.reusableContent);
        return;
      }
      default:
        throw new InvalidInputError(`unknown operation "${(change as { operation: string }).operation}"`);
    }
  }

  private insertPage(change: Change<'insert_page'>): void {
    const { tree, ctx } = this;
    const id = ctx.newId();
    if (change.ref !== undefined) {
      if (this.refs.has(change.ref)) throw new InvalidInputError(`ref "${change.ref}" is used twice in this batch`);
      if (pathIndex(tree).has(change.ref)) throw new InvalidInputError(`ref "${change.ref}" collides with an existing page path`);
      this.refs.set(change.ref, id);
    }
    const into = change.into === undefined ? null : this.idOf(change.into);
    const siblings = childrenOf(tree, into);
    const meta = metaOf(change.document, change.path !== undefined);
    const title = (meta.title ?? change.title ?? 'Untitled').trim() || 'Untitled';
    let slug: string;
    if (change.slug !== undefined) {
      slug = checkSlug(change.slug);
      checkSlugFree(siblings, slug);
    } else slug = uniqueSlug(siblings, slugify(title, id));
    const node: PageNode = {
      id,
      type: change.type ?? 'document',
      title,
      slug,
      document: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      pages: [],
    };
    if (node.type === 'group' && into !== null) throw new InvalidInputError('a page group is a top-level page');
    if ((node.type === 'link') !== (change.link !== undefined))
      throw new InvalidInputError('a link page, and only a link page, has a link');
    applyMeta(node, { ...change, ...meta, title });
    insertAt(siblings, node, change.at);
    const path = this.takePath(change.path, id);
    if (change.link !== undefined) this.pendingLinks.set(id, change.link);
    else if (node.type !== 'group') this.pending.set(id, { input: change.document, change: this.current, ...(path ? { path } : {}) });
    this.touch({ object: 'created_page', page: id, ref: change.ref });
  }

  private updatePage(change: Change<'update_page'>): void {
    const { tree } = this;
    const id = this.idOf(change.page);
    const found = locate(tree, id);
    if (!found) throw new InvalidInputError(`page "${change.page}" does not exist`);
    const node = found.node;
    if (change.into !== undefined || change.at !== undefined) {
      const into = change.into === undefined ? (found.parent?.id ?? null) : change.into === null ? null : this.idOf(change.into);
      if (into !== null && isInside(tree, into, id))
        throw new InvalidInputError('a page cannot be moved under itself or its own descendants');
      const target = childrenOf(tree, into);
      found.siblings.splice(found.index, 1);
      const sameParent = into === (found.parent?.id ?? null);
      insertAt(target, node, change.at ?? (sameParent ? found.index : undefined));
      if (!change.slug) node.slug = uniqueSlug(target, node.slug, node.id);
    }
    const meta = change.document ? metaOf(change.document, change.path !== undefined) : {};
    const title = meta.title ?? change.title;
    if (title !== undefined && !title.trim()) throw new InvalidInputError('title must not be empty');
    applyMeta(node, { ...change, ...meta, title });
    if (change.slug !== undefined) {
      node.slug = checkSlug(change.slug);
      checkSlugFree(childrenOf(tree, locate(tree, id)!.parent?.id ?? null), node.slug, id);
    }
    const path = this.takePath(change.path, id);
    if (change.link !== undefined) {
      if (node.type !== 'link') throw new InvalidInputError('only a link page has a link');
      this.pendingLinks.set(id, change.link);
    }
    if (change.document && node.type !== 'link')
      this.pending.set(id, { input: change.document, change: this.current, ...(path ? { path } : {}) });
    node.updatedAt = this.ctx.now;
    this.touch({ object: 'updated_page', page: id });
  }

  private deletePage(change: Change<'delete_page'>): void {
    const id = this.idOf(change.page);
    const found = locate(this.tree, id);
    if (!found) throw new InvalidInputError(`page "${change.page}" does not exist`);
    found.siblings.splice(found.index, 1);
    this.pending.delete(id);
    this.touch({ object: 'deleted_page', page: id });
  }

  /** The page now and in the revision the change goes back to (at least one of them exists). */
  private revertSides(change: Change<'revert_page'>) {
    const target = this.ctx.trees.get(change.revision ?? '');
    if (!target) throw new InvalidInputError(`revision "${change.revision}" does not exist in this space`);
    const id = this.idOf(change.page);
    const now = locate(this.tree, id);
    const then = locate(target, id);
    if (!now && !then) throw new InvalidInputError(`page "${change.page}" exists neither in the change request nor in the revision`);
    return { id, now, then };
  }

  /** revert_page of a whole page: added → removed, deleted → restored, modified → reset (children stay). */
  private revertPage(change: Change<'revert_page'>): void {
    const { id, now, then } = this.revertSides(change);
    if (now && !then) {
      now.siblings.splice(now.index, 1);
      this.touch({ object: 'deleted_page', page: id });
    } else if (!now && then) {
      const parentId = then.parent && locate(this.tree, then.parent.id) ? then.parent.id : null;
      const siblings = childrenOf(this.tree, parentId);
      const restored = cloneTree([then.node])[0];
      restored.slug = uniqueSlug(siblings, restored.slug, restored.id);
      insertAt(siblings, restored, then.index);
      this.touch({ object: 'created_page', page: id });
    } else if (now && then) {
      const { pages } = now.node;
      Object.assign(now.node, { ...then.node, pages });
      for (const k of ['emoji', 'icon', 'description', 'hidden', 'condition', 'variables', 'layout', 'cover'] as const)
        if (then.node[k] === undefined) delete now.node[k];
      this.pending.delete(id);
      this.touch({ object: 'updated_page', page: id });
    }
  }

  /** revert_page with `block`: only the named block changes of the page's body are undone. */
  private revertBlocks(change: Change<'revert_page'>): void {
    const { id, now, then } = this.revertSides(change);
    if (!change.block!.length) throw new InvalidInputError('block must name at least one block');
    if (!now || !then)
      throw new InvalidInputError(
        `blocks can be reverted only on a page that exists both in the change request and in the revision; revert the whole page`,
      );
    if (this.pending.has(id))
      throw new InvalidInputError(
        `the body of page "${change.page}" is changed earlier in this batch; revert its blocks in a batch of its own`,
      );
    const body = (hash: string | null) => {
      if (!hash) return EMPTY_DOCUMENT;
      const doc = this.ctx.documents?.get(hash);
      if (!doc) throw new Error(`body ${hash} of page ${id} was not provided to revert_page`);
      return doc;
    };
    this.pending.set(id, {
      input: { document: revertBlocks(body(now.node.document), body(then.node.document), change.block!) },
      change: this.current,
    });
    now.node.updatedAt = this.ctx.now;
    this.touch({ object: 'updated_page', page: id });
  }

  private insertFiles(change: Change<'insert_files'>): void {
    for (const f of change.files) {
      const { ref, ...meta } = f;
      const file: FileNode = { id: this.ctx.newId(), ...meta };
      if (ref !== undefined) {
        if (this.refs.has(ref) || this.fileRefs.has(ref)) throw new InvalidInputError(`ref "${ref}" is used twice in this batch`);
        this.fileRefs.set(ref, file.id);
      }
      this.files.push(file);
      this.insertedFiles.push(file);
    }
  }

  /**
   * Bodies, now that every page of the batch has its place: links resolve against the final tree.
   * `failed(id, e)` names the change a body came from when it is refused.
   */
  bodies(failed: (pageId: string, e: InvalidInputError, change?: number) => never): Map<string, JsonDocument> {
    const documents = new Map<string, JsonDocument>();
    const paths = pathIndex(this.tree);
    for (const [id, body] of this.pending) {
      const located = locate(this.tree, id);
      if (!located) continue;
      let doc: JsonDocument;
      try {
        if (isMarkdown(body.input)) {
          const parentPath = located.path.includes('/') ? located.path.slice(0, located.path.lastIndexOf('/')) : '';
          const byTree = linkResolver(paths, this.refs, parentPath, this.fileRefs);
          const resolve = body.path ? repositoryResolver(body.path, this.repoPaths, this.fileRefs, byTree, this.reusablePaths) : byTree;
          const parsed = markdownToDocument(body.input.markdown, resolve, { titleFromHeading: true });
          doc = parsed.document;
          // The cover names an image of the space: resolved like the page's links (a repository's file says it all).
          if (parsed.meta.cover) located.node.cover = parsed.meta.cover;
          else if (body.path) delete located.node.cover;
          const outcome = this.outcomes.get(id);
          if (outcome && parsed.normalized.length) outcome.normalized = parsed.normalized;
        } else if (isJson(body.input)) doc = checkDocument(body.input.document);
        else doc = EMPTY_DOCUMENT;
      } catch (e) {
        if (e instanceof InvalidInputError) failed(id, e, body.change);
        throw e;
      }
      if (doc.nodes.length === 0) located.node.document = null;
      else {
        const hash = contentHash(doc);
        documents.set(hash, doc);
        located.node.document = hash;
      }
    }
    // Link pages: their targets resolve as a link of the repository's top does; one that reaches nothing stays a URL.
    for (const [id, link] of this.pendingLinks) {
      const located = locate(this.tree, id);
      if (!located) continue;
      const ref = repositoryResolver('', this.repoPaths, this.fileRefs, linkResolver(paths, this.refs, '', this.fileRefs))(link);
      located.node.target = ref.kind === 'page' ? ref : { kind: 'url', url: link };
    }
    // Reusable contents: their links resolve against the repository's paths (from the top of the tree).
    for (const [id, body] of this.pendingReusable) {
      const content = this.reusable.find((r) => r.id === id);
      if (!content) continue;
      let doc: JsonDocument;
      try {
        const byTree = linkResolver(paths, this.refs, '', this.fileRefs);
        doc = isMarkdown(body.input)
          ? markdownToDocument(
              body.input.markdown,
              repositoryResolver(body.path!, this.repoPaths, this.fileRefs, byTree, this.reusablePaths),
              {
                titleFromHeading: true,
              },
            ).document
          : isJson(body.input)
            ? checkDocument(body.input.document)
            : EMPTY_DOCUMENT;
      } catch (e) {
        if (e instanceof InvalidInputError) failed(id, e, body.change);
        throw e;
      }
      content.document = doc.nodes.length ? contentHash(doc) : null;
      if (content.document) documents.set(content.document, doc);
    }
    return documents;
  }

  outcomeList(): ChangeOutcome[] {
    return [...this.outcomes.values()];
  }
}

/**
 * Applies a batch of content changes to a tree, all or nothing: any failure throws an
 * InvalidInputError naming the change (`changes[2] (update_page): ...`) and nothing is returned.
 * Markdown links are resolved after the whole batch is placed, so pages can link to pages inserted
 * later in the same batch (by ref, slug path or relative .md path).
 */
export function applyChanges(
  current: PageTree,
  changes: ContentChange[],
  ctx: ApplyContext,
  currentFiles: FileNode[] = [],
  state: { reusableContents?: ReusableContent[]; variables?: Record<string, string> } = {},
): ApplyResult {
  const batch = new Batch(current, currentFiles, ctx, state.reusableContents ?? [], state.variables ?? {});
  const named = (index: number, e: InvalidInputError) =>
    new InvalidInputError(`changes[${index}] (${changes[index]?.operation}): ${e.message}`);
  changes.forEach((change, i) => {
    try {
      batch.current = i;
      batch.apply(change);
    } catch (e) {
      throw e instanceof InvalidInputError ? named(i, e) : e;
    }
  });
  const documents = batch.bodies((id, e, change) => {
    if (change !== undefined && change >= 0) throw named(change, e);
    const index = changes.findIndex(
      (c) =>
        ('ref' in c && c.ref && batch.refs.get(c.ref) === id) ||
        ('page' in c && (c.page === id || batch.refs.get(c.page) === id)) ||
        ('reusableContent' in c && c.reusableContent === id),
    );
    throw named(index, e);
  });
  return {
    tree: batch.tree,
    files: batch.files,
    insertedFiles: batch.insertedFiles,
    documents,
    outcomes: batch.outcomeList(),
    reusableContents: batch.reusable,
    variables: batch.variables,
  };
}

/**
 * The page attributes a markdown document's front matter sets. A repository's file (`fromRepository`) says all
 * of them: an attribute its front matter no longer has is removed (the file's `icon:` line deleted, the icon goes).
 */
function metaOf(input: DocumentInput, fromRepository = false): PageMeta {
  if (!isMarkdown(input)) return {};
  const parsed = markdownToDocument(input.markdown, defaultLinkResolver, { titleFromHeading: true });
  const meta: PageMeta = fromRepository ? { description: '', icon: '', emoji: '', hidden: false, variables: {}, layout: null } : {};
  if (parsed.meta.layout !== undefined) meta.layout = parsed.meta.layout;
  const title = parsed.meta.title ?? parsed.leadingTitle;
  if (title) meta.title = title;
  if (parsed.meta.description !== undefined) meta.description = parsed.meta.description;
  if (parsed.meta.emoji !== undefined) meta.emoji = parsed.meta.emoji;
  if (parsed.meta.hidden !== undefined) meta.hidden = parsed.meta.hidden;
  if (parsed.meta.variables !== undefined) meta.variables = parsed.meta.variables;
  if (parsed.meta.icon !== undefined) meta.icon = parsed.meta.icon;
  return meta;
}

function applyMeta(node: PageNode, meta: PageMeta): void {
  if (meta.title !== undefined) node.title = meta.title.trim();
  for (const k of ['emoji', 'description', 'icon'] as const) {
    const v = meta[k];
    if (v === undefined) continue;
    if (v === '') delete node[k];
    else node[k] = v;
  }
  if (meta.hidden !== undefined) node.hidden = meta.hidden;
  if (meta.variables !== undefined) {
    if (Object.keys(meta.variables).length) node.variables = meta.variables;
    else delete node.variables;
  }
  if (meta.layout === null) delete node.layout;
  else if (meta.layout !== undefined) node.layout = meta.layout;
  if (meta.condition === null || meta.condition === '') delete node.condition;
  else if (meta.condition !== undefined) node.condition = meta.condition;
}

/**
 * Markdown link targets → page references: `/pages/<id or ref>`, a slug path (`/guides/install`),
 * a relative `.md` path (`./install.md`, `../README.md`), or a batch ref; anything else stays a URL.
 */
/** A repository-relative path, normalized; null when it leaves the repository. */
function repositoryPath(path: string): string | null {
  const p = posix
    .normalize(path.replace(/\\/g, '/'))
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
  return p === '..' || p.startsWith('../') || p === '.' ? null : p;
}

/**
 * Links of a page imported from a repository: a relative link (or one from the repository's top, `/…`) to
 * another page's file — or its folder, whose `README.md` is the page — becomes a page reference, with its
 * anchor; a link to a file of the batch (its ref is its path) a file reference; anything else resolves as
 * `fallback` does.
 */
export function repositoryResolver(
  pagePath: string,
  pages: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string>,
  fallback: LinkResolver,
  reusable: ReadonlyMap<string, string> = new Map(),
): LinkResolver {
  return (url) => {
    if (!url || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return fallback(url);
    const hash = url.indexOf('#');
    const raw = hash < 0 ? url : url.slice(0, hash);
    const anchor = hash < 0 ? '' : url.slice(hash + 1);
    let decoded = raw;
    try {
      decoded = decodeURI(raw);
    } catch {
      // kept as written
    }
    const target = repositoryPath(decoded.startsWith('/') ? decoded : posix.join(posix.dirname(pagePath), decoded));
    if (target === null) return fallback(url);
    const page = pages.get(target) ?? pages.get(posix.join(target, 'README.md'));
    if (page) return anchor ? { kind: 'page', page, anchor } : { kind: 'page', page };
    const file = files.get(target);
    if (file && !anchor) return { kind: 'file', file };
    const included = reusable.get(target);
    if (included) return { kind: 'reusable-content', reusableContent: included };
    return fallback(url);
  };
}

export function linkResolver(
  paths: Map<string, string>,
  refs: Map<string, string>,
  parentPath: string,
  fileRefs: Map<string, string> = new Map(),
): LinkResolver {
  return (url) => {
    const base = defaultLinkResolver(url);
    const fileRef = fileRefs.get(url.replace(/^\.\//, ''));
    if (fileRef) return { kind: 'file', file: fileRef };
    if (base.kind === 'file') return { kind: 'file', file: fileRefs.get(base.file) ?? base.file };
    if (base.kind === 'page') return { ...base, page: refs.get(base.page) ?? base.page };
    if (base.kind !== 'url' || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return base;
    const [rawPath, anchor] = url.split('#', 2);
    let p = decodeURIComponent(rawPath);
    const withRef = p.replace(/^\.\//, '').replace(/\.md$/, '');
    if (refs.has(withRef)) return anchor ? { kind: 'page', page: refs.get(withRef)!, anchor } : { kind: 'page', page: refs.get(withRef)! };
    let segments: string[];
    if (p.startsWith('/')) segments = p.split('/').filter(Boolean);
    else {
      segments = parentPath ? parentPath.split('/') : [];
      for (const part of p.split('/')) {
        if (part === '' || part === '.') continue;
        if (part === '..') segments.pop();
        else segments.push(part);
      }
    }
    p = segments
      .join('/')
      .replace(/\.md$/, '')
      .replace(/(^|\/)(README|readme)$/, '');
    const id = paths.get(p);
    if (!id) return base;
    return anchor ? { kind: 'page', page: id, anchor } : { kind: 'page', page: id };
  };
}
