import type { FileNode } from './files';
import { blockChanges, type BlockChange } from './block-changes';
import type { JsonDocument } from './document';
import { PageNode, PageTree, walk } from './tree';

/** A page as a change names it: its id, type, title and path in the revision it is read from. */
export interface ChangedPage {
  id: string;
  type: PageNode['type'];
  title: string;
  path: string;
}

type Attribute = { before?: string; after?: string };

/** What changed between two revisions (official RevisionSemanticChange, pages and files). */
export type SemanticChange =
  | { type: 'page_created'; page: ChangedPage }
  | { type: 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, Attribute>; blocks?: BlockChange[] }
  | {
      type: 'page_moved';
      page: ChangedPage;
      parent: { before?: ChangedPage; after?: ChangedPage };
      position?: { before: number; after: number };
    }
  | { type: 'file_created'; file: FileNode }
  | { type: 'file_deleted'; file: FileNode }
  | { type: 'file_edited'; file: FileNode; attributes: Record<string, Attribute> };

interface Placed {
  node: PageNode;
  page: ChangedPage;
  parent: PageNode | null;
  siblings: PageNode[];
  index: number;
}

function placed(tree: PageTree): Map<string, Placed> {
  const out = new Map<string, Placed>();
  walk(tree, ({ node, parent, siblings, index, path }) =>
    out.set(node.id, { node, parent, siblings, index, page: { id: node.id, type: node.type, title: node.title, path } }),
  );
  return out;
}

const EDITED_FIELDS = ['title', 'description', 'slug', 'emoji', 'document'] as const;

/**
 * The semantic changes from `before` to `after` (a revision against its first parent, a change request
 * against its base), in the order of `after`'s tree, deleted pages last, then files. A page whose parent
 * changed is `page_moved` (also when it was edited: then `page_edited` follows); a page reordered among
 * the same siblings is `page_moved` with `position` and the same parent. `document` attributes are the
 * content hashes of the bodies (what changed, not how: the page's blocks are compared by the reader).
 */
export function semanticChanges(
  before: { tree: PageTree; files: FileNode[] } | null,
  after: { tree: PageTree; files: FileNode[] },
): SemanticChange[] {
  const old = placed(before?.tree ?? []);
  const now = placed(after.tree);
  const changes: SemanticChange[] = [];
  const pageOf = (p: PageNode | null, from: Map<string, Placed>): ChangedPage | undefined => (p ? from.get(p.id)?.page : undefined);
  for (const [id, n] of now) {
    const o = old.get(id);
    if (!o) {
      changes.push({ type: 'page_created', page: n.page });
      continue;
    }
    const parentBefore = o.parent?.id ?? null;
    const parentAfter = n.parent?.id ?? null;
    if (parentBefore !== parentAfter)
      changes.push({ type: 'page_moved', page: n.page, parent: { before: pageOf(o.parent, old), after: pageOf(n.parent, now) } });
    else if (o.index !== n.index && siblingsReordered(o, n))
      changes.push({
        type: 'page_moved',
        page: n.page,
        parent: { before: pageOf(o.parent, old), after: pageOf(n.parent, now) },
        position: { before: o.index, after: n.index },
      });
    const attributes: Record<string, Attribute> = {};
    for (const field of EDITED_FIELDS) {
      const b = o.node[field] ?? undefined;
      const a = n.node[field] ?? undefined;
      if (b !== a) attributes[field] = { ...(b !== undefined ? { before: b } : {}), ...(a !== undefined ? { after: a } : {}) };
    }
    if (Object.keys(attributes).length) changes.push({ type: 'page_edited', page: n.page, attributes });
  }
  for (const [id, o] of old) if (!now.has(id)) changes.push({ type: 'page_deleted', page: o.page });

  const oldFiles = new Map((before?.files ?? []).map((f) => [f.id, f]));
  const newFiles = new Map(after.files.map((f) => [f.id, f]));
  for (const [id, f] of newFiles) {
    const o = oldFiles.get(id);
    if (!o) changes.push({ type: 'file_created', file: f });
    else {
      const attributes: Record<string, Attribute> = {};
      if (o.name !== f.name) attributes.name = { before: o.name, after: f.name };
      if (o.contentType !== f.contentType) attributes.contentType = { before: o.contentType, after: f.contentType };
      if (o.hash !== f.hash) attributes.downloadURL = {};
      if (Object.keys(attributes).length) changes.push({ type: 'file_edited', file: f, attributes });
    }
  }
  for (const [id, f] of oldFiles) if (!newFiles.has(id)) changes.push({ type: 'file_deleted', file: f });
  return changes;
}

/**
 * Whether a page kept its parent but moved among its siblings for its own sake (not only because a
 * sibling was added or removed before it): its place among the siblings present in both trees changed.
 */
function siblingsReordered(o: Placed, n: Placed): boolean {
  const afterIds = new Set(n.siblings.map((x) => x.id));
  const beforeIds = new Set(o.siblings.map((x) => x.id));
  const b = o.siblings.filter((x) => afterIds.has(x.id)).map((x) => x.id);
  const a = n.siblings.filter((x) => beforeIds.has(x.id)).map((x) => x.id);
  return b.indexOf(o.node.id) !== a.indexOf(n.node.id);
}

/** Pages whose blocks are listed (`blocks` of `page_edited`); the edits of further pages name only their document hashes. */
export const MAX_PAGES_WITH_BLOCKS = 100;

/** The document hashes whose bodies `withBlocks` needs. */
export function documentsForBlocks(changes: SemanticChange[]): string[] {
  const hashes = new Set<string>();
  let pages = 0;
  for (const c of changes) {
    if (c.type !== 'page_edited' || !c.attributes.document || pages++ >= MAX_PAGES_WITH_BLOCKS) continue;
    const { before, after } = c.attributes.document;
    if (before) hashes.add(before);
    if (after) hashes.add(after);
  }
  return [...hashes];
}

/** Adds to each edited page whose document changed (the first MAX_PAGES_WITH_BLOCKS) its block-level changes. */
export function withBlocks(changes: SemanticChange[], documents: Map<string, JsonDocument>): SemanticChange[] {
  let pages = 0;
  return changes.map((c) => {
    if (c.type !== 'page_edited' || !c.attributes.document || pages++ >= MAX_PAGES_WITH_BLOCKS) return c;
    const { before, after } = c.attributes.document;
    const doc = (h?: string) => (h ? (documents.get(h) ?? null) : null);
    return { ...c, blocks: blockChanges(doc(before), doc(after)) };
  });
}
