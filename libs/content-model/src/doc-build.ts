import { hash } from 'node:crypto';
import type { DocBlock, DocInline, DocLeaf, DocMark } from './document';

/** Builders shared by the markdown and HTML importers. */

export type Marks = DocMark['type'][];

/** Deterministic block keys: a hash of the block's path in the document (no randomness in the domain). */
export function keyOf(path: string): string {
  // crypto.hash: the one-shot form (same digest, without a Hash object per key; keys were ~10 % of an import).
  return hash('sha1', path, 'base64url').slice(0, 10);
}

const MARK_ORDER: Marks = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'];

/** A leaf with its marks in one canonical order, so equal formatting gives equal documents. */
export function leaf(text: string, marks: Marks): DocLeaf {
  return { object: 'leaf', text, marks: MARK_ORDER.filter((m) => marks.includes(m)).map((type) => ({ object: 'mark', type })) };
}

export function block(type: string, path: string, data: Record<string, unknown>, nodes?: DocBlock['nodes'], isVoid = false): DocBlock {
  const b: DocBlock = { object: 'block', type, key: keyOf(path), data };
  if (isVoid) b.isVoid = true;
  else b.nodes = nodes ?? [];
  if (!isVoid) b.isVoid = false;
  return b;
}

/** A leaf or an inline, in the order they appear in a block. */
export type InlineItem = DocLeaf | DocInline;

function leavesIn(nodes: DocInline['nodes']): DocLeaf[] {
  return (nodes ?? []).flatMap((n) => (n.object === 'text' ? n.leaves : leavesIn(n.nodes)));
}

/** Whether an item carries a mark: a leaf when it has it, a link when all its text has it. */
function carries(item: InlineItem, mark: string): boolean {
  if (item.object === 'leaf') return item.marks.some((m) => m.type === mark);
  if (item.type !== 'link') return false;
  const leaves = leavesIn(item.nodes).filter((l) => l.text !== '');
  return leaves.length > 0 && leaves.every((l) => l.marks.some((m) => m.type === mark));
}

/** The leaves and inlines of a block's texts and inlines, in order. */
export function inlineItems(nodes: DocBlock['nodes']): InlineItem[] {
  const out: InlineItem[] = [];
  for (const n of nodes ?? []) {
    if (n.object === 'text') out.push(...n.leaves);
    else if (n.object === 'inline') out.push(n);
  }
  return out;
}

/**
 * Marks back to nested wrappers (markdown emphasis, HTML tags): consecutive items that share a mark share
 * one wrapper, links included (`_a [b](u) c_` stays one emphasis instead of three). `emit` writes an item
 * whose marks in `outer` are already open.
 */
export function nestMarks<T>(
  items: InlineItem[],
  wrapping: readonly DocMark['type'][],
  emit: (item: InlineItem, outer: ReadonlySet<string>) => T[],
  wrap: (mark: DocMark['type'], inner: T[]) => T[],
  outer: ReadonlySet<string> = new Set(),
): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < items.length) {
    const mark = wrapping.find((m) => !outer.has(m) && carries(items[i], m));
    if (!mark) {
      out.push(...emit(items[i], outer));
      i += 1;
      continue;
    }
    let j = i;
    while (j < items.length && carries(items[j], mark)) j += 1;
    out.push(...wrap(mark, nestMarks(items.slice(i, j), wrapping, emit, wrap, new Set([...outer, mark]))));
    i = j;
  }
  return out;
}
