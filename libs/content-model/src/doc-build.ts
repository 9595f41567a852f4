import { hash } from 'node:crypto';
import type { DocBlock, DocInline, DocLeaf, DocMark } from './document';

/** Builders shared by the markdown and HTML importers. */

/** A mark without data by its type; a colour mark as `color:<text>:<background>` (`markKey`). */
export type MarkKey = Exclude<DocMark['type'], 'color'> | `color:${string}`;
export type Marks = MarkKey[];

/** A mark as the key leaves are compared and nested by (a colour mark's colours are part of its key). */
export function markKey(m: DocMark): MarkKey {
  return m.type === 'color' ? `color:${m.data.text}:${m.data.background}` : m.type;
}

/** The colour mark of this text and background colour. */
export function colorMark(text: string, background: string): MarkKey {
  return `color:${text}:${background}`;
}

function markOf(key: MarkKey): DocMark {
  if (!key.startsWith('color:')) return { object: 'mark', type: key as Exclude<DocMark['type'], 'color'> };
  const [, text, background] = key.split(':');
  return { object: 'mark', type: 'color', data: { text, background } };
}

/** Deterministic block keys: a hash of the block's path in the document (no randomness in the domain). */
export function keyOf(path: string): string {
  // crypto.hash: the one-shot form (same digest, without a Hash object per key; keys were ~10 % of an import).
  return hash('sha1', path, 'base64url').slice(0, 10);
}

const MARK_ORDER: Marks = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'];

/** A leaf with its marks in one canonical order, so equal formatting gives equal documents (the innermost colour wins). */
export function leaf(text: string, marks: Marks): DocLeaf {
  const color = marks.findLast((m) => m.startsWith('color:'));
  const ordered = MARK_ORDER.filter((m) => marks.includes(m));
  return { object: 'leaf', text, marks: (color ? [...ordered, color] : ordered).map(markOf) };
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
  if (item.object === 'leaf') return item.marks.some((m) => markKey(m) === mark);
  if (item.type !== 'link') return false;
  const leaves = leavesIn(item.nodes).filter((l) => l.text !== '');
  return leaves.length > 0 && leaves.every((l) => l.marks.some((m) => markKey(m) === mark));
}

/** The colour marks an item may carry (a leaf's own; a link's first text's). */
function colorKeys(item: InlineItem): MarkKey[] {
  const marks =
    item.object === 'leaf' ? item.marks : item.type === 'link' ? (leavesIn(item.nodes).find((l) => l.text !== '')?.marks ?? []) : [];
  return marks.filter((m) => m.type === 'color').map(markKey);
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
  wrap: (mark: MarkKey, inner: T[]) => T[],
  outer: ReadonlySet<string> = new Set(),
): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < items.length) {
    const candidates = wrapping.flatMap((w): MarkKey[] => (w === 'color' ? colorKeys(items[i]) : [w]));
    const mark = candidates.find((m) => !outer.has(m) && carries(items[i], m));
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
