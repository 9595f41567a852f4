import {
  countWords,
  documentToMarkdown,
  markdownToDocument,
  prepareDocument,
  titleFragment,
  titleFrom,
  TranslationMangledError,
} from '@app/content-model';
import { pagesToTranslate, targetTree } from '../domain/translation';
import { FirstAvailableTranslator, LanguagePair, PairUnavailableError, Translator } from '../domain/translator';
import { ApertiumTranslator } from '../infrastructure/apertium-translator';
import type { PageNode } from '@app/content-model';

/** Upper-cases the text between tags (what a translator may change), leaving every tag as it is. */
const shout = (html: string) => html.replace(/(^|>)([^<]*)/g, (_m, gt: string, text: string) => gt + text.toUpperCase());

const SOURCE = [
  '## Install the package',
  '',
  'Run `npm install quire` and read **the [guide](https://example.com/docs?x=1&y=2)** today.',
  '',
  '- first *item* with `code`',
  '- second item ![logo](https://example.com/logo.png)',
  '',
  '```js',
  'const answer = 42; // never translated',
  '```',
  '',
  '| Name | Description |',
  '| --- | --- |',
  '| `id` | The unique identifier |',
  '',
  '<details><summary>More</summary>',
  '',
  'Hidden text here.',
  '',
  '</details>',
].join('\n');

describe('documents as translation fragments', () => {
  const doc = markdownToDocument(SOURCE).document;

  it('sends text runs with marks as tags and holds back code, links and images as placeholders', () => {
    const prepared = prepareDocument(doc);
    expect(prepared.fragments).toContain('Install the package');
    const run = prepared.fragments.find((f) => f.startsWith('Run '))!;
    expect(run).toBe('Run <code data-q="0">npm install quire</code> and read <b>the </b><a data-q="1"><b>guide</b></a> today.');
    expect(prepared.fragments.join('\n')).not.toContain('const answer');
    expect(prepared.fragments.join('\n')).not.toContain('https://');
    // Table cells are sent too: the header and the description, not the cell holding only code.
    expect(prepared.fragments).toEqual(expect.arrayContaining(['Name', 'Description', 'The unique identifier']));
    expect(prepared.fragments).not.toContain('<code data-q="0">id</code>');
    expect(prepared.fragments).toEqual(expect.arrayContaining(['More', 'Hidden text here.']));
    const text = prepared.fragments
      .join(' ')
      .replace(/<code[^>]*>[^<]*<\/code>/g, '')
      .replace(/<[^>]+>/g, ' ');
    expect(prepared.words).toBe(countWords(text));
    expect(prepared.words).toBeGreaterThan(20);
  });

  it('rebuilds the document: text changed, code, link targets, images and structure byte-identical', () => {
    const prepared = prepareDocument(doc);
    const rebuilt = prepared.rebuild(prepared.fragments.map(shout));
    const markdown = documentToMarkdown(rebuilt);
    expect(markdown).toContain('## INSTALL THE PACKAGE');
    expect(markdown).toContain('`npm install quire`');
    expect(markdown).toContain('(https://example.com/docs?x=1\\&y=2)');
    expect(markdown).toContain('![logo](https://example.com/logo.png)');
    expect(markdown).toContain('const answer = 42; // never translated');
    expect(markdown).toMatch(/\| `id` +\| THE UNIQUE IDENTIFIER \|/);
    expect(markdown).toContain('HIDDEN TEXT HERE.');
    // The input document is never changed.
    expect(documentToMarkdown(doc)).toBe(documentToMarkdown(markdownToDocument(SOURCE).document));
  });

  it('refuses a translation that lost, repeated or invented a placeholder', () => {
    const prepared = () => prepareDocument(doc);
    const p1 = prepared();
    const dropCode = p1.fragments.map((f) => f.replace(/<code data-q="0">[^<]*<\/code>/, ''));
    expect(() => p1.rebuild(dropCode)).toThrow(TranslationMangledError);
    const p2 = prepared();
    const twice = p2.fragments.map((f) => f.replace('<a data-q="1">', '<a data-q="0"><b>x</b></a><a data-q="1">'));
    expect(() => p2.rebuild(twice)).toThrow(TranslationMangledError);
    const p3 = prepared();
    expect(() => p3.rebuild(p3.fragments.slice(1))).toThrow(TranslationMangledError);
  });

  it('a link split around reordered words comes back as one link; links interleaved are refused', () => {
    const doc = markdownToDocument('Read the [installation guide](https://example.com/i) now.').document;
    const p1 = prepareDocument(doc);
    expect(p1.fragments).toEqual(['Read the <a data-q="0">installation guide</a> now.']);
    const md = documentToMarkdown(p1.rebuild(['Leer la <a data-q="0">guía</a> de <a data-q="0">instalación</a> ahora.']));
    expect(md).toBe('Leer la [guía de instalación](https://example.com/i) ahora.\n');
    const two = markdownToDocument('See [a](https://a.test) and [b](https://b.test).').document;
    const p2 = prepareDocument(two);
    expect(() => p2.rebuild(['<a data-q="0">x</a> <a data-q="1">y</a> <a data-q="0">z</a>'])).toThrow(TranslationMangledError);
  });

  it('a colour mark goes as a tag that keeps its colours and comes back as the same mark', () => {
    const doc = markdownToDocument('A <mark style="color:red;background-color:$info;">hot</mark> word.\n').document;
    const prepared = prepareDocument(doc);
    expect(prepared.fragments).toEqual(['A <mark data-m="color:red:$info">hot</mark> word.']);
    const rebuilt = prepared.rebuild(prepared.fragments.map(shout));
    expect(documentToMarkdown(rebuilt)).toBe('A <mark style="color:red;background-color:$info;">HOT</mark> WORD.\n');
  });

  it('titles go as escaped text and come back as text', () => {
    expect(titleFragment('Tips & <tricks>')).toBe('Tips &amp; &lt;tricks&gt;');
    expect(titleFrom('Consejos &amp; <b>trucos</b>  ')).toBe('Consejos & trucos');
  });

  it('with the real Apertium (en → es), the rebuilt page keeps its code and links', async () => {
    const prepared = prepareDocument(doc);
    const out = await new ApertiumTranslator().translate(prepared.fragments, { source: 'en', target: 'es' });
    const markdown = documentToMarkdown(prepared.rebuild(out));
    expect(markdown).toMatch(/^## Instalar el envase$/m);
    expect(markdown).toMatch(/^\| `id` +\| El identificador único \|$/m);
    expect(markdown).toMatch(/^- Primer _elemento_ con `code`$/m);
    expect(markdown).toContain('`npm install quire`');
    expect(markdown).toContain('https://example.com/docs?x=1\\&y=2');
    expect(markdown).toContain('const answer = 42; // never translated');
    expect(markdown).not.toContain('Install the package');
  });
});

describe('which pages a run translates', () => {
  const page = (id: string, title: string, document: string | null, pages: PageNode[] = []): PageNode => ({
    id,
    type: 'document',
    title,
    slug: id,
    document,
    pages,
  });
  const source = [page('a', 'A', 'h1', [page('b', 'B', 'h2')]), page('c', 'C', null)];

  it('all pages on the first run, then only new, changed or lost ones', () => {
    expect([...pagesToTranslate(source, {}, null)].sort()).toEqual(['a', 'b', 'c']);
    const previous = { a: { title: 'A', document: 'h1' }, b: { title: 'B', document: 'h2' }, c: { title: 'C', document: null } };
    const target = [page('a', 'A-es', 't1', [page('b', 'B-es', 't2')]), page('c', 'C-es', null)];
    expect([...pagesToTranslate(source, previous, target)]).toEqual([]);
    const edited = [page('a', 'A', 'h1', [page('b', 'B', 'h2-edited')]), page('c', 'C renamed', null), page('d', 'D', 'h4')];
    expect([...pagesToTranslate(edited, previous, target)].sort()).toEqual(['b', 'c', 'd']);
    // A page the target lost is translated again.
    expect([...pagesToTranslate(source, previous, [page('a', 'A-es', 't1')])].sort()).toEqual(['b', 'c']);
  });

  it('the target tree: source structure, translated pages of the run, the target’s own pages for the rest', () => {
    const target = [page('a', 'A-es', 't1', [page('b', 'B-es', 't2')]), page('c', 'C-es', null)];
    const tree = targetTree(source, new Map([['b', { title: 'B-new', document: 't2-new' }]]), target);
    expect(tree.map((n) => [n.id, n.title, n.document])).toEqual([
      ['a', 'A-es', 't1'],
      ['c', 'C-es', null],
    ]);
    expect(tree[0].pages[0]).toMatchObject({ id: 'b', title: 'B-new', document: 't2-new', slug: 'b' });
  });
});

describe('the translators the operator configured', () => {
  class Fixed extends Translator {
    constructor(
      readonly name: string,
      private readonly served: LanguagePair[] | Error,
    ) {
      super();
    }
    pairs() {
      return this.served instanceof Error ? Promise.reject(this.served) : Promise.resolve(this.served);
    }
    translate(fragments: string[]) {
      return Promise.resolve(fragments.map((f) => `${this.name}:${f}`));
    }
  }

  it('a pair goes to the first translator that serves it; one that is down serves none', async () => {
    const t = new FirstAvailableTranslator([
      new Fixed('down', new Error('ECONNREFUSED')),
      new Fixed('one', [{ source: 'en', target: 'de' }]),
      new Fixed('two', [
        { source: 'en', target: 'de' },
        { source: 'en', target: 'es' },
      ]),
    ]);
    expect(await t.translate(['x'], { source: 'en', target: 'de' })).toEqual(['one:x']);
    expect(await t.translate(['x'], { source: 'en', target: 'es' })).toEqual(['two:x']);
    expect(await t.nameFor({ source: 'en', target: 'es' })).toBe('two');
    expect(await t.pairs()).toHaveLength(2);
  });

  it('no translator for the pair: every reason is named', async () => {
    const t = new FirstAvailableTranslator([new Fixed('one', [{ source: 'en', target: 'de' }]), new ApertiumTranslator()]);
    const error = await t.require({ source: 'en', target: 'fr' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PairUnavailableError);
    expect((error as Error).message).toMatch(/one does not translate en → fr/);
    expect((error as Error).message).toMatch(/apertium-eng-fra/);
    await expect(new FirstAvailableTranslator([]).require({ source: 'en', target: 'es' })).rejects.toThrow('No translator is configured');
  });
});
