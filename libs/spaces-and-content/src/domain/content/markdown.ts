import { createHash } from 'node:crypto';
import type { BlockContent, Code, DefinitionContent, Image, Link, List, ListItem, PhrasingContent, RootContent, TableCell } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';
import { InvalidInputError } from '@app/shared-kernel';
import type { ContentRef, DocBlock, DocInline, DocLeaf, DocMark, DocText, JsonDocument } from './document';

/**
 * Markdown ↔ document through the unified/remark ecosystem (GFM + YAML frontmatter). remark does all
 * the parsing and printing; this file only maps mdast nodes to document blocks and back.
 */

export interface ParsedMarkdown {
  document: JsonDocument;
  /** Frontmatter values Quire understands (title, description, emoji, hidden). */
  meta: { title?: string; description?: string; emoji?: string; hidden?: boolean };
  /** The text of a leading level-1 heading, removed from the body (it is the page title, as in Git Sync). */
  leadingTitle?: string;
}

/** Resolves a link target written in markdown to a content reference (pages, files, anchors, URLs). */
export type LinkResolver = (url: string) => ContentRef;

export const defaultLinkResolver: LinkResolver = (url) => {
  const page = /^\/pages\/([^/#?]+)(?:#(.+))?$/.exec(url);
  if (page) return page[2] ? { kind: 'page', page: page[1], anchor: page[2] } : { kind: 'page', page: page[1] };
  const file = /^\/files\/([^/#?]+)$/.exec(url);
  if (file) return { kind: 'file', file: file[1] };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return { kind: 'url', url };
};

export function refToUrl(ref: ContentRef): string {
  switch (ref.kind) {
    case 'page':
      return `/pages/${ref.page}${ref.anchor ? `#${ref.anchor}` : ''}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'anchor':
      return `#${ref.anchor}`;
    default:
      return ref.url;
  }
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);
const printer = unified()
  .use(remarkStringify, { bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one' })
  .use(remarkGfm)
  .use(remarkFrontmatter, ['yaml']);

/** Deterministic block keys: a hash of the block's path in the document (no randomness in the domain). */
function keyOf(path: string): string {
  return createHash('sha1').update(path).digest('base64url').slice(0, 10);
}

type Marks = DocMark['type'][];

const MARK_ORDER: Marks = ['bold', 'italic', 'strikethrough', 'code'];

/** A leaf with its marks in one canonical order, so equal formatting gives equal documents. */
function leaf(text: string, marks: Marks): DocLeaf {
  return { object: 'leaf', text, marks: MARK_ORDER.filter((m) => marks.includes(m)).map((type) => ({ object: 'mark', type })) };
}

/** Turns phrasing content into texts and inlines, merging adjacent leaves into one text node. */
function inlines(nodes: PhrasingContent[], resolve: LinkResolver, path: string, marks: Marks = []): (DocText | DocInline)[] {
  const out: (DocText | DocInline)[] = [];
  const pushLeaf = (l: DocLeaf) => {
    const last = out[out.length - 1];
    if (last && last.object === 'text') last.leaves.push(l);
    else out.push({ object: 'text', leaves: [l] });
  };
  nodes.forEach((n, i) => {
    switch (n.type) {
      case 'text':
        pushLeaf(leaf(n.value, marks));
        break;
      case 'break':
        pushLeaf(leaf('\n', marks));
        break;
      case 'inlineCode':
        pushLeaf(leaf(n.value, [...marks, 'code']));
        break;
      case 'strong':
        inlines(n.children, resolve, `${path}.${i}`, [...marks, 'bold']).forEach((x) =>
          x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x),
        );
        break;
      case 'emphasis':
        inlines(n.children, resolve, `${path}.${i}`, [...marks, 'italic']).forEach((x) =>
          x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x),
        );
        break;
      case 'delete':
        inlines(n.children, resolve, `${path}.${i}`, [...marks, 'strikethrough']).forEach((x) =>
          x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x),
        );
        break;
      case 'link': {
        const texts = inlines(n.children, resolve, `${path}.${i}`, marks).filter((x): x is DocText => x.object === 'text');
        const data: DocInline['data'] = { ref: resolve(n.url) };
        if (n.title) data.title = n.title;
        out.push({
          object: 'inline',
          type: 'link',
          key: keyOf(`${path}.${i}`),
          isVoid: false,
          data,
          nodes: texts.length ? texts : [{ object: 'text', leaves: [leaf('', marks)] }],
        });
        break;
      }
      case 'image':
        out.push({ object: 'inline', type: 'inline-image', key: keyOf(`${path}.${i}`), isVoid: true, data: imageData(n, resolve) });
        break;
      case 'html':
        pushLeaf(leaf(n.value, marks));
        break;
      default:
        // footnoteReference, linkReference, imageReference: kept as their source text.
        pushLeaf(leaf(printer.stringify({ type: 'root', children: [{ type: 'paragraph', children: [n] }] }).trim(), marks));
    }
  });
  if (out.length === 0) out.push({ object: 'text', leaves: [leaf('', [])] });
  return out;
}

function imageData(n: Image, resolve: LinkResolver): DocInline['data'] {
  const ref = resolve(n.url);
  const data: DocInline['data'] = { ref: ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: n.url } };
  if (n.alt) data.alt = n.alt;
  return data;
}

function block(type: string, path: string, data: Record<string, unknown>, nodes?: DocBlock['nodes'], isVoid = false): DocBlock {
  const b: DocBlock = { object: 'block', type, key: keyOf(path), data };
  if (isVoid) b.isVoid = true;
  else b.nodes = nodes ?? [];
  if (!isVoid) b.isVoid = false;
  return b;
}

function cellSource(cell: TableCell): string {
  return printer.stringify({ type: 'root', children: [{ type: 'paragraph', children: cell.children }] }).trim();
}

function toBlocks(nodes: (RootContent | BlockContent | DefinitionContent)[], resolve: LinkResolver, path: string): DocBlock[] {
  const out: DocBlock[] = [];
  nodes.forEach((n, i) => {
    const p = `${path}.${i}`;
    switch (n.type) {
      case 'paragraph': {
        const onlyImages = n.children.length > 0 && n.children.every((c) => c.type === 'image' || (c.type === 'text' && !c.value.trim()));
        if (onlyImages) {
          const images = n.children.filter((c): c is Image => c.type === 'image');
          out.push(
            block(
              'images',
              p,
              {},
              images.map((img, j) => block('image', `${p}.${j}`, imageData(img, resolve), undefined, true)),
            ),
          );
        } else out.push(block('paragraph', p, {}, inlines(n.children, resolve, p)));
        break;
      }
      case 'heading':
        out.push(block(`heading-${Math.min(n.depth, 3)}`, p, {}, inlines(n.children, resolve, p)));
        break;
      case 'blockquote':
        out.push(block('blockquote', p, {}, toBlocks(n.children, resolve, p)));
        break;
      case 'list': {
        const tasks = n.children.some((item) => typeof item.checked === 'boolean');
        const type = tasks ? 'list-tasks' : n.ordered ? 'list-ordered' : 'list-unordered';
        const data: Record<string, unknown> = n.ordered && n.start != null && n.start !== 1 ? { start: n.start } : {};
        out.push(
          block(
            type,
            p,
            data,
            n.children.map((item: ListItem, j) =>
              block(
                'list-item',
                `${p}.${j}`,
                tasks ? { checked: item.checked === true } : {},
                toBlocks(item.children, resolve, `${p}.${j}`),
              ),
            ),
          ),
        );
        break;
      }
      case 'code': {
        const data: Record<string, unknown> = n.lang ? { syntax: n.lang } : {};
        out.push(
          block(
            'code',
            p,
            data,
            n.value.split('\n').map((line, j) => block('code-line', `${p}.${j}`, {}, [{ object: 'text', leaves: [leaf(line, [])] }])),
          ),
        );
        break;
      }
      case 'thematicBreak':
        out.push(block('divider', p, {}, undefined, true));
        break;
      case 'table': {
        const t = n;
        const [header, ...rows] = t.children;
        const columns = header.children.map((_, j) => `c${j}`);
        const definition = Object.fromEntries(
          header.children.map((cell, j) => [
            columns[j],
            { id: columns[j], title: cellSource(cell), type: 'text', textAlignment: t.align?.[j] ?? 'left' },
          ]),
        );
        const records = Object.fromEntries(
          rows.map((row, r) => [
            `r${r}`,
            {
              orderIndex: `a${String(r).padStart(4, '0')}`,
              values: Object.fromEntries(row.children.map((cell, j) => [columns[j], cellSource(cell)])),
            },
          ]),
        );
        out.push(block('table', p, { view: { type: 'grid', columns, hideHeader: false }, definition, records }, undefined, true));
        break;
      }
      case 'html':
        out.push(block('paragraph', p, {}, [{ object: 'text', leaves: [leaf(n.value, [])] }]));
        break;
      case 'yaml':
      case 'definition':
        break;
      default:
        out.push(
          block('paragraph', p, {}, [{ object: 'text', leaves: [leaf(printer.stringify({ type: 'root', children: [n] }).trim(), [])] }]),
        );
    }
  });
  return out;
}

/** Parses markdown (with optional YAML frontmatter) into a document. */
export function markdownToDocument(
  markdown: string,
  resolve: LinkResolver = defaultLinkResolver,
  options: { titleFromHeading?: boolean } = {},
): ParsedMarkdown {
  const tree = parser.parse(markdown);
  const meta: ParsedMarkdown['meta'] = {};
  let children = tree.children;
  const front = children[0]?.type === 'yaml' ? children[0] : null;
  if (front) {
    let values: unknown;
    try {
      values = parseYaml(front.value);
    } catch (e) {
      throw new InvalidInputError(`Invalid frontmatter: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    if (values && typeof values === 'object') {
      const v = values as Record<string, unknown>;
      if (typeof v.title === 'string') meta.title = v.title;
      if (typeof v.description === 'string') meta.description = v.description;
      if (typeof v.emoji === 'string') meta.emoji = v.emoji;
      if (typeof v.hidden === 'boolean') meta.hidden = v.hidden;
    }
    children = children.slice(1);
  }
  let leadingTitle: string | undefined;
  if (options.titleFromHeading && children[0]?.type === 'heading' && children[0].depth === 1) {
    leadingTitle = printer.stringify({ type: 'root', children: [{ type: 'paragraph', children: children[0].children }] }).trim();
    children = children.slice(1);
  }
  return { document: { object: 'document', data: {}, nodes: toBlocks(children, resolve, 'n') }, meta, leadingTitle };
}

// ---------- document → markdown ----------

function markWrap(children: PhrasingContent[], mark: DocMark['type']): PhrasingContent {
  if (mark === 'bold') return { type: 'strong', children };
  if (mark === 'italic') return { type: 'emphasis', children };
  return { type: 'delete', children };
}

function leafToPhrasing(l: DocLeaf): PhrasingContent[] {
  const marks = l.marks.map((m) => m.type);
  if (l.text === '\n') return [{ type: 'break' }];
  let node: PhrasingContent = marks.includes('code') ? { type: 'inlineCode', value: l.text } : { type: 'text', value: l.text };
  for (const m of (['strikethrough', 'italic', 'bold'] as const).filter((x) => marks.includes(x))) node = markWrap([node], m);
  return [node];
}

let currentRefUrl: (ref: ContentRef) => string = refToUrl;

function toPhrasing(nodes: DocBlock['nodes']): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const n of nodes ?? []) {
    if (n.object === 'text') n.leaves.forEach((l) => out.push(...leafToPhrasing(l)));
    else if (n.object === 'inline' && n.type === 'link') {
      const link: Link = { type: 'link', url: currentRefUrl(n.data.ref), children: toPhrasing(n.nodes) };
      if (n.data.title) link.title = n.data.title;
      out.push(link);
    } else if (n.object === 'inline' && n.type === 'inline-image')
      out.push({ type: 'image', url: refToUrl(n.data.ref), alt: n.data.alt ?? '' });
  }
  return out;
}

function toMdast(blocks: DocBlock[]): RootContent[] {
  const out: RootContent[] = [];
  for (const b of blocks) {
    const kids = (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block');
    switch (b.type) {
      case 'paragraph':
        out.push({ type: 'paragraph', children: toPhrasing(b.nodes) });
        break;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        out.push({ type: 'heading', depth: Number(b.type.slice(-1)) as 1 | 2 | 3, children: toPhrasing(b.nodes) });
        break;
      case 'blockquote':
        out.push({ type: 'blockquote', children: toMdast(kids) as BlockContent[] });
        break;
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks': {
        const list: List = {
          type: 'list',
          ordered: b.type === 'list-ordered',
          spread: false,
          children: kids.map((item) => ({
            type: 'listItem',
            spread: false,
            checked: b.type === 'list-tasks' ? item.data.checked === true : null,
            children: toMdast((item.nodes ?? []).filter((n): n is DocBlock => n.object === 'block')) as BlockContent[],
          })),
        };
        if (b.type === 'list-ordered') list.start = typeof b.data.start === 'number' ? b.data.start : 1;
        out.push(list);
        break;
      }
      case 'code': {
        const code: Code = {
          type: 'code',
          lang: typeof b.data.syntax === 'string' ? b.data.syntax : null,
          value: kids
            .map((line) =>
              toPhrasing(line.nodes)
                .map((p) => ('value' in p ? p.value : ''))
                .join(''),
            )
            .join('\n'),
        };
        out.push(code);
        break;
      }
      case 'divider':
        out.push({ type: 'thematicBreak' });
        break;
      case 'images':
        out.push({
          type: 'paragraph',
          children: kids.map((img) => ({ type: 'image', url: refToUrl(img.data.ref as ContentRef), alt: (img.data.alt as string) ?? '' })),
        });
        break;
      case 'table': {
        const view = b.data.view as { columns: string[] };
        const definition = b.data.definition as Record<string, { title: string; textAlignment?: string }>;
        const records = Object.values(b.data.records as Record<string, { orderIndex: string; values: Record<string, string> }>).sort(
          (x, y) => (x.orderIndex < y.orderIndex ? -1 : 1),
        );
        // A cell holds its markdown source (written by this printer on import): it is emitted as it is,
        // never parsed again on the way out (parsing every cell was most of a table's render time).
        const cell = (source: string): TableCell => ({ type: 'tableCell', children: [{ type: 'html', value: source }] });
        out.push({
          type: 'table',
          align: view.columns.map((c) => (definition[c]?.textAlignment as 'left' | 'right' | 'center' | undefined) ?? null),
          children: [
            { type: 'tableRow', children: view.columns.map((c) => cell(definition[c]?.title ?? '')) },
            ...records.map((r) => ({ type: 'tableRow' as const, children: view.columns.map((c) => cell(String(r.values[c] ?? ''))) })),
          ],
        });
        break;
      }
      default:
        // Blocks Quire does not render to markdown (hints, tabs, embeds...) keep their text.
        out.push({ type: 'paragraph', children: toPhrasing(b.nodes) });
    }
  }
  return out;
}

/** Renders a document as GFM markdown; `refUrl` chooses how page, file and anchor references are written. */
export function documentToMarkdown(doc: JsonDocument, refUrl: (ref: ContentRef) => string = refToUrl): string {
  currentRefUrl = refUrl;
  try {
    return printer.stringify({ type: 'root', children: toMdast(doc.nodes) });
  } finally {
    currentRefUrl = refToUrl;
  }
}
