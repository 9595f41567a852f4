import { createHash } from 'node:crypto';
import type {
  BlockContent,
  Code,
  DefinitionContent,
  Image,
  Link,
  List,
  ListItem,
  Nodes,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
} from 'mdast';
import sanitizeHtml from 'sanitize-html';
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
  /** What the document model could not hold as it was written, and what became of it (reported to the writer). */
  normalized: string[];
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

/** What conversion needs besides the nodes: link resolution, reference definitions, and the source text. */
interface Ctx {
  resolve: LinkResolver;
  /** `[label]: url "title"` definitions, by normalized label (mdast `identifier`). */
  definitions: Map<string, { url: string; title?: string | null }>;
  source: string;
  /** Normalizations met on the way (see ParsedMarkdown.normalized). */
  notes: Set<string>;
}

/** The markdown a node was written as (a construct the document model has no place for is kept as it was). */
function sourceOf(n: Nodes, ctx: Ctx): string {
  const start = n.position?.start.offset;
  const end = n.position?.end.offset;
  if (start === undefined || end === undefined) return printer.stringify({ type: 'root', children: [n as RootContent] }).trim();
  return ctx.source.slice(start, end);
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'picture',
    'source',
    'details',
    'summary',
    'kbd',
    'sup',
    'sub',
    'br',
    'center',
    'font',
    'ins',
    'del',
    'video',
  ],
  allowedAttributes: {
    '*': ['align', 'width', 'height', 'title', 'id', 'name', 'class', 'dir', 'lang'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'srcset', 'loading'],
    source: ['srcset', 'media', 'type', 'src'],
    video: ['src', 'controls', 'poster'],
    details: ['open'],
    font: ['color', 'size'],
    td: ['colspan', 'rowspan', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'align', 'valign'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: true,
};

/**
 * Raw HTML is kept verbatim — unless it could run something (script or style elements, event handler
 * attributes, `javascript:`/`data:` URLs, frames, forms): then only what sanitize-html lets through remains.
 */
export function safeHtml(html: string): string {
  if (
    !/<\s*\/?\s*(script|style|iframe|object|embed|form|input|button|textarea|select|link|meta|base|svg|math)\b|\son[a-z]+\s*=|javascript:|vbscript:|data:/i.test(
      html,
    )
  )
    return html;
  // Inline HTML comes in fragments (`<a …>`, text, `</a>`): the sanitizer closes what it opens, so a
  // closing tag the fragment did not have is taken off again.
  return sanitizeHtml(html, SANITIZE).replace(/<\/([a-z][a-z0-9]*)>/gi, (tag, name: string) =>
    new RegExp(`</\\s*${name}\\s*>`, 'i').test(html) ? tag : '',
  );
}

/** Raw HTML as stored: verbatim, or sanitized (and said so) when it could run something. */
function keptHtml(html: string, ctx: Ctx): string {
  const safe = safeHtml(html);
  ctx.notes.add(
    safe === html ? 'raw HTML kept verbatim' : 'HTML that could run scripts was removed (script, event handlers, javascript: URLs)',
  );
  return safe;
}

/** Reference definitions anywhere in the tree (they can sit in lists and quotes too). */
function definitionsOf(tree: Root): Ctx['definitions'] {
  const defs: Ctx['definitions'] = new Map();
  const walk = (nodes: readonly Nodes[]) => {
    for (const n of nodes) {
      if (n.type === 'definition') {
        const d = n;
        if (!defs.has(d.identifier)) defs.set(d.identifier, { url: d.url, title: d.title });
      } else if ('children' in n) walk(n.children as Nodes[]);
    }
  };
  walk(tree.children);
  return defs;
}

const MARK_ORDER: Marks = ['bold', 'italic', 'strikethrough', 'code'];

/** A leaf with its marks in one canonical order, so equal formatting gives equal documents. */
function leaf(text: string, marks: Marks): DocLeaf {
  return { object: 'leaf', text, marks: MARK_ORDER.filter((m) => marks.includes(m)).map((type) => ({ object: 'mark', type })) };
}

/** Turns phrasing content into texts and inlines, merging adjacent leaves into one text node. */
function inlines(nodes: PhrasingContent[], ctx: Ctx, path: string, marks: Marks = []): (DocText | DocInline)[] {
  const out: (DocText | DocInline)[] = [];
  const pushLeaf = (l: DocLeaf) => {
    const last = out[out.length - 1];
    if (last && last.object === 'text') last.leaves.push(l);
    else out.push({ object: 'text', leaves: [l] });
  };
  nodes.forEach((n, i) => {
    switch (n.type) {
      case 'text':
        // A soft line break is whitespace (it renders as a space); '\n' in a leaf means a hard break only.
        pushLeaf(leaf(n.value.replace(/[ \t]*\r?\n[ \t]*/g, ' '), marks));
        break;
      case 'break':
        pushLeaf(leaf('\n', marks));
        break;
      case 'inlineCode':
        pushLeaf(leaf(n.value, [...marks, 'code']));
        break;
      case 'strong':
        inlines(n.children, ctx, `${path}.${i}`, [...marks, 'bold']).forEach((x) =>
          x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x),
        );
        break;
      case 'emphasis':
        inlines(n.children, ctx, `${path}.${i}`, [...marks, 'italic']).forEach((x) =>
          x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x),
        );
        break;
      case 'delete':
        inlines(n.children, ctx, `${path}.${i}`, [...marks, 'strikethrough']).forEach((x) =>
          x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x),
        );
        break;
      case 'link':
      case 'linkReference': {
        const target = n.type === 'link' ? { url: n.url, title: n.title } : ctx.definitions.get(n.identifier);
        if (!target) {
          // A reference without a definition is what it was written as: text.
          ctx.notes.add(`reference "${sourceOf(n, ctx)}" has no definition: kept as text`);
          pushLeaf(leaf(sourceOf(n, ctx), marks));
          break;
        }
        const content = inlines(n.children, ctx, `${path}.${i}`, marks).filter((x) => x.object === 'text' || x.type === 'inline-image');
        const data: DocInline['data'] = { ref: ctx.resolve(target.url) };
        if (target.title) data.title = target.title;
        out.push({
          object: 'inline',
          type: 'link',
          key: keyOf(`${path}.${i}`),
          isVoid: false,
          data,
          nodes: content.length ? content : [{ object: 'text', leaves: [leaf('', marks)] }],
        });
        break;
      }
      case 'image':
        out.push({ object: 'inline', type: 'inline-image', key: keyOf(`${path}.${i}`), isVoid: true, data: imageData(n.url, n.alt, ctx) });
        break;
      case 'imageReference': {
        const target = ctx.definitions.get(n.identifier);
        if (target)
          out.push({
            object: 'inline',
            type: 'inline-image',
            key: keyOf(`${path}.${i}`),
            isVoid: true,
            data: imageData(target.url, n.alt, ctx),
          });
        else {
          ctx.notes.add(`image reference "${sourceOf(n, ctx)}" has no definition: kept as text`);
          pushLeaf(leaf(sourceOf(n, ctx), marks));
        }
        break;
      }
      case 'html':
        out.push({
          object: 'inline',
          type: 'html',
          key: keyOf(`${path}.${i}`),
          isVoid: true,
          data: { ref: { kind: 'url', url: '' }, html: keptHtml(n.value, ctx) },
        });
        break;
      case 'footnoteReference':
        ctx.notes.add('footnotes kept as written (markdown)');
        out.push({
          object: 'inline',
          type: 'markdown',
          key: keyOf(`${path}.${i}`),
          isVoid: true,
          data: { ref: { kind: 'url', url: '' }, markdown: sourceOf(n, ctx) },
        });
        break;
      default:
        // Other constructs without a place in the model: kept as their source text.
        ctx.notes.add(`${(n as Nodes).type} kept as text`);
        pushLeaf(leaf(sourceOf(n, ctx), marks));
    }
  });
  if (out.length === 0) out.push({ object: 'text', leaves: [leaf('', [])] });
  return out;
}

function imageData(url: string, alt: string | null | undefined, ctx: Ctx): DocInline['data'] {
  const ref = ctx.resolve(url);
  const data: DocInline['data'] = { ref: ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url } };
  if (alt) data.alt = alt;
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

function toBlocks(nodes: (RootContent | BlockContent | DefinitionContent)[], ctx: Ctx, path: string): DocBlock[] {
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
              images.map((img, j) => block('image', `${p}.${j}`, imageData(img.url, img.alt, ctx), undefined, true)),
            ),
          );
        } else out.push(block('paragraph', p, {}, inlines(n.children, ctx, p)));
        break;
      }
      case 'heading':
        if (n.depth > 3) ctx.notes.add(`heading level ${n.depth} became level 3`);
        out.push(block(`heading-${Math.min(n.depth, 3)}`, p, {}, inlines(n.children, ctx, p)));
        break;
      case 'blockquote':
        out.push(block('blockquote', p, {}, toBlocks(n.children, ctx, p)));
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
              block('list-item', `${p}.${j}`, tasks ? { checked: item.checked === true } : {}, toBlocks(item.children, ctx, `${p}.${j}`)),
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
        out.push(block('html', p, { html: keptHtml(n.value, ctx) }, undefined, true));
        break;
      case 'yaml':
      case 'definition':
        break;
      default:
        // Constructs the model has no block for (footnote definitions…): kept as they were written.
        ctx.notes.add(n.type === 'footnoteDefinition' ? 'footnotes kept as written (markdown)' : `${n.type} kept as written (markdown)`);
        out.push(block('markdown', p, { markdown: sourceOf(n, ctx) }, undefined, true));
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
  const ctx: Ctx = { resolve, definitions: definitionsOf(tree), source: markdown, notes: new Set() };
  const document: JsonDocument = { object: 'document', data: {}, nodes: toBlocks(children, ctx, 'n') };
  return { document, meta, leadingTitle, normalized: [...ctx.notes] };
}

// ---------- document → markdown ----------

function markWrap(children: PhrasingContent[], mark: DocMark['type']): PhrasingContent {
  if (mark === 'bold') return { type: 'strong', children };
  if (mark === 'italic') return { type: 'emphasis', children };
  return { type: 'delete', children };
}

const WRAPPING_MARKS = ['bold', 'italic', 'strikethrough'] as const;

/**
 * Leaves back to phrasing: consecutive leaves that share a mark share one wrapper (`_a `b` c_` stays one
 * emphasis around text, code and text, instead of three emphases).
 */
function leavesToPhrasing(leaves: DocLeaf[], outer: ReadonlySet<string> = new Set()): PhrasingContent[] {
  const has = (l: DocLeaf, m: string) => l.marks.some((x) => x.type === m);
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < leaves.length) {
    const l = leaves[i];
    const wrap = WRAPPING_MARKS.find((m) => !outer.has(m) && has(l, m));
    if (!wrap) {
      if (l.text === '\n') out.push({ type: 'break' });
      else out.push(has(l, 'code') ? { type: 'inlineCode', value: l.text } : { type: 'text', value: l.text });
      i += 1;
      continue;
    }
    let j = i;
    while (j < leaves.length && has(leaves[j], wrap)) j += 1;
    out.push(markWrap(leavesToPhrasing(leaves.slice(i, j), new Set([...outer, wrap])), wrap));
    i = j;
  }
  return out;
}

let currentRefUrl: (ref: ContentRef) => string = refToUrl;

function toPhrasing(nodes: DocBlock['nodes']): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const n of nodes ?? []) {
    if (n.object === 'text') out.push(...leavesToPhrasing(n.leaves));
    else if (n.object === 'inline' && n.type === 'link') {
      const link: Link = { type: 'link', url: currentRefUrl(n.data.ref), children: toPhrasing(n.nodes) };
      if (n.data.title) link.title = n.data.title;
      out.push(link);
    } else if (n.object === 'inline' && n.type === 'inline-image')
      out.push({ type: 'image', url: refToUrl(n.data.ref), alt: n.data.alt ?? '' });
    else if (n.object === 'inline' && n.type === 'html') out.push({ type: 'html', value: n.data.html ?? '' });
    else if (n.object === 'inline' && n.type === 'markdown') out.push({ type: 'html', value: n.data.markdown ?? '' });
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
      case 'html':
        out.push({ type: 'html', value: typeof b.data.html === 'string' ? b.data.html : '' });
        break;
      case 'markdown':
        // Kept verbatim: emitted as it was written (an html node is printed without escaping).
        out.push({ type: 'html', value: typeof b.data.markdown === 'string' ? b.data.markdown : '' });
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
