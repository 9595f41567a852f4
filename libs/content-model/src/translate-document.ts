import { isTag, isText, type ChildNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { escapeText } from 'entities';
import { leaf, markKey, type MarkKey, type Marks } from './doc-build';
import { MARK_TAGS } from './html';
import { TEXT_COLORS, type DocBlock, type DocFragment, type DocInline, type DocLeaf, type DocText, type JsonDocument } from './document';
import { cellInlines, cellSourceOf } from './markdown';

/**
 * A page prepared for machine translation: one HTML fragment per run of text (a paragraph, a heading,
 * a list item's text, a table cell …) with the marks as tags (`<b>`, `<i>`, `<code>` …). What must not
 * change never goes through the translator as text: inline code travels as `<code data-q="n">` and is put
 * back from the original, links as `<a data-q="n">` (their target is restored from the original), images
 * and kept HTML as `<img data-q="n">`. Code blocks, HTML blocks and images are not sent at all.
 */
export interface PreparedDocument {
  fragments: string[];
  /** Words of the text sent (code excluded): what a run counts. */
  words: number;
  /** The document with each fragment replaced by its translation; TranslationMangledError when markup was lost. */
  rebuild(translated: string[]): JsonDocument;
}

/** A translator lost or invented a placeholder: its output cannot be trusted to keep code and links. */
export class TranslationMangledError extends Error {}

/** Blocks whose text is never translated. */
const UNTRANSLATED = new Set(['code', 'code-line', 'html', 'markdown', 'math', 'swagger', 'openapi', 'embed', 'file', 'drawing']);

const TAG_OF: Partial<Record<string, string>> = {
  bold: 'b',
  italic: 'i',
  strikethrough: 's',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

const WORD = /\p{L}[\p{L}\p{N}'’-]*/gu;

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

type Inline = DocText | DocInline;

/** One run of inline content turned into a fragment and back. */
class InlineRun {
  /** Originals behind the placeholders: code leaves' texts and inlines. */
  private readonly held: (DocLeaf | DocInline)[] = [];
  readonly html: string;
  words = 0;

  constructor(nodes: Inline[]) {
    this.html = this.write(nodes);
  }

  private write(nodes: Inline[]): string {
    return nodes
      .map((n) => {
        if (n.object === 'text') return n.leaves.map((l) => this.writeLeaf(l)).join('');
        const i = this.held.push(n) - 1;
        if (n.type === 'link') return `<a data-q="${i}">${this.write(n.nodes ?? [])}</a>`;
        return `<img data-q="${i}">`;
      })
      .join('');
  }

  private writeLeaf(l: DocLeaf): string {
    if (l.text === '') return '';
    const marks = l.marks.map(markKey);
    let html: string;
    if (marks.includes('code')) {
      const i = this.held.push(l) - 1;
      html = `<code data-q="${i}">${escapeText(l.text)}</code>`;
    } else {
      this.words += countWords(l.text);
      html = escapeText(l.text).replace(/\n/g, '<br>');
    }
    for (const m of marks)
      if (m.startsWith('color:')) html = `<mark data-m="${m}">${html}</mark>`;
      else if (TAG_OF[m]) html = `<${TAG_OF[m]}>${html}</${TAG_OF[m]}>`;
    return html;
  }

  /** Whether the run has text to translate (not only code, links to code, or images). */
  get translatable(): boolean {
    return this.words > 0;
  }

  read(translated: string): Inline[] {
    const seen = new Set<number>();
    const links = new WeakMap<DocInline, number>();
    const out = this.readNodes(parseDocument(translated).children, [], seen, links);
    if (seen.size !== this.held.length) throw new TranslationMangledError('the translation lost a link, an image or inline code');
    return merge(joinSplitLinks(out, links));
  }

  /** The original behind a placeholder; a link may come back split in parts (word order), code and images once. */
  private placeholder(attrs: Record<string, string>, seen: Set<number>): DocLeaf | DocInline | null {
    const raw = attrs['data-q'];
    if (raw === undefined || !/^\d+$/.test(raw)) return null;
    const i = Number(raw);
    const held = this.held[i];
    if (!held || (seen.has(i) && !(held.object === 'inline' && held.type === 'link')))
      throw new TranslationMangledError('the translation repeated or invented a placeholder');
    seen.add(i);
    return held;
  }

  private readNodes(nodes: ChildNode[], marks: Marks, seen: Set<number>, links: WeakMap<DocInline, number>): Inline[] {
    const out: Inline[] = [];
    for (const node of nodes) {
      if (isText(node)) {
        if (node.data !== '') out.push({ object: 'text', leaves: [leaf(node.data, marks)] });
        continue;
      }
      if (!isTag(node)) continue;
      const name = node.name.toLowerCase();
      const held = this.placeholder(node.attribs, seen);
      if (held?.object === 'leaf')
        out.push({
          object: 'text',
          leaves: [leaf(held.text, held.marks.map(markKey))],
        });
      else if (held?.type === 'link') {
        const link: DocInline = { ...held, nodes: this.readNodes(node.children, marks, seen, links) };
        links.set(link, this.held.indexOf(held));
        out.push(link);
      } else if (held) out.push(held);
      else if (name === 'br') out.push({ object: 'text', leaves: [leaf('\n', marks)] });
      else {
        const kept = node.attribs['data-m'];
        const colors = name === 'mark' ? /^color:([^:]+):([^:]+)$/.exec(kept ?? '') : null;
        const mark = colors && TEXT_COLORS.has(colors[1]) && TEXT_COLORS.has(colors[2]) ? (kept as MarkKey) : MARK_TAGS[name];
        out.push(...this.readNodes(node.children, mark && !marks.includes(mark) ? [...marks, mark] : marks, seen, links));
      }
    }
    return out;
  }
}

/**
 * A link a translator split around reordered words (`the <a>installation guide</a>` → `la <a>guía</a> de
 * <a>instalación</a>`) becomes one link again, over everything from its first part to its last.
 */
function joinSplitLinks(nodes: Inline[], links: WeakMap<DocInline, number>): Inline[] {
  const out: Inline[] = [];
  const at = new Map<number, number>();
  for (const n of nodes) {
    const i = n.object === 'inline' ? links.get(n) : undefined;
    if (i === undefined || !at.has(i)) {
      if (i !== undefined) at.set(i, out.length);
      out.push(n);
      continue;
    }
    const first = out[at.get(i)!] as DocInline;
    const between = out.splice(at.get(i)! + 1);
    if (between.some((b) => b.object === 'inline' && b.type === 'link'))
      throw new TranslationMangledError('the translation interleaved two links');
    first.nodes = merge([...(first.nodes ?? []), ...between, ...((n as DocInline).nodes ?? [])]);
  }
  return out;
}

/** Adjacent texts become one text (as the importers write them). */
function merge(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes) {
    const last = out[out.length - 1];
    if (n.object === 'text' && last?.object === 'text') last.leaves.push(...n.leaves);
    else out.push(n.object === 'text' ? { object: 'text', leaves: [...n.leaves] } : n);
  }
  return out;
}

interface Slot {
  run: InlineRun;
  apply: (nodes: Inline[]) => void;
}

function isInlineContainer(b: DocBlock): boolean {
  const nodes = b.nodes ?? [];
  return nodes.length > 0 && nodes.every((n) => n.object !== 'block');
}

/** Prepares a page's document (a deep copy is rebuilt; the input is never changed). */
export function prepareDocument(doc: JsonDocument): PreparedDocument {
  const copy = structuredClone(doc);
  const slots: Slot[] = [];
  const add = (nodes: Inline[], apply: (nodes: Inline[]) => void) => {
    const run = new InlineRun(nodes);
    if (run.translatable) slots.push({ run, apply });
  };
  const visitBlocks = (blocks: DocBlock[]) => blocks.forEach(visit);
  const visit = (b: DocBlock) => {
    if (UNTRANSLATED.has(b.type)) return;
    if (b.type === 'table') return visitTable(b);
    if (isInlineContainer(b)) add(b.nodes as Inline[], (nodes) => (b.nodes = nodes));
    else visitBlocks((b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block'));
    (b.fragments ?? []).forEach((f: DocFragment) => visitBlocks(f.nodes));
  };
  const visitCell = (source: unknown, apply: (source: string) => void) => {
    if (typeof source !== 'string' || source.trim() === '') return;
    const nodes = cellInlines(source);
    if (nodes) add(nodes, (translated) => apply(cellSourceOf(translated)));
  };
  const visitTable = (b: DocBlock) => {
    const definition = (b.data.definition ?? {}) as Record<string, { title?: unknown }>;
    for (const column of Object.values(definition)) visitCell(column.title, (s) => (column.title = s));
    const records = (b.data.records ?? {}) as Record<string, { values?: Record<string, unknown> }>;
    for (const record of Object.values(records)) {
      const values = record.values ?? {};
      for (const key of Object.keys(values)) visitCell(values[key], (s) => (values[key] = s));
    }
  };
  visitBlocks(copy.nodes);
  return {
    fragments: slots.map((s) => s.run.html),
    words: slots.reduce((n, s) => n + s.run.words, 0),
    rebuild(translated: string[]): JsonDocument {
      if (translated.length !== slots.length)
        throw new TranslationMangledError(`${translated.length} translations for ${slots.length} fragments`);
      slots.forEach((s, i) => s.apply(s.run.read(translated[i])));
      return copy;
    },
  };
}

/** A page title as a fragment (plain text, escaped) and back (tags a translator added are dropped). */
export function titleFragment(title: string): string {
  return escapeText(title);
}

export function titleFrom(translated: string): string {
  const text = (nodes: ChildNode[]): string => nodes.map((n) => (isText(n) ? n.data : isTag(n) ? text(n.children) : '')).join('');
  return text(parseDocument(translated).children).replace(/\s+/g, ' ').trim();
}
