import { isTag, isText, type ChildNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { defaultLinkResolver, documentToMarkdown, markdownToDocument, QUIRE_STYLE, refToUrl, type MarkdownStyle } from '..';
import { realMarkdownCorpus } from './markdown-corpus';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownStyleOf } from '../markdown-read';

const parse = (md: string) => unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).parse(md);

/**
 * The documented normalizations, applied to the source tree before comparing it with what comes back:
 * frontmatter and the leading level-1 heading become page metadata; headings deeper than 3 become 3;
 * reference-style links and images become inline ones (definitions are not content); soft line breaks
 * inside a paragraph are whitespace. Raw HTML is compared by what it shows (its text and image alt texts)
 * and by the markdown constructs its elements are (`<b>` strong, `<a>` link, `<img>` image, `<br>` break,
 * `<table>`/`<tr>`/`<td>` table, `<p>`/`<h1>` paragraph/heading…; `div`, `center`, `thead`, `tbody` are
 * containers only): HTML mapped to the document model comes back as the equivalent markdown or HTML.
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

const HTML_AS: Record<string, string> = {
  b: 'strong',
  strong: 'strong',
  i: 'emphasis',
  em: 'emphasis',
  s: 'delete',
  del: 'delete',
  strike: 'delete',
  code: 'inlineCode',
  a: 'link',
  img: 'image',
  br: 'break',
  p: 'paragraph',
  ul: 'list',
  ol: 'list',
  li: 'listItem',
  pre: 'code',
  blockquote: 'blockquote',
  hr: 'thematicBreak',
  table: 'table',
  tr: 'tableRow',
  td: 'tableCell',
  th: 'tableCell',
};
const CONTAINERS = new Set(['div', 'center', 'thead', 'tbody', 'tfoot']);
const BLOCKS = new Set([
  ...CONTAINERS,
  'p',
  'ul',
  'ol',
  'li',
  'pre',
  'blockquote',
  'hr',
  'table',
  'tr',
  'td',
  'th',
  'details',
  'summary',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
const EDGE = '\u0001';

/** What HTML shows (text, image alt texts) and the constructs its elements are. */
function htmlView(html: string): { text: string; types: string[] } {
  let text = '';
  const types: string[] = [];
  const walk = (nodes: ChildNode[], parent: string) => {
    for (const n of nodes) {
      if (isText(n)) text += n.data;
      else if (isTag(n)) {
        const as = /^h[1-6]$/.test(n.name) ? 'heading' : HTML_AS[n.name];
        if (!(n.name === 'code' && parent === 'pre') && !CONTAINERS.has(n.name)) types.push(as ?? n.name);
        if (n.name === 'li' && !n.children.some((c) => isTag(c) && ['p', 'ul', 'ol', 'pre', 'table'].includes(c.name)))
          types.push('paragraph');
        if (n.name === 'img') text += n.attribs.alt ?? '';
        // Whitespace at a block element's edges and around a line break is layout, not shown text.
        if (BLOCKS.has(n.name)) text += EDGE;
        walk(n.children, n.name);
        if (BLOCKS.has(n.name)) text += EDGE;
      }
    }
  };
  walk(parseDocument(html, { lowerCaseTags: true }).children, '');
  return { text: text.replace(/\s*\u0001\s*/g, EDGE), types };
}

function text(t: Root): string {
  let out = '';
  visit(t, (n: Nodes) => {
    if (n.type === 'html') out += htmlView(n.value).text;
    else if (n.type === 'image' || n.type === 'imageReference') out += n.alt ?? '';
    else if (n.type === 'break') out += EDGE;
    else if ('value' in n && n.type !== 'yaml') out += n.value;
  });
  return out
    .replace(/\s*\u0001[\s\u0001]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The shape of a tree: node types in document order (what markdown structure means). */
function shape(t: Root): string {
  const types: string[] = [];
  visit(t, (n: Nodes, _i, parent) => {
    if (n.type === 'html') {
      const view = htmlView(n.value).types;
      // Inline HTML alone at block level is a paragraph once it is mapped.
      const blockLevel = parent && !['paragraph', 'heading', 'tableCell', 'link', 'emphasis', 'strong', 'delete'].includes(parent.type);
      if (
        blockLevel &&
        view.length &&
        !['paragraph', 'heading', 'list', 'code', 'blockquote', 'thematicBreak', 'table', 'details'].includes(view[0])
      )
        types.push('paragraph');
      types.push(...view);
      return;
    }
    const type = n.type === 'linkReference' ? 'link' : n.type === 'imageReference' ? 'image' : n.type;
    if (type !== 'text' && type !== 'root' && type !== 'definition') types.push(type);
  });
  // The nesting order of marks and links is not compared (the model keeps marks on text, inside links).
  const inline = new Set(['strong', 'emphasis', 'delete', 'link', 'sub', 'sup', 'kbd']);
  for (let i = 0; i < types.length;) {
    let j = i;
    while (j < types.length && inline.has(types[j])) j++;
    if (j > i + 1) types.splice(i, j - i, ...types.slice(i, j).sort());
    i = Math.max(j, i + 1);
  }
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
      if (process.env.QUIRE_FIDELITY_DIFF && !shapeOk) {
        const a = shape(source).split(' '),
          b = shape(back).split(' ');
        let k = 0;
        while (a[k] === b[k]) k++;
        lost.push('   src: ' + a.slice(Math.max(0, k - 3), k + 8).join(' ') + '\n   got: ' + b.slice(Math.max(0, k - 3), k + 8).join(' '));
      }
      if (process.env.QUIRE_FIDELITY_DIFF && !textOk) {
        const a = text(source),
          b = text(back);
        let k = 0;
        while (a[k] === b[k]) k++;
        lost.push(
          '   src: ' +
            JSON.stringify(a.slice(Math.max(0, k - 30), k + 50)) +
            '\n   got: ' +
            JSON.stringify(b.slice(Math.max(0, k - 30), k + 50)),
        );
      }
    }
    const pct = (n: number) => Math.round((1000 * n) / corpus.length) / 10;
    process.stdout.write(`fidelity over ${corpus.length} real files: text ${pct(sameText)} %, structure ${pct(sameShape)} %\n`);
    if (process.env.QUIRE_FIDELITY_DETAILS) process.stdout.write(lost.join('\n') + '\n');
    expect(pct(sameText)).toBeGreaterThanOrEqual(95);
    expect(pct(sameShape)).toBeGreaterThanOrEqual(85);
  });

  it('a repository style (* bullets, * emphasis, __ strong) reads back as the same document as Quire’s own', () => {
    const other: MarkdownStyle = { bullet: '*', emphasis: '*', strong: '__' };
    const differs: string[] = [];
    let restyled = 0;
    for (const { name, markdown } of corpus) {
      const doc = markdownToDocument(markdown, defaultLinkResolver, { titleFromHeading: true }).document;
      const ours = documentToMarkdown(doc);
      const theirs = documentToMarkdown(doc, refToUrl, other);
      if (theirs !== ours) restyled += 1;
      if (JSON.stringify(markdownToDocument(theirs).document) !== JSON.stringify(markdownToDocument(ours).document)) differs.push(name);
    }
    expect(restyled).toBeGreaterThan(corpus.length / 2);
    expect(differs).toEqual([]);
  });

  it('a repository’s wrap is learnt from its files: wooorm’s readmes wrap at 80, the fluentd GitBook repository does not wrap', () => {
    const micromark = corpus.find((f) => f.name === 'micromark__readme.md')!;
    const style = markdownStyleOf([micromark.markdown]);
    expect(style.wrap).toBeGreaterThanOrEqual(76);
    expect(style.wrap).toBeLessThanOrEqual(80);
    const fluentd = join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook');
    const pages = ['README.md', 'quickstart/README.md', 'configuration/config-file.md', 'installation/install-by-deb.md'].map((p) =>
      readFileSync(join(fluentd, p), 'utf8'),
    );
    expect(markdownStyleOf(pages).wrap).toBeUndefined();
    // A page of the wrapped repository, written in its style, wraps as its author did.
    const doc = markdownToDocument(micromark.markdown).document;
    const written = documentToMarkdown(doc, refToUrl, style);
    const paragraphs = written.split('\n\n').filter((b) => /^[A-Za-z]/.test(b) && b.includes('\n'));
    expect(paragraphs.length).toBeGreaterThan(10);
  });

  it('wrapped at 40 or 72 characters, every real file reads back as the same document; its lines keep to the width', () => {
    const differs: string[] = [];
    let wrapped = 0;
    let over = 0;
    let lines = 0;
    for (const width of [40, 72]) {
      for (const { name, markdown } of corpus) {
        const doc = markdownToDocument(markdown, defaultLinkResolver, { titleFromHeading: true }).document;
        const flat = documentToMarkdown(doc);
        const narrow = documentToMarkdown(doc, refToUrl, { ...QUIRE_STYLE, wrap: width });
        if (narrow !== flat) wrapped += 1;
        if (JSON.stringify(markdownToDocument(narrow).document) !== JSON.stringify(markdownToDocument(flat).document))
          differs.push(`${name}@${width}`);
        // Paragraph lines only (code, tables and HTML are never wrapped); a line over the width holds a word too long for it.
        for (const line of narrow.split('\n')) {
          if (/^\s*(?:[|<`~#]|\s{4})/.test(line) || !line.includes(' ')) continue;
          lines += 1;
          if (
            line.length > width + 8 &&
            line
              .trim()
              .split(' ')
              .every((w) => w.length < width / 2)
          )
            over += 1;
        }
      }
    }
    expect(wrapped).toBeGreaterThan(corpus.length);
    expect(differs).toEqual([]);
    expect(over / lines).toBeLessThan(0.02);
  });
});
