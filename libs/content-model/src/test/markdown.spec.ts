import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '@app/shared-kernel';
import { documentText, type DocBlock } from '..';
import { documentToMarkdown, markdownToDocument } from '..';

const FIXTURES = join(process.cwd(), 'libs/content-model/src/test/fixtures/markdown');

describe('markdown ↔ document (markdown-it, GFM)', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.md'));

  it('has a fixture corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)('%s: markdown → document → markdown is stable', (file) => {
    const source = readFileSync(join(FIXTURES, file), 'utf8');
    const first = markdownToDocument(source);
    const md1 = documentToMarkdown(first.document);
    const second = markdownToDocument(md1);
    expect(second.document).toEqual(first.document);
    expect(documentToMarkdown(second.document)).toBe(md1);
  });

  it('maps GFM constructs to the official block types', () => {
    const { document } = markdownToDocument(readFileSync(join(FIXTURES, 'basics.md'), 'utf8'));
    const types = document.nodes.map((n) => n.type);
    expect(types).toEqual([
      'heading-1',
      'paragraph',
      'heading-2',
      'list-unordered',
      'list-ordered',
      'list-tasks',
      'heading-3',
      'code',
      'blockquote',
      'divider',
      'images',
      'paragraph',
    ]);
    const tasks = document.nodes[5];
    expect(tasks.nodes!.map((i) => (i as unknown as { data: { checked: boolean } }).data.checked)).toEqual([true, false]);
    const code = document.nodes[7];
    expect(code.data).toEqual({ syntax: 'ts' });
    expect(code.nodes).toHaveLength(3);
    const para = document.nodes[1];
    const leaves = (para.nodes![0] as { leaves: { text: string; marks: { type: string }[] }[] }).leaves;
    expect(leaves.find((l) => l.text === 'docs')!.marks.map((m) => m.type)).toEqual(['bold']);
    expect(
      leaves
        .find((l) => l.text === 'both marks')!
        .marks.map((m) => m.type)
        .sort(),
    ).toEqual(['bold', 'italic']);
  });

  it('turns page, file and anchor links into content references', () => {
    const { document } = markdownToDocument(readFileSync(join(FIXTURES, 'tables-and-links.md'), 'utf8'));
    const refs = JSON.stringify(document).match(/"ref":\{[^}]*\}/g);
    expect(refs).toEqual(
      expect.arrayContaining([
        '"ref":{"kind":"page","page":"abc123","anchor":"setup"}',
        '"ref":{"kind":"file","file":"f99"}',
        '"ref":{"kind":"anchor","anchor":"top"}',
      ]),
    );
    const table = document.nodes[0];
    expect(table.type).toBe('table');
    expect((table.data.view as { columns: string[] }).columns).toEqual(['c0', 'c1', 'c2']);
  });

  it('reads frontmatter and a leading heading as page metadata', () => {
    const parsed = markdownToDocument(readFileSync(join(FIXTURES, 'frontmatter.md'), 'utf8'), undefined, { titleFromHeading: true });
    expect(parsed.meta).toEqual({ title: 'From frontmatter', description: 'A page described in YAML', emoji: '🚀' });
    expect(parsed.leadingTitle).toBe('Leading heading');
    expect(documentText(parsed.document)).toBe('Body text.');
  });

  it('refuses broken frontmatter with a clear error', () => {
    expect(() => markdownToDocument('---\ntitle: [unclosed\n---\n\nBody')).toThrow(InvalidInputError);
  });

  it('refuses markdown nested deeper than the parser reads (it would drop the rest of the block), and reads 98 levels', () => {
    expect(() => markdownToDocument('>'.repeat(5000) + ' x\n')).toThrow(InvalidInputError);
    expect(() => markdownToDocument('- '.repeat(300) + 'deep\n')).toThrow(/nests quotes and lists more than 99 levels/);
    expect(documentText(markdownToDocument('>'.repeat(98) + ' x\n').document)).toBe('x');
  });

  it('keeps the text of every block for search', () => {
    const { document } = markdownToDocument(readFileSync(join(FIXTURES, 'unicode.md'), 'utf8'));
    expect(documentText(document)).toContain('これは日本語の文章です');
  });
});

describe('markdown from real projects: nothing silently lost', () => {
  const roundTrip = (md: string) => documentToMarkdown(markdownToDocument(md).document);

  it('resolves reference-style links and images to their definitions (the definitions are not content)', () => {
    const md =
      '[![NPM Version][npm-image]][npm-url] and [the docs][Docs].\n\n[npm-image]: https://img.shields.io/npm/v/x.svg\n[npm-url]: https://npmjs.org/package/x "npm"\n[docs]: ./docs.md\n';
    expect(roundTrip(md)).toBe(
      '[![NPM Version](https://img.shields.io/npm/v/x.svg)](https://npmjs.org/package/x "npm") and [the docs](./docs.md).\n',
    );
  });

  it('keeps a reference without a definition as the text it was written as (shown as that text, not as a broken link)', () => {
    const back = roundTrip('See [nothing][missing] and [this].\n');
    expect(markdownToDocument(back).document.nodes[0].nodes).toEqual([
      { object: 'text', leaves: [{ object: 'leaf', text: 'See [nothing][missing] and [this].', marks: [] }] },
    ]);
    expect(documentText(markdownToDocument(back).document)).toBe('See [nothing][missing] and [this].');
  });

  it('keeps images inside links (badges) with their external URLs', () => {
    const md =
      '[![Build](https://ci.example.com/badge.svg)](https://ci.example.com/x) [![Coverage](https://cov.example.com/c.svg)](https://cov.example.com)\n';
    expect(roundTrip(md)).toBe(md);
    const link = markdownToDocument(md).document.nodes[0].nodes![0] as { type: string; nodes: { type: string; data: { ref: unknown } }[] };
    expect(link.type).toBe('link');
    expect(link.nodes[0]).toMatchObject({ type: 'inline-image', data: { ref: { kind: 'url', url: 'https://ci.example.com/badge.svg' } } });
  });

  describe('raw HTML', () => {
    const leavesOf = (b: DocBlock) => (b.nodes ?? []).flatMap((n) => (n.object === 'text' ? n.leaves : []));
    const marksOf = (b: DocBlock, text: string) =>
      leavesOf(b)
        .find((l) => l.text === text)
        ?.marks.map((m) => m.type);

    it('maps aligned images and sized images to an images block (align, width) and writes them back as the same HTML', () => {
      const md = '<p align="center">\n  <img src="https://x.dev/logo.svg" width="120" alt="Logo">\n</p>\n';
      const { document, normalized } = markdownToDocument(md);
      expect(document.nodes).toHaveLength(1);
      const [images] = document.nodes;
      expect(images).toMatchObject({ type: 'images', data: { align: 'center' } });
      expect(images.nodes?.[0]).toMatchObject({
        type: 'image',
        isVoid: true,
        data: { ref: { kind: 'url', url: 'https://x.dev/logo.svg' }, alt: 'Logo', width: 120 },
      });
      expect(normalized).toContain('HTML mapped to the document model');
      expect(documentToMarkdown(document)).toBe('<p align="center">\n<img src="https://x.dev/logo.svg" alt="Logo" width="120">\n</p>\n');
      expect(roundTrip(roundTrip(md))).toBe(roundTrip(md));
    });

    it('maps inline kbd, sup, sub, b, i, br, a and img to marks, hard breaks, links and inline images', () => {
      const md =
        'Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <b>bold</b> <i>it</i>.<br>Next <a href="https://a.dev" title="A">site <img src="https://a.dev/i.png" alt="i"></a>\n';
      const { document } = markdownToDocument(md);
      const [p] = document.nodes;
      expect(p.type).toBe('paragraph');
      expect(marksOf(p, 'Ctrl')).toEqual(['keyboard']);
      expect(marksOf(p, '2')).toEqual(['subscript']);
      expect(
        leavesOf(p)
          .filter((l) => l.marks.some((m) => m.type === 'superscript'))
          .map((l) => l.text),
      ).toEqual(['2']);
      expect(marksOf(p, 'bold')).toEqual(['bold']);
      expect(marksOf(p, 'it')).toEqual(['italic']);
      expect(leavesOf(p).some((l) => l.text === '\n')).toBe(true);
      const link = p.nodes?.find((n) => n.object === 'inline' && n.type === 'link');
      expect(link).toMatchObject({ data: { ref: { kind: 'url', url: 'https://a.dev' }, title: 'A' } });
      expect(link && 'nodes' in link && link.nodes?.some((n) => n.object === 'inline' && n.type === 'inline-image')).toBe(true);
      expect(documentToMarkdown(document)).toBe(
        'Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>, **bold** _it_.\\\nNext [site ![i](https://a.dev/i.png)](https://a.dev "A")\n',
      );
    });

    it('maps <details> spanning markdown blocks to an expandable (title and body fragments), searchable, written back as <details>', () => {
      const md = '<details>\n<summary>More <b>info</b></summary>\n\nHidden **text**.\n\n```js\nx()\n```\n\n</details>\n\nAfter.\n';
      const { document } = markdownToDocument(md);
      expect(document.nodes.map((n) => n.type)).toEqual(['expandable', 'paragraph']);
      const [exp] = document.nodes;
      expect(exp.isVoid).toBe(true);
      expect(exp.fragments?.map((f) => f.fragment)).toEqual(['expandable-title', 'expandable-body']);
      expect(exp.fragments?.[1].nodes.map((n) => n.type)).toEqual(['paragraph', 'code']);
      expect(documentText(document)).toContain('Hidden text.');
      expect(documentToMarkdown(document)).toBe(
        '<details>\n<summary>More <strong>info</strong></summary>\n\nHidden **text**.\n\n```js\nx()\n```\n\n</details>\n\nAfter.\n',
      );
      // One HTML block holding the whole element maps the same way; `open` is kept.
      const one = markdownToDocument('<details open><summary>T</summary><p>Body <a href="https://b.dev">b</a></p></details>\n').document;
      expect(one.nodes[0]).toMatchObject({ type: 'expandable', data: { defaultExpanded: true } });
      expect(documentToMarkdown(one)).toBe('<details open>\n<summary>T</summary>\n\nBody [b](https://b.dev)\n\n</details>\n');
    });

    it('maps an HTML table to a table block; cells keep their content as one line of markdown', () => {
      const md =
        '<table>\n<thead><tr><th>Name</th><th align="right">Value</th></tr></thead>\n<tbody><tr><td><code>a|b</code></td><td>1<br>2</td></tr></tbody>\n</table>\n';
      const { document } = markdownToDocument(md);
      const [table] = document.nodes;
      expect(table.type).toBe('table');
      const data = table.data as {
        definition: Record<string, { title: string; textAlignment: string }>;
        records: Record<string, { values: Record<string, string> }>;
      };
      expect(Object.values(data.definition).map((c) => [c.title, c.textAlignment])).toEqual([
        ['Name', 'left'],
        ['Value', 'right'],
      ]);
      expect(Object.values(data.records)[0].values).toEqual({ c0: '`a\\|b`', c1: '1<br>2' });
      expect(documentToMarkdown(document)).toBe('| Name   |  Value |\n| :----- | -----: |\n| `a\\|b` | 1<br>2 |\n');
    });

    it('maps div/center alignment, headings, lists and pre to blocks', () => {
      const { document } = markdownToDocument(
        '<div align="center">\n<h1>Project</h1>\n<p>Fast <i>and</i> small</p>\n<ul><li>one</li><li>two</li></ul>\n<pre lang="sh">npm i x</pre>\n<hr>\n</div>\n',
      );
      expect(document.nodes.map((n) => [n.type, n.data.align])).toEqual([
        ['heading-1', 'center'],
        ['paragraph', 'center'],
        ['list-unordered', undefined],
        ['code', undefined],
        ['divider', undefined],
      ]);
      expect(document.nodes[3].data).toEqual({ syntax: 'sh' });
      expect(documentToMarkdown(document)).toBe(
        '<h1 align="center">Project</h1>\n\n<p align="center">Fast <em>and</em> small</p>\n\n- one\n- two\n\n```sh\nnpm i x\n```\n\n---\n',
      );
    });

    it('keeps HTML it cannot map verbatim (blocks and inline), never escaped into visible text, and reports it', () => {
      const md =
        '<video controls>\n  <source src="demo.webm" type="video/webm">\n</video>\n\n<table><tr><td colspan="2">wide</td></tr></table>\n\nA <span title="t">span</span> and <!-- a comment -->.\n\n<!-- toc -->\n';
      const { document, normalized } = markdownToDocument(md);
      expect(document.nodes.map((n) => n.type)).toEqual(['html', 'html', 'paragraph', 'html']);
      expect(normalized).toContain('raw HTML kept verbatim');
      const back = roundTrip(md);
      expect(back).toBe(md);
      expect(back).not.toContain('\\<');
    });

    it('a <picture> with a dark <source> is an image with its dark variant (no longer kept verbatim)', () => {
      const { document } = markdownToDocument(
        '<picture>\n  <source srcset="dark.png" media="(prefers-color-scheme: dark)">\n  <img src="light.png">\n</picture>\n',
      );
      expect(document.nodes[0]).toMatchObject({
        type: 'images',
        nodes: [{ type: 'image', data: { ref: { kind: 'url', url: 'light.png' }, refDark: { kind: 'url', url: 'dark.png' } } }],
      });
    });

    it('reports attributes the model has no place for', () => {
      const { normalized } = markdownToDocument('<p align="center"><img src="https://x.dev/a.png" style="border:0" width="auto"></p>\n');
      expect(normalized).toEqual(
        expect.arrayContaining([
          'HTML attribute "style" of <img> has no place in the document model: dropped',
          'image width "auto" has no place in the document model: dropped',
        ]),
      );
    });
  });

  it('sanitizes HTML that could run something: no script, no event handlers, no javascript: URLs (also entity-encoded)', () => {
    const back = roundTrip(
      '<img src="x.png" onerror="alert(1)">\n\n<script>alert(2)</script>\n\nA <a href="javascript:alert(3)">link</a> and <b onclick="x()">bold</b>.\n\n<a href="java&#115;cript:alert(4)">enc</a> <p><a href="&#106;avascript:alert(5)">p</a></p>\n\n[md](javascript:alert\\(6\\)) ![img](JaVaScRiPt:alert\\(7\\))\n',
    );
    expect(back).not.toMatch(/onerror|onclick|<script|alert\(|javascript:|&#115;|&#106;/i);
    expect(back).toContain('<img src="x.png" />');
    expect(back).toContain('<b>bold</b>');
    expect(back).toContain('[md]()');
  });

  it('documented normalizations: headings deeper than 3 become 3; soft line breaks are spaces, hard breaks stay', () => {
    expect(roundTrip('#### Deep\n\n###### Deeper\n')).toBe('### Deep\n\n### Deeper\n');
    expect(roundTrip('one\ntwo  \nthree\n')).toBe('one two\\\nthree\n');
  });

  it('keeps emphasis around code as one emphasis', () => {
    expect(roundTrip('_use `npm install` now_\n')).toBe('_use `npm install` now_\n');
  });

  it('keeps footnotes as they were written', () => {
    const md = 'Text with a note[^1].\n\n[^1]: The note.\n';
    expect(roundTrip(md)).toBe(md);
  });
});
