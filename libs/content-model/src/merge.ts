import { diff3Merge } from 'node-diff3';
import { JsonDocument } from './document';
import { contentHash } from './hash';
import { markdownToDocument } from './markdown';
import { documentToMarkdown } from './document-to-markdown';
import { PageNode, PageTree, walk } from './tree';

export type ConflictReason = 'both-edited' | 'delete-vs-edit' | 'both-moved' | 'both-changed' | 'cycle';

export interface MergeConflict {
  page: string;
  title: string;
  reason: ConflictReason;
  /** The page attributes or body in conflict. */
  fields: string[];
}

export interface MergeResult {
  tree: PageTree;
  /** Bodies produced by line-level merges, by hash. */
  documents: Map<string, JsonDocument>;
  conflicts: MergeConflict[];
}

interface Flat {
  node: Omit<PageNode, 'pages'>;
  parent: string | null;
  index: number;
}

const ATTRIBUTES = ['type', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'condition'] as const;
/** A page's object-valued attributes, each compared and merged as one value. */
const OBJECT_ATTRIBUTES = ['variables', 'layout', 'cover', 'target'] as const;
const valueOf = (n: Flat, k: (typeof OBJECT_ATTRIBUTES)[number]) => {
  const v = n.node[k];
  return JSON.stringify(v && Object.keys(v).length ? v : null);
};

/** The bodies a merge needs: only pages whose body both sides changed, differently (line-level merges). */
export function bodiesToMerge(base: PageTree, ours: PageTree, theirs: PageTree): string[] {
  const b = flatten(base);
  const o = flatten(ours);
  const t = flatten(theirs);
  const hashes: string[] = [];
  for (const [id, bb] of b) {
    const oo = o.get(id)?.node.document;
    const tt = t.get(id)?.node.document;
    if (oo === undefined || tt === undefined) continue;
    if (oo !== bb.node.document && tt !== bb.node.document && oo !== tt) {
      for (const h of [bb.node.document, oo, tt]) if (h) hashes.push(h);
    }
  }
  return hashes;
}

function flatten(tree: PageTree): Map<string, Flat> {
  const m = new Map<string, Flat>();
  walk(tree, (l) => {
    const { pages: _pages, ...node } = l.node;
    m.set(l.node.id, { node, parent: l.parent?.id ?? null, index: l.index });
  });
  return m;
}

function changedFields(a: Flat, b: Flat): string[] {
  const fields: string[] = ATTRIBUTES.filter((k) => a.node[k] !== b.node[k]);
  for (const k of OBJECT_ATTRIBUTES) if (valueOf(a, k) !== valueOf(b, k)) fields.push(k);
  if (a.node.document !== b.node.document) fields.push('document');
  if (a.parent !== b.parent) fields.push('parent');
  return fields;
}

/** Three-way choice: the side that changed wins; both changing to different values is a conflict. */
function pick<T>(base: T, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (ours === theirs) return { value: ours, conflict: false };
  if (ours === base) return { value: theirs, conflict: false };
  if (theirs === base) return { value: ours, conflict: false };
  return { value: ours, conflict: true };
}

/**
 * Merges two descendants (ours, theirs) of a common base revision tree. Page level for the tree
 * (additions, deletions, moves, attributes); line level (diff3 on the markdown) for pages whose body
 * both sides edited. A true conflict is reported, never dropped: when `conflicts` is not empty,
 * `tree` must not be used.
 */
export function mergeTrees(base: PageTree, ours: PageTree, theirs: PageTree, body: (hash: string) => JsonDocument | null): MergeResult {
  const b = flatten(base);
  const o = flatten(ours);
  const t = flatten(theirs);
  const conflicts: MergeConflict[] = [];
  const documents = new Map<string, JsonDocument>();
  const merged = new Map<string, Flat & { fromTheirs: boolean }>();
  const markdownOf = (hash: string | null) => {
    if (!hash) return '';
    const doc = body(hash);
    return doc ? documentToMarkdown(doc) : '';
  };

  for (const id of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const bb = b.get(id);
    const oo = o.get(id);
    const tt = t.get(id);
    if (!bb) {
      if (oo) merged.set(id, { ...oo, fromTheirs: false });
      else if (tt) merged.set(id, { ...tt, fromTheirs: true });
      continue;
    }
    if (!oo && !tt) continue;
    if (!oo || !tt) {
      const kept = (oo ?? tt)!;
      const edits = changedFields(bb, kept);
      if (edits.length) conflicts.push({ page: id, title: kept.node.title, reason: 'delete-vs-edit', fields: edits });
      continue;
    }
    const node = { ...oo.node };
    const clashing: string[] = [];
    for (const k of ATTRIBUTES) {
      const r = pick(bb.node[k], oo.node[k], tt.node[k]);
      (node as Record<string, unknown>)[k] = r.value;
      if (r.conflict) clashing.push(k);
    }
    for (const k of OBJECT_ATTRIBUTES) {
      const r = pick(valueOf(bb, k), valueOf(oo, k), valueOf(tt, k));
      const value: unknown = JSON.parse(r.value);
      if (value === null) delete node[k];
      else (node as Record<string, unknown>)[k] = value;
      if (r.conflict) clashing.push(k);
    }
    if (clashing.length) conflicts.push({ page: id, title: oo.node.title, reason: 'both-changed', fields: clashing });
    const parent = pick(bb.parent, oo.parent, tt.parent);
    if (parent.conflict) conflicts.push({ page: id, title: oo.node.title, reason: 'both-moved', fields: ['parent'] });
    const theirsMoved = tt.parent !== bb.parent || tt.index !== bb.index;
    const oursMoved = oo.parent !== bb.parent || oo.index !== bb.index;
    const doc = pick(bb.node.document, oo.node.document, tt.node.document);
    if (!doc.conflict) node.document = doc.value;
    else {
      const lines = (h: string | null) => markdownOf(h).split('\n');
      const regions = diff3Merge(lines(oo.node.document), lines(bb.node.document), lines(tt.node.document));
      if (regions.some((r) => r.conflict)) conflicts.push({ page: id, title: oo.node.title, reason: 'both-edited', fields: ['document'] });
      else {
        const markdown = regions.flatMap((r) => r.ok ?? []).join('\n');
        const mergedDoc = markdownToDocument(markdown).document;
        if (mergedDoc.nodes.length === 0) node.document = null;
        else {
          const hash = contentHash(mergedDoc);
          documents.set(hash, mergedDoc);
          node.document = hash;
        }
      }
    }
    const fromTheirs = theirsMoved && !oursMoved;
    merged.set(id, { node, parent: parent.value, index: fromTheirs ? tt.index : oo.index, fromTheirs });
  }

  // A page kept or added under a parent that the other side deleted.
  for (const [id, m] of merged) {
    if (m.parent !== null && !merged.has(m.parent)) {
      conflicts.push({
        page: m.parent,
        title: (b.get(m.parent) ?? o.get(m.parent) ?? t.get(m.parent))?.node.title ?? m.parent,
        reason: 'delete-vs-edit',
        fields: [`child ${id}`],
      });
    }
  }
  // Moves on both sides that make a page its own ancestor.
  for (const [id] of merged) {
    const seen = new Set<string>();
    let p: string | null = id;
    while (p !== null && merged.has(p)) {
      if (seen.has(p)) {
        conflicts.push({ page: id, title: merged.get(id)!.node.title, reason: 'cycle', fields: ['parent'] });
        break;
      }
      seen.add(p);
      p = merged.get(p)!.parent;
    }
  }
  if (conflicts.length) return { tree: ours, documents: new Map(), conflicts: dedupe(conflicts) };

  const children = new Map<string | null, (Flat & { fromTheirs: boolean })[]>();
  for (const m of merged.values()) children.set(m.parent, [...(children.get(m.parent) ?? []), m]);
  const build = (parent: string | null): PageTree =>
    (children.get(parent) ?? [])
      .sort((x, y) => x.index - y.index || Number(x.fromTheirs) - Number(y.fromTheirs) || (x.node.id < y.node.id ? -1 : 1))
      .map((m) => ({ ...m.node, pages: build(m.node.id) }));
  return { tree: build(null), documents, conflicts: [] };
}

function dedupe(conflicts: MergeConflict[]): MergeConflict[] {
  const seen = new Map<string, MergeConflict>();
  for (const c of conflicts) {
    const key = `${c.page}:${c.reason}`;
    if (!seen.has(key)) seen.set(key, c);
  }
  return [...seen.values()];
}
