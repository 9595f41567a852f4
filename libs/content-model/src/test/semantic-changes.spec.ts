import { documentsForBlocks, semanticChanges, withBlocks } from '..';
import { blockChanges } from '..';
import type { DocBlock, JsonDocument } from '..';
import type { FileNode } from '..';
import type { PageNode } from '..';

const page = (id: string, pages: PageNode[] = [], extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  document: `h-${id}`,
  pages,
  ...extra,
});
const file = (id: string, extra: Partial<FileNode> = {}): FileNode => ({
  id,
  name: `${id}.txt`,
  contentType: 'text/plain',
  size: 1,
  hash: `f-${id}`,
  ...extra,
});

describe('semantic changes between two revisions', () => {
  it('a page reordered among the same siblings is moved with its positions; one shifted by an insertion is not', () => {
    const before = { tree: [page('a'), page('b'), page('c')], files: [] };
    const swapped = semanticChanges(before, { tree: [page('a'), page('c'), page('b')], files: [] });
    expect(swapped.map((c) => [c.type, 'page' in c ? c.page.id : ''])).toEqual([
      ['page_moved', 'c'],
      ['page_moved', 'b'],
    ]);
    expect(swapped[0]).toMatchObject({ position: { before: 2, after: 1 } });
    const inserted = semanticChanges(before, { tree: [page('n'), page('a'), page('b'), page('c')], files: [] });
    expect(inserted.map((c) => c.type)).toEqual(['page_created']);
  });

  it('edits name the attributes that changed; removed emoji has only a before', () => {
    const out = semanticChanges(
      { tree: [page('a', [], { emoji: '1f600', description: 'old' })], files: [] },
      { tree: [page('a', [], { description: 'new', slug: 'a2' })], files: [] },
    );
    expect(out).toEqual([
      {
        type: 'page_edited',
        page: { id: 'a', type: 'document', title: 'A', path: 'a2' },
        attributes: { description: { before: 'old', after: 'new' }, slug: { before: 'a', after: 'a2' }, emoji: { before: '1f600' } },
      },
    ]);
  });

  it('files created, edited (name, type, bytes) and deleted', () => {
    const out = semanticChanges(
      { tree: [], files: [file('x'), file('y'), file('z')] },
      { tree: [], files: [file('x', { name: 'renamed.txt' }), file('y', { hash: 'other' }), file('w')] },
    );
    expect(out.map((c) => [c.type, 'file' in c ? c.file.id : ''])).toEqual([
      ['file_edited', 'x'],
      ['file_edited', 'y'],
      ['file_created', 'w'],
      ['file_deleted', 'z'],
    ]);
    expect(out[0]).toMatchObject({ attributes: { name: { before: 'x.txt', after: 'renamed.txt' } } });
    expect(out[1]).toMatchObject({ attributes: { downloadURL: {} } });
  });

  it('no parent: everything is created; equal revisions: nothing changed', () => {
    const tree = [page('a', [page('b')])];
    expect(semanticChanges(null, { tree, files: [file('x')] }).map((c) => c.type)).toEqual([
      'page_created',
      'page_created',
      'file_created',
    ]);
    expect(semanticChanges({ tree, files: [] }, { tree, files: [] })).toEqual([]);
  });
});

describe('block changes of an edited page', () => {
  const p = (key: string, text: string, type = 'paragraph'): DocBlock => ({
    object: 'block',
    type,
    key,
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
  });
  const doc = (...nodes: DocBlock[]): JsonDocument => ({ object: 'document', data: {}, nodes });

  it('aligns by content, not by key: renumbered keys of unchanged blocks are no change', () => {
    expect(blockChanges(doc(p('a', 'One'), p('b', 'Two')), doc(p('x', 'One'), p('y', 'Two')))).toEqual([]);
  });

  it('a block of another type is a deletion and an addition; a missing document has no blocks', () => {
    expect(blockChanges(doc(p('a', 'Title')), doc(p('a', 'Title', 'heading-1')))).toEqual([
      { change: 'deleted', key: 'a', type: 'paragraph', text: { before: 'Title' } },
      { change: 'added', key: 'a', type: 'heading-1', text: { after: 'Title' } },
    ]);
    expect(blockChanges(null, doc(p('a', 'New')))).toEqual([{ change: 'added', key: 'a', type: 'paragraph', text: { after: 'New' } }]);
    expect(blockChanges(doc(p('a', 'Old')), null)).toEqual([{ change: 'deleted', key: 'a', type: 'paragraph', text: { before: 'Old' } }]);
  });

  it('cuts the text to 200 characters; lists blocks for the first 100 edited pages only', () => {
    const long = 'x'.repeat(500);
    expect(blockChanges(doc(), doc(p('a', long)))[0].text.after).toHaveLength(200);
    const edited = Array.from({ length: 101 }, (_, i) => ({
      type: 'page_edited' as const,
      page: { id: `p${i}`, type: 'document' as const, title: '', path: '' },
      attributes: { document: { before: `b${i}`, after: `a${i}` } },
    }));
    expect(documentsForBlocks(edited)).toHaveLength(200);
    const docs = new Map(edited.flatMap((e, i) => [[`b${i}`, doc(p('k', 'old'))] as const, [`a${i}`, doc(p('k', 'new'))] as const]));
    const out = withBlocks(edited, docs) as { blocks?: unknown[] }[];
    expect(out[99].blocks).toHaveLength(1);
    expect(out[100].blocks).toBeUndefined();
  });
});
