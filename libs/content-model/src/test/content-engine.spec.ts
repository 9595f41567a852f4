import { InvalidInputError } from '@app/shared-kernel';
import { applyChanges, ApplyContext, ContentChange } from '..';
import type { JsonDocument } from '..';
import { documentToMarkdown } from '..';
import { mergeTrees } from '..';
import { locate, PageTree, pathIndex, slugify } from '..';

function ctx(trees: Map<string, PageTree> = new Map()): ApplyContext {
  let n = 0;
  return { newId: () => `p${++n}`, now: '2026-01-01T00:00:00.000Z', trees };
}

/** Applies changes and keeps every body, so tests can read pages back as markdown. */
function apply(tree: PageTree, changes: ContentChange[], bodies: Map<string, JsonDocument>, c = ctx()) {
  const r = applyChanges(tree, changes, c);
  r.documents.forEach((d, h) => bodies.set(h, d));
  return r;
}

const md = (tree: PageTree, id: string, bodies: Map<string, JsonDocument>) => {
  const hash = locate(tree, id)!.node.document;
  return hash ? documentToMarkdown(bodies.get(hash)!) : '';
};

describe('slugs', () => {
  it('come from titles in any script', () => {
    expect(slugify('Getting Started!', 'x')).toBe('getting-started');
    expect(slugify('日本語 ガイド', 'x')).toBe('日本語-ガイド');
    expect(slugify('???', 'Fallback')).toBe('fallback');
  });
});

describe('applyChanges', () => {
  it('inserts pages with titles from frontmatter or a leading heading, nested and positioned', () => {
    const bodies = new Map<string, JsonDocument>();
    const r = apply(
      [],
      [
        { operation: 'insert_page', ref: 'guide', document: { markdown: '---\ntitle: Guide\n---\n\nIntro' } },
        { operation: 'insert_page', into: 'guide', document: { markdown: '# Install\n\nRun it.' } },
        { operation: 'insert_page', title: 'First', at: 0, document: {} },
      ],
      bodies,
    );
    expect(r.tree.map((p) => p.title)).toEqual(['First', 'Guide']);
    expect(r.tree[1].pages.map((p) => [p.title, p.slug])).toEqual([['Install', 'install']]);
    expect([...pathIndex(r.tree).keys()]).toEqual(['first', 'guide', 'guide/install']);
    expect(md(r.tree, 'p2', bodies)).toBe('Run it.\n');
    expect(r.tree[0].document).toBeNull();
    expect(r.outcomes).toEqual([
      { object: 'created_page', page: 'p1', ref: 'guide' },
      { object: 'created_page', page: 'p2', ref: undefined },
      { object: 'created_page', page: 'p3', ref: undefined },
    ]);
  });

  it('resolves links to batch refs, slug paths, relative .md paths and /pages/<id>', () => {
    const bodies = new Map<string, JsonDocument>();
    const r = apply(
      [],
      [
        {
          operation: 'insert_page',
          ref: 'a',
          title: 'A',
          document: {
            markdown: 'See [B](./b.md), [B again](/section/b), [C](c.md#top), [raw](/pages/zzz) and [web](https://example.com).',
          },
        },
        { operation: 'insert_page', ref: 'section', title: 'Section', document: {} },
        { operation: 'insert_page', ref: 'b', into: 'section', title: 'B', document: {} },
        { operation: 'insert_page', ref: 'c', title: 'C', document: {} },
      ],
      bodies,
    );
    const text = md(r.tree, 'p1', bodies);
    expect(text).toContain('[B](/pages/p3)');
    expect(text).toContain('[B again](/pages/p3)');
    expect(text).toContain('[C](/pages/p4#top)');
    expect(text).toContain('[raw](/pages/zzz)');
    expect(text).toContain('[web](https://example.com)');
  });

  it('updates, moves (never under itself) and deletes pages', () => {
    const bodies = new Map<string, JsonDocument>();
    const start = apply(
      [],
      [
        { operation: 'insert_page', title: 'One', document: { markdown: 'one' } },
        { operation: 'insert_page', title: 'Two', into: 'p1', document: {} },
        { operation: 'insert_page', title: 'Three', document: {} },
      ],
      bodies,
    ).tree;
    const r = apply(
      start,
      [
        { operation: 'update_page', page: 'p2', into: null, at: 0, title: 'Two!' },
        { operation: 'update_page', page: 'p1', document: { markdown: 'changed' }, emoji: '🎉' },
        { operation: 'delete_page', page: 'p3' },
      ],
      bodies,
    );
    expect(r.tree.map((p) => p.title)).toEqual(['Two!', 'One']);
    expect(r.tree[1].emoji).toBe('🎉');
    expect(md(r.tree, 'p1', bodies)).toBe('changed\n');
    expect(() => applyChanges(start, [{ operation: 'update_page', page: 'p1', into: 'p2' }], ctx())).toThrow(/under itself/);
    expect(start.map((p) => p.title)).toEqual(['One', 'Three']); // the input is never mutated
  });

  it('is atomic and names the failing change', () => {
    const changes: ContentChange[] = [
      { operation: 'insert_page', title: 'Fine', document: {} },
      { operation: 'delete_page', page: 'missing' },
    ];
    expect(() => applyChanges([], changes, ctx())).toThrow(
      new InvalidInputError('changes[1] (delete_page): page "missing" does not exist'),
    );
    expect(() =>
      applyChanges(
        [],
        [
          { operation: 'insert_page', title: 'A', slug: 'x', document: {} },
          { operation: 'insert_page', title: 'B', slug: 'x', document: {} },
        ],
        ctx(),
      ),
    ).toThrow(/changes\[1\].*already used/);
    expect(() =>
      applyChanges(
        [],
        [
          { operation: 'insert_page', ref: 'r', document: {} },
          { operation: 'insert_page', ref: 'r', document: {} },
        ],
        ctx(),
      ),
    ).toThrow(/used twice/);
    expect(() =>
      applyChanges([], [{ operation: 'insert_page', title: 'Bad', document: { markdown: '---\ntitle: [x\n---\n' } }], ctx()),
    ).toThrow(/changes\[0\].*frontmatter/);
  });

  it('reverts a page to the base revision: restores deleted, removes added, resets modified', () => {
    const bodies = new Map<string, JsonDocument>();
    const base = apply(
      [],
      [
        { operation: 'insert_page', title: 'Kept', document: { markdown: 'original' } },
        { operation: 'insert_page', title: 'Gone', document: {} },
      ],
      bodies,
    ).tree;
    const edited = apply(
      base,
      [
        { operation: 'update_page', page: 'p1', document: { markdown: 'edited' }, title: 'Kept?' },
        { operation: 'delete_page', page: 'p2' },
        { operation: 'insert_page', title: 'New', document: {} },
      ],
      bodies,
      { ...ctx(), newId: () => 'n1' },
    ).tree;
    const trees = new Map([['', base]]);
    const r = apply(
      edited,
      [
        { operation: 'revert_page', page: 'p1' },
        { operation: 'revert_page', page: 'p2' },
        { operation: 'revert_page', page: 'n1' },
      ],
      bodies,
      ctx(trees),
    );
    expect(r.tree.map((p) => p.title)).toEqual(['Kept', 'Gone']);
    expect(md(r.tree, 'p1', bodies)).toBe('original\n');
  });
});

describe('revert_page with block', () => {
  const bodies = new Map<string, JsonDocument>();
  const base = apply(
    [],
    [{ operation: 'insert_page', title: 'Doc', document: { markdown: 'Alpha.\n\nBravo.\n\nCharlie.\n\nDelta.' } }],
    bodies,
  ).tree;
  // Bravo modified, Charlie deleted, Echo added after Delta.
  const edited = apply(
    base,
    [{ operation: 'update_page', page: 'p1', document: { markdown: 'Alpha.\n\nBravo, edited.\n\nDelta.\n\nEcho.' } }],
    bodies,
  ).tree;
  const doc = (tree: PageTree) => bodies.get(locate(tree, 'p1')!.node.document!)!;
  const keyOf = (tree: PageTree, text: string) =>
    doc(tree).nodes.find((b) => documentToMarkdown({ ...doc(tree), nodes: [b] }).trim() === text)!.key;
  const revert = (block: string[], tree = edited) =>
    apply(tree, [{ operation: 'revert_page', page: 'p1', block }], bodies, { ...ctx(new Map([['', base]])), documents: bodies });

  it('resets a modified block, removes an added one, restores a deleted one, and leaves the rest', () => {
    expect(md(revert([keyOf(edited, 'Bravo, edited.')]).tree, 'p1', bodies)).toBe('Alpha.\n\nBravo.\n\nDelta.\n\nEcho.\n');
    expect(md(revert([keyOf(edited, 'Echo.')]).tree, 'p1', bodies)).toBe('Alpha.\n\nBravo, edited.\n\nDelta.\n');
    // Charlie is not in the current document: its key is the one it had in the revision.
    expect(md(revert([keyOf(base, 'Charlie.')]).tree, 'p1', bodies)).toBe('Alpha.\n\nBravo, edited.\n\nCharlie.\n\nDelta.\n\nEcho.\n');
    const all = revert([keyOf(edited, 'Bravo, edited.'), keyOf(edited, 'Echo.'), keyOf(base, 'Charlie.')]);
    expect(md(all.tree, 'p1', bodies)).toBe(md(base, 'p1', bodies));
    expect(all.outcomes).toEqual([{ object: 'updated_page', page: 'p1' }]);
  });

  it('keeps the keys of the blocks it keeps, and keys stay unique', () => {
    const r = revert([keyOf(base, 'Charlie.')]);
    const after = bodies.get(locate(r.tree, 'p1')!.node.document!)!;
    const before = doc(edited);
    for (const b of before.nodes) expect(after.nodes.map((n) => n.key)).toContain(b.key);
    expect(new Set(after.nodes.map((n) => n.key)).size).toBe(after.nodes.length);
    expect(after.nodes.find((n) => documentToMarkdown({ ...after, nodes: [n] }).trim() === 'Charlie.')).toBeDefined();
  });

  it('reads the key of anything inside a changed block as that block (a list item resets its list)', () => {
    const listBase = apply(
      [],
      [{ operation: 'insert_page', title: 'List', document: { markdown: 'Intro.\n\n- one\n- two' } }],
      bodies,
    ).tree;
    const listEdited = apply(
      listBase,
      [{ operation: 'update_page', page: 'p1', document: { markdown: 'Intro.\n\n- one\n- two, edited\n- three' } }],
      bodies,
    ).tree;
    const item = bodies.get(locate(listEdited, 'p1')!.node.document!)!.nodes[1].nodes![2] as { key: string };
    const r = apply(listEdited, [{ operation: 'revert_page', page: 'p1', block: [item.key] }], bodies, {
      ...ctx(new Map([['', listBase]])),
      documents: bodies,
    });
    expect(md(r.tree, 'p1', bodies)).toBe('Intro.\n\n- one\n- two\n');
  });

  it('refuses a key whose block did not change, an unknown key, and pages missing on one side', () => {
    expect(() => revert([keyOf(edited, 'Alpha.')])).toThrow(/changes\[0\] \(revert_page\): block ".+" has no change to revert/);
    expect(() => revert(['no-such-key'])).toThrow(/has no change to revert/);
    expect(() => revert([])).toThrow(/at least one block/);
    const added = apply(edited, [{ operation: 'insert_page', title: 'Later', document: { markdown: 'x' } }], bodies, {
      ...ctx(),
      newId: () => 'later',
    }).tree;
    expect(() =>
      apply(added, [{ operation: 'revert_page', page: 'later', block: ['k'] }], bodies, {
        ...ctx(new Map([['', base]])),
        documents: bodies,
      }),
    ).toThrow(/exists both in the change request and in the revision/);
    expect(() =>
      apply(
        edited,
        [
          { operation: 'update_page', page: 'p1', document: { markdown: 'again' } },
          { operation: 'revert_page', page: 'p1', block: ['k'] },
        ],
        bodies,
        { ...ctx(new Map([['', base]])), documents: bodies },
      ),
    ).toThrow(/changes\[1\] \(revert_page\): the body of page "p1" is changed earlier in this batch/);
  });
});

describe('mergeTrees', () => {
  const bodies = new Map<string, JsonDocument>();
  const base = apply(
    [],
    [
      { operation: 'insert_page', title: 'Doc', document: { markdown: 'line 1\n\nline 2\n\nline 3\n\nline 4' } },
      { operation: 'insert_page', title: 'Other', document: { markdown: 'other' } },
      { operation: 'insert_page', title: 'Folder', document: {} },
    ],
    bodies,
  ).tree;
  const edit = (tree: PageTree, changes: ContentChange[], prefix: string) =>
    apply(tree, changes, bodies, { ...ctx(), newId: () => `${prefix}${Math.random().toString(36).slice(2, 6)}` }).tree;
  const merge = (ours: PageTree, theirs: PageTree) => {
    const r = mergeTrees(base, ours, theirs, (h) => bodies.get(h) ?? null);
    r.documents.forEach((d, h) => bodies.set(h, d));
    return r;
  };

  it('merges a page’s icon and variables like its other attributes: one side’s change wins, both sides’ clash', () => {
    const ours = edit(base, [{ operation: 'update_page', page: 'p1', icon: 'rocket' }], 'o');
    const theirs = edit(base, [{ operation: 'update_page', page: 'p1', document: { markdown: '---\nvars:\n  v: "1"\n---\nline 1' } }], 't');
    const merged = merge(ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.tree[0]).toMatchObject({ icon: 'rocket', variables: { v: '1' } });
    const again = edit(base, [{ operation: 'update_page', page: 'p1', document: { markdown: '---\nvars:\n  v: "2"\n---\nline 1' } }], 'a');
    expect(merge(theirs, again).conflicts).toEqual([
      expect.objectContaining({ page: 'p1', reason: 'both-changed', fields: ['variables'] }),
    ]);
  });

  it('merges a page’s layout and cover as one value each: one side’s change wins, both sides’ different changes clash', () => {
    const front = (yaml: string) => ({ markdown: `---\n${yaml}---\nline 1` });
    const ours = edit(base, [{ operation: 'update_page', page: 'p1', document: front('layout:\n  width: wide\n') }], 'o');
    const theirs = edit(
      base,
      [{ operation: 'update_page', page: 'p1', document: front('cover: https://example.com/c.png\ncoverY: 3\n') }],
      't',
    );
    const merged = merge(ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.tree[0]).toMatchObject({
      layout: { width: 'wide' },
      cover: { ref: { kind: 'url', url: 'https://example.com/c.png' }, yPos: 3 },
    });
    const other = edit(base, [{ operation: 'update_page', page: 'p1', document: front('layout:\n  outline:\n    visible: false\n') }], 'a');
    expect(merge(ours, other).conflicts).toEqual([expect.objectContaining({ page: 'p1', reason: 'both-changed', fields: ['layout'] })]);
    // Markdown written through the API sets what its front matter says and leaves the rest (a repository file says all).
    const kept = edit(theirs, [{ operation: 'update_page', page: 'p1', document: { markdown: 'line 2' } }], 'k');
    expect(kept[0].cover).toEqual({ ref: { kind: 'url', url: 'https://example.com/c.png' }, yPos: 3 });
  });

  it('merges edits of different pages and additions on both sides', () => {
    const ours = edit(
      base,
      [
        { operation: 'update_page', page: 'p2', document: { markdown: 'other, ours' } },
        { operation: 'insert_page', title: 'Ours new', document: {} },
      ],
      'o',
    );
    const theirs = edit(
      base,
      [
        { operation: 'update_page', page: 'p1', title: 'Doc renamed' },
        { operation: 'insert_page', title: 'Theirs new', document: {} },
      ],
      't',
    );
    const r = merge(ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.tree.map((p) => p.title)).toEqual(['Doc renamed', 'Other', 'Folder', 'Ours new', 'Theirs new']);
    expect(md(r.tree, 'p2', bodies)).toBe('other, ours\n');
  });

  it('merges edits of different lines of one page (line-level diff3)', () => {
    const ours = edit(
      base,
      [{ operation: 'update_page', page: 'p1', document: { markdown: 'line 1 (ours)\n\nline 2\n\nline 3\n\nline 4' } }],
      'o',
    );
    const theirs = edit(
      base,
      [{ operation: 'update_page', page: 'p1', document: { markdown: 'line 1\n\nline 2\n\nline 3\n\nline 4 (theirs)' } }],
      't',
    );
    const r = merge(ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(md(r.tree, 'p1', bodies)).toBe('line 1 (ours)\n\nline 2\n\nline 3\n\nline 4 (theirs)\n');
  });

  it('reports a true conflict when both sides edit the same line', () => {
    const ours = edit(base, [{ operation: 'update_page', page: 'p1', document: { markdown: 'line 1 ours' } }], 'o');
    const theirs = edit(base, [{ operation: 'update_page', page: 'p1', document: { markdown: 'line 1 theirs' } }], 't');
    expect(merge(ours, theirs).conflicts).toEqual([{ page: 'p1', title: 'Doc', reason: 'both-edited', fields: ['document'] }]);
  });

  it('reports delete-vs-edit, and accepts delete-vs-untouched', () => {
    const ours = edit(
      base,
      [
        { operation: 'delete_page', page: 'p1' },
        { operation: 'delete_page', page: 'p2' },
      ],
      'o',
    );
    const theirs = edit(base, [{ operation: 'update_page', page: 'p1', document: { markdown: 'edited' } }], 't');
    const r = merge(ours, theirs);
    expect(r.conflicts).toEqual([{ page: 'p1', title: 'Doc', reason: 'delete-vs-edit', fields: ['document'] }]);
    const clean = merge(edit(base, [{ operation: 'delete_page', page: 'p2' }], 'o'), theirs);
    expect(clean.conflicts).toEqual([]);
    expect(clean.tree.map((p) => p.id)).toEqual(['p1', 'p3']);
  });

  it('merges a move on one side with an edit on the other; conflicting moves and cycles are reported', () => {
    const ours = edit(base, [{ operation: 'update_page', page: 'p2', into: 'p3' }], 'o');
    const theirs = edit(base, [{ operation: 'update_page', page: 'p2', title: 'Other!' }], 't');
    const r = merge(ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(locate(r.tree, 'p2')!.parent!.id).toBe('p3');
    expect(locate(r.tree, 'p2')!.node.title).toBe('Other!');

    const moveA = edit(base, [{ operation: 'update_page', page: 'p2', into: 'p3' }], 'o');
    const moveB = edit(base, [{ operation: 'update_page', page: 'p2', into: 'p1' }], 't');
    expect(merge(moveA, moveB).conflicts.map((c) => c.reason)).toEqual(['both-moved']);

    const cycleA = edit(base, [{ operation: 'update_page', page: 'p1', into: 'p3' }], 'o');
    const cycleB = edit(base, [{ operation: 'update_page', page: 'p3', into: 'p1' }], 't');
    expect(merge(cycleA, cycleB).conflicts.map((c) => c.reason)).toContain('cycle');
  });

  it('reports a page added under a parent the other side deleted', () => {
    const ours = edit(base, [{ operation: 'insert_page', into: 'p3', title: 'Child', document: {} }], 'o');
    const theirs = edit(base, [{ operation: 'delete_page', page: 'p3' }], 't');
    expect(merge(ours, theirs).conflicts.map((c) => [c.page, c.reason])).toEqual([['p3', 'delete-vs-edit']]);
  });
});
