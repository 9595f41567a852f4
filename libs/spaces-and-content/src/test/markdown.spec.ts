import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '@app/shared-kernel';
import { documentText } from '../domain/content/document';
import { documentToMarkdown, markdownToDocument } from '../domain/content/markdown';

const FIXTURES = join(process.cwd(), 'libs/spaces-and-content/src/test/fixtures/markdown');

describe('markdown ↔ document (unified/remark, GFM)', () => {
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

  it('keeps raw HTML verbatim (blocks and inline), never escaped into visible text', () => {
    const md =
      '<p align="center">\n  <img src="logo.svg" width="120">\n</p>\n\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd>.<br/>\n\n<details>\n<summary>More</summary>\n\nHidden **text**.\n\n</details>\n';
    const back = roundTrip(md);
    expect(back).toBe(md);
    expect(back).not.toContain('\\<');
  });

  it('sanitizes HTML that could run something: no script, no event handlers, no javascript: URLs', () => {
    const back = roundTrip(
      '<img src="x.png" onerror="alert(1)">\n\n<script>alert(2)</script>\n\nA <a href="javascript:alert(3)">link</a> and <b onclick="x()">bold</b>.\n',
    );
    expect(back).not.toMatch(/onerror|onclick|<script|alert\(2\)|javascript:/);
    expect(back).toContain('<img src="x.png" />');
    expect(back).toContain('<b>bold</b>');
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
