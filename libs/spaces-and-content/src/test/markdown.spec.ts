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
