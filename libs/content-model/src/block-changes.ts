import { diffIndices } from 'node-diff3';
import { documentText, type DocBlock, type JsonDocument } from './document';
import { contentHash } from './hash';

/** A block's content without keys: keys are positional, so a moved or unchanged block may carry another. */
export function withoutKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'key')
      .map(([k, v]) => [k, withoutKeys(v)]),
  );
}

/** One changed run of top-level blocks: `items` pair the blocks of both documents in order. */
export interface BlockHunk {
  /** Where the run starts in the newer document, and how many of its blocks it holds. */
  at: number;
  length: number;
  /** `current`: index in the newer document (absent: deleted); `target`: in the older one (absent: added). */
  items: { current?: number; target?: number }[];
}

/**
 * The top-level blocks of two documents aligned by content (longest common subsequence over their
 * hashes without keys); the changed runs, in order. The one alignment of the block-level revert and
 * of the block changes of "what changed".
 */
export function alignBlocks(older: DocBlock[], newer: DocBlock[]): BlockHunk[] {
  const hash = (b: DocBlock) => contentHash(withoutKeys(b));
  const hunks = diffIndices(older.map(hash), newer.map(hash)) as { buffer1: [number, number]; buffer2: [number, number] }[];
  return hunks.map((h) => {
    const [oldAt, oldLength] = h.buffer1;
    const [curAt, curLength] = h.buffer2;
    const items: BlockHunk['items'] = [];
    for (let j = 0; j < Math.max(oldLength, curLength); j++)
      items.push({ ...(j < curLength ? { current: curAt + j } : {}), ...(j < oldLength ? { target: oldAt + j } : {}) });
    return { at: curAt, length: curLength, items };
  });
}

/** A block added, deleted or modified in a page's document (Quire's extension of `page_edited`). */
export interface BlockChange {
  change: 'added' | 'deleted' | 'modified';
  /** The block's key: in the newer document, or in the older one for a deleted block (what `revert_page` takes). */
  key: string;
  type: string;
  /** The start of the block's text, before and after (up to 200 characters). */
  text: { before?: string; after?: string };
}

const EXCERPT = 200;
const textOf = (b: DocBlock) => documentText({ object: 'document', data: {}, nodes: [b] }).slice(0, EXCERPT);

/** The block-level changes from `older` to `newer` (a missing document has no blocks). */
export function blockChanges(older: JsonDocument | null, newer: JsonDocument | null): BlockChange[] {
  const old = older?.nodes ?? [];
  const cur = newer?.nodes ?? [];
  const out: BlockChange[] = [];
  for (const hunk of alignBlocks(old, cur))
    for (const { current, target } of hunk.items) {
      if (current !== undefined && target !== undefined) {
        const [b, a] = [old[target], cur[current]];
        // A block replaced by one of another kind reads better as a deletion and an addition.
        if (b.type === a.type) out.push({ change: 'modified', key: a.key, type: a.type, text: { before: textOf(b), after: textOf(a) } });
        else
          out.push(
            { change: 'deleted', key: b.key, type: b.type, text: { before: textOf(b) } },
            { change: 'added', key: a.key, type: a.type, text: { after: textOf(a) } },
          );
      } else if (current !== undefined)
        out.push({ change: 'added', key: cur[current].key, type: cur[current].type, text: { after: textOf(cur[current]) } });
      else out.push({ change: 'deleted', key: old[target!].key, type: old[target!].type, text: { before: textOf(old[target!]) } });
    }
  return out;
}
