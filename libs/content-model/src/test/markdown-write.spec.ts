import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { documentText, type DocBlock, type DocInline, type DocLeaf, type DocRefData, type JsonDocument } from '..';
import { documentToMarkdown, markdownToDocument } from '..';

/**
 * The markdown writer escapes by rules rather than by remark's pattern table: text full of markdown syntax must come
 * back as the same text, read by Quire's own parser (markdown-it) and by an independent one (remark).
 */
const remark = unified().use(remarkParse).use(remarkGfm);

type Mark = Exclude<DocLeaf['marks'][number]['type'], 'color'>;
const leafOf = (text: string, marks: Mark[] = []): DocLeaf => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
const para = (...leaves: DocLeaf[]): DocBlock => ({
  object: 'block',
  type: 'paragraph',
  key: 'p',
  data: {},
  isVoid: false,
  nodes: [{ object: 'text', leaves }],
});
const doc = (...nodes: DocBlock[]): JsonDocument => ({ object: 'document', data: {}, nodes });

/** Text and marks of a paragraph, adjacent leaves with equal marks merged. */
function runs(block: DocBlock | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const n of block?.nodes ?? [])
    if (n.object === 'text')
      for (const l of n.leaves) {
        const marks = l.marks
          .map((m) => m.type)
          .sort()
          .join('+');
        const last = out[out.length - 1];
        if (last && last[1] === marks) last[0] += l.text;
        else out.push([l.text, marks]);
      }
  return out;
}

function remarkText(markdown: string): string {
  let out = '';
  visit(remark.parse(markdown), (n) => {
    if (n.type === 'text' || n.type === 'inlineCode') out += n.value;
  });
  return out;
}

const TRICKY = [
  '1. not a list',
  '12) not a list either',
  '# not a heading',
  '- not a bullet',
  '+ not a bullet',
  '* not a bullet',
  '> not a quote',
  '--- not a rule',
  '=== not an underline',
  '| a | b |',
  ':-- not a delimiter',
  'a*b*c and a_b_c and snake_case_name',
  '`not code` and ``double``',
  '[not a link](https://x.dev) and ![not an image](x.png)',
  '[ref][def] and [^note]',
  '<div>not html</div> and <b>not bold</b> and <!-- not a comment -->',
  '&amp; &#42; &copy; are not entities',
  'a backslash \\* and \\\\ and C:\\Users\\me and trailing \\',
  '~~not struck~~ and ~one~',
  'exclamation! and !',
  'https://not-an-autolink.dev? (it may be one: text is the same)',
  'tab\tinside',
  '#hashtag at start',
  '2024. a year at the start',
];

describe('markdown writer: text comes back as the same text', () => {
  it.each(TRICKY)('%s', (text) => {
    const md = documentToMarkdown(doc(para(leafOf(text))));
    const back = markdownToDocument(md).document;
    expect(back.nodes).toHaveLength(1);
    expect(back.nodes[0].type).toBe('paragraph');
    // (A URL in the text may come back as a link, as GFM reads it: its text is the same.)
    expect(documentText(back)).toBe(text);
    expect(remarkText(md)).toBe(text);
  });

  it('keeps text after a hard break from starting a block (list, heading, quote)', () => {
    const md = documentToMarkdown(doc(para(leafOf('first'), leafOf('\n'), leafOf('- second'), leafOf('\n'), leafOf('# third'))));
    expect(md).toBe('first\\\n\\- second\\\n\\# third\n');
    expect(runs(markdownToDocument(md).document.nodes[0])).toEqual([['first\n- second\n# third', '']]);
  });
});

describe('markdown writer: marks', () => {
  const roundTrip = (...leaves: DocLeaf[]) => runs(markdownToDocument(documentToMarkdown(doc(para(...leaves)))).document.nodes[0]);

  it('writes emphasis inside a word with * (an _ there would not close)', () => {
    const md = documentToMarkdown(doc(para(leafOf('un'), leafOf('frigging', ['italic']), leafOf('believable'))));
    expect(md).toBe('un*frigging*believable\n');
    expect(roundTrip(leafOf('un'), leafOf('frigging', ['italic']), leafOf('believable'))).toEqual([
      ['un', ''],
      ['frigging', 'italic'],
      ['believable', ''],
    ]);
  });

  it('moves whitespace at a mark’s edges outside the markers', () => {
    expect(documentToMarkdown(doc(para(leafOf('a'), leafOf(' bold ', ['bold']), leafOf('b'))))).toBe('a **bold** b\n');
  });

  it('closes a mark whose text ends in punctuation before a letter (flanking rules)', () => {
    for (const leaves of [
      [leafOf('Note:', ['bold']), leafOf('text')],
      [leafOf('x'), leafOf('(y)', ['italic']), leafOf('z')],
      [leafOf('a'), leafOf('"quoted"', ['strikethrough']), leafOf('b')],
    ]) {
      const expected = leaves.map((l) => [l.text, l.marks.map((m) => m.type).join('+')]);
      expect(roundTrip(...leaves)).toEqual(expected);
    }
  });

  it('writes nested marks and code inside marks', () => {
    const leaves = [leafOf('both', ['bold', 'italic']), leafOf(' and '), leafOf('a`b', ['code']), leafOf(' done', ['bold'])];
    expect(roundTrip(...leaves)).toEqual([
      ['both', 'bold+italic'],
      [' and ', ''],
      ['a`b', 'code'],
      [' ', ''],
      ['done', 'bold'],
    ]);
  });
});

describe('markdown writer: blocks', () => {
  const same = (md: string) => expect(documentToMarkdown(markdownToDocument(md).document)).toBe(md);

  it('keeps two lists in a row apart (the second takes the other marker)', () => {
    const md = '- a\n- b\n\n* c\n\n1. one\n\n1) two\n';
    same(md);
    expect(markdownToDocument(md).document.nodes.map((n) => n.type)).toEqual([
      'list-unordered',
      'list-unordered',
      'list-ordered',
      'list-ordered',
    ]);
  });

  it('sets a paragraph after a nested list apart (it would continue the nested item)', () => {
    const md = '- item\n  - nested\n\n  after the nested list\n- next\n';
    const { document } = markdownToDocument(md);
    const item = document.nodes[0].nodes![0] as DocBlock;
    expect((item.nodes as DocBlock[]).map((n) => n.type)).toEqual(['paragraph', 'list-unordered', 'paragraph']);
    same(md);
  });

  it('sets HTML in a tight list apart, and keeps task lists and list starts', () => {
    same('- a\n\n  <!-- kept -->\n\n- b\n');
    same('- [x] done\n- [ ] open\n');
    same('3. three\n4. four\n');
  });

  it('fences code holding backtick fences with a longer fence; inline code picks a free backtick run', () => {
    const md = '````md\n```js\nx\n```\n````\n\n``a`b`` and `` `x` ``\n';
    same(md);
    expect(markdownToDocument(md).document.nodes[0].nodes).toHaveLength(3);
    expect(runs(markdownToDocument(md).document.nodes[1])).toEqual([
      ['a`b', 'code'],
      [' and ', ''],
      ['`x`', 'code'],
    ]);
  });

  it('writes destinations with spaces or unbalanced parentheses in angle brackets, and titles with quotes escaped', () => {
    const md = '[a](<https://x.dev/a b>) [b](<https://x.dev/(c> "say \\"hi\\"") [c](https://x.dev/\\(d\\))\n';
    same(md);
    const links = markdownToDocument(md).document.nodes[0].nodes!.filter(
      (n): n is DocInline & { data: DocRefData } => n.object === 'inline' && n.type === 'link',
    );
    expect(links.map((l) => [l.data.ref, l.data.title])).toEqual([
      [{ kind: 'url', url: 'https://x.dev/a b' }, undefined],
      [{ kind: 'url', url: 'https://x.dev/(c' }, 'say "hi"'],
      [{ kind: 'url', url: 'https://x.dev/(d)' }, undefined],
    ]);
  });

  it('writes nothing for an empty document and one newline at the end otherwise', () => {
    expect(documentToMarkdown(doc())).toBe('');
    expect(documentToMarkdown(doc(para(leafOf('x'))))).toBe('x\n');
  });
});
