import type { Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { defaultLinkResolver, documentToMarkdown, markdownToDocument } from '../domain/content/markdown';
import { realMarkdownCorpus } from './markdown-corpus';

const parse = (md: string) => unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).parse(md);

/**
 * The documented normalizations, applied to the source tree before comparing it with what comes back:
 * frontmatter and the leading level-1 heading become page metadata; headings deeper than 3 become 3;
 * reference-style links and images become inline ones (definitions are not content); soft line breaks
 * inside a paragraph are whitespace.
 */
function normalized(tree: Root, liftTitle: boolean): Root {
  let children = tree.children.filter((n) => n.type !== 'yaml' && n.type !== 'definition');
  if (liftTitle && children[0]?.type === 'heading' && children[0].depth === 1) children = children.slice(1);
  const root: Root = { type: 'root', children };
  visit(root, 'heading', (h) => {
    h.depth = Math.min(h.depth, 3) as 1 | 2 | 3;
  });
  return root;
}

const text = (t: Root) => toString(t).replace(/\s+/g, ' ').trim();
/** The shape of a tree: node types in document order (what markdown structure means). */
function shape(t: Root): string {
  const types: string[] = [];
  visit(t, (n) => {
    const type = n.type === 'linkReference' ? 'link' : n.type === 'imageReference' ? 'image' : n.type;
    if (type !== 'text' && type !== 'root' && type !== 'definition') types.push(type);
  });
  return types.join(' ');
}

describe('real-world markdown survives import and read-back (fidelity)', () => {
  const corpus = realMarkdownCorpus();

  it('has a real corpus of at least 100 files', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
  });

  it('keeps the text of ≥ 95 % and the structure of ≥ 85 % of the corpus', () => {
    let sameText = 0;
    let sameShape = 0;
    const lost: string[] = [];
    for (const { name, markdown } of corpus) {
      const parsed = markdownToDocument(markdown, defaultLinkResolver, { titleFromHeading: true });
      const back = parse(documentToMarkdown(parsed.document));
      const source = normalized(parse(markdown), parsed.leadingTitle !== undefined);
      const textOk = text(back) === text(source);
      const shapeOk = shape(back) === shape(source);
      if (textOk) sameText += 1;
      if (shapeOk) sameShape += 1;
      if (!textOk || !shapeOk) lost.push(`${name}${textOk ? '' : ' text'}${shapeOk ? '' : ' structure'}`);
    }
    const pct = (n: number) => Math.round((1000 * n) / corpus.length) / 10;
    process.stdout.write(`fidelity over ${corpus.length} real files: text ${pct(sameText)} %, structure ${pct(sameShape)} %\n`);
    if (process.env.QUIRE_FIDELITY_DETAILS) process.stdout.write(lost.join('\n') + '\n');
    expect(pct(sameText)).toBeGreaterThanOrEqual(95);
    expect(pct(sameShape)).toBeGreaterThanOrEqual(85);
  });
});
