import { createHash } from 'node:crypto';
import { InvalidInputError } from '@app/shared-kernel';
import { innerNodes, type DocBlock, type DocInline, type DocText, type JsonDocument } from './document';
import { alignBlocks } from './block-changes';

type DocNode = DocBlock | DocInline | DocText;

/** One top-level block change between the target revision's document and the current one. */
interface BlockChange {
  /** Index in the current document (absent: the block was deleted). */
  current?: number;
  /** Index in the target document (absent: the block was added). */
  target?: number;
  selected: boolean;
}

/** Keys of a block and of everything inside it. */
function keysOf(node: DocNode, out: string[] = []): string[] {
  if ('key' in node && node.key) out.push(node.key);
  for (const child of innerNodes(node)) keysOf(child, out);
  return out;
}

/**
 * Reverts the listed block-level changes of a page's document to a target revision's document
 * (official `revert_page` with `block`): the top-level blocks of both are aligned (longest common
 * subsequence over their content), and each selected change is undone: an added block is removed, a
 * deleted block is restored where it was, a modified block is reset. Other blocks stay as they are.
 *
 * A key names the changed block that carries it (or anything inside it) in the current document,
 * else the changed block that carries it in the target's (a deleted block: clients read its key from
 * the revision). A key that names no changed block is refused. Kept blocks keep their keys; a
 * restored block whose key is taken gets a derived one.
 */
export function revertBlocks(current: JsonDocument, target: JsonDocument, keys: string[]): JsonDocument {
  const cur = current.nodes;
  const old = target.nodes;
  const changes: { at: number; length: number; items: BlockChange[] }[] = [];
  const byCurrentKey = new Map<string, BlockChange>();
  const byTargetKey = new Map<string, BlockChange>();
  for (const h of alignBlocks(old, cur)) {
    const items: BlockChange[] = h.items.map((i) => ({ ...i, selected: false }));
    for (const item of items) {
      if (item.current !== undefined) for (const k of keysOf(cur[item.current])) byCurrentKey.set(k, item);
      if (item.target !== undefined) for (const k of keysOf(old[item.target])) if (!byTargetKey.has(k)) byTargetKey.set(k, item);
    }
    changes.push({ at: h.at, length: h.length, items });
  }
  for (const key of keys) {
    // Keys are positional, so a deleted block's key may also be the key of an unchanged block now: a
    // changed block of the current document comes first, then a changed block of the target.
    const item = byCurrentKey.get(key) ?? byTargetKey.get(key);
    if (!item)
      throw new InvalidInputError(
        `block "${key}" has no change to revert (it is not a block added, deleted or modified since that revision)`,
      );
    item.selected = true;
  }

  const kept: DocBlock[] = [];
  const restored = new Set<DocBlock>();
  const restore = (b: DocBlock) => {
    const copy = structuredClone(b);
    restored.add(copy);
    return copy;
  };
  let next = 0;
  for (const change of changes.sort((a, b) => a.at - b.at)) {
    kept.push(...cur.slice(next, change.at));
    for (const item of change.items) {
      if (item.current !== undefined && item.target !== undefined) kept.push(item.selected ? restore(old[item.target]) : cur[item.current]);
      else if (item.current !== undefined) {
        if (!item.selected) kept.push(cur[item.current]);
      } else if (item.selected) kept.push(restore(old[item.target!]));
    }
    next = change.at + change.length;
  }
  kept.push(...cur.slice(next));
  // Blocks kept from the current document keep their keys; restored ones get a derived key on a clash.
  const taken = new Set(kept.filter((b) => !restored.has(b)).flatMap((b) => keysOf(b)));
  for (const b of restored) rekeyClashes(b, taken);
  return { ...current, nodes: kept.map((b) => (restored.has(b) ? b : structuredClone(b))) };
}

/** Gives a derived key (a hash of the key and a counter) to each node of `node` whose key is taken. */
function rekeyClashes(node: DocNode, taken: Set<string>): void {
  if ('key' in node && node.key) {
    let key = node.key;
    for (let n = 1; taken.has(key); n++) key = createHash('sha1').update(`${node.key}~${n}`).digest('base64url').slice(0, 10);
    node.key = key;
    taken.add(key);
  }
  for (const child of innerNodes(node)) rekeyClashes(child, taken);
}
