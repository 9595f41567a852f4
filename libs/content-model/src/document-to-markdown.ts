import type { BlockContent, Code, Link, List, PhrasingContent, RootContent, TableCell } from 'mdast';
import { inlineItems, leaf, nestMarks, type InlineItem, type MarkKey } from './doc-build';
import { emojiText, type ContentRef, type DocBlock, type DocMark, type JsonDocument } from './document';
import {
  buttonHtml,
  highlightedCodeHtml,
  expressionHtml,
  HTML_ALIGN,
  iconHtml,
  imageHtml,
  inlinesToHtml,
  isRichTable,
  richTableHtml,
  colorMarkTag,
} from './html';
import type { GitbookTag } from './gitbook-tags';
import { QUIRE_STYLE, writeMarkdown, type MarkdownStyle } from './markdown-write';
import { blockText, negated } from './document-queries';
import { refToUrl } from './markdown-links';

/**
 * The document model written back as markdown, GitBook's way: blocks to mdast (GitBook's block tags, HTML where
 * markdown has no form), then markdown-write's serializer.
 */

/** Marks markdown has no syntax for are written as the HTML they were imported from. */
const HTML_MARKS: Partial<Record<DocMark['type'], string>> = { keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };

function markWrap(mark: MarkKey, children: PhrasingContent[]): PhrasingContent[] {
  if (mark.startsWith('color:')) return [{ type: 'html', value: colorMarkTag(mark) }, ...children, { type: 'html', value: '</mark>' }];
  if (mark === 'bold') return [{ type: 'strong', children }];
  if (mark === 'italic') return [{ type: 'emphasis', children }];
  if (mark === 'strikethrough') return [{ type: 'delete', children }];
  const tag = HTML_MARKS[mark as DocMark['type']];
  return [{ type: 'html', value: `<${tag}>` }, ...children, { type: 'html', value: `</${tag}>` }];
}

// A colour mark outermost, as GitBook writes it (`<mark style="color:red;">**RED**</mark>`).
const WRAPPING_MARKS = ['color', 'bold', 'italic', 'strikethrough', 'keyboard', 'superscript', 'subscript'] as const;

let currentRefUrl: (ref: ContentRef) => string = refToUrl;

/**
 * How a table cell's markdown source is read into inlines (markdown.ts's `cellInlines`, given when that module
 * loads: this module cannot import it, markdown.ts imports this one). A rich table's text cells are written as
 * HTML from them; without it, as their escaped text.
 */
let readCell: (source: string) => DocBlock['nodes'] | null = () => null;
export function useCellReader(read: (source: string) => DocBlock['nodes'] | null): void {
  readCell = read;
}
/** The bodies of the annotations written so far (the document's footnotes, numbered in order). */
let currentFootnotes: DocBlock[][] = [];

function itemToPhrasing(item: InlineItem, outer: ReadonlySet<string>): PhrasingContent[] {
  if (item.object === 'leaf') {
    if (item.text === '\n') return [{ type: 'break' }];
    return [item.marks.some((m) => m.type === 'code') ? { type: 'inlineCode', value: item.text } : { type: 'text', value: item.text }];
  }
  if (item.type === 'link') {
    const link: Link = { type: 'link', url: currentRefUrl(item.data.ref), children: phrasing(item.nodes, outer) };
    if (item.data.title) link.title = item.data.title;
    return [link];
  }
  if (item.type === 'inline-image') {
    // A dark variant or a size has no markdown syntax: GitBook's HTML.
    const dark = item.data.refDark ? currentRefUrl(item.data.refDark as ContentRef) : undefined;
    if (dark || item.data.size !== undefined) return [{ type: 'html', value: imageHtml(item.data, currentRefUrl(item.data.ref), dark) }];
    return [{ type: 'image', url: currentRefUrl(item.data.ref), alt: item.data.alt ?? '' }];
  }
  if (item.type === 'expression') return [{ type: 'html', value: expressionHtml(item.data.expression) }];
  if (item.type === 'button') return [{ type: 'html', value: buttonHtml(item.data, item.data.ref ? currentRefUrl(item.data.ref) : '') }];
  if (item.type === 'icon') return [{ type: 'html', value: iconHtml(item.data.icon) }];
  if (item.type === 'inline-math') return [{ type: 'html', value: `$$${item.data.formula}$$` }];
  if (item.type === 'emoji') return [{ type: 'text', value: emojiText(item.data.code) }];
  if (item.type === 'mention') {
    const url = currentRefUrl(item.data.ref);
    return [{ type: 'link', url, title: 'mention', children: [{ type: 'text', value: url }] }];
  }
  if (item.type === 'annotation') {
    // GitBook's annotation is a footnote: its number right after the annotated word, its body at the end.
    const body = item.fragments?.find((f) => f.fragment === 'annotation-body')?.nodes ?? [];
    currentFootnotes.push(body);
    return [...phrasing(item.nodes, outer), { type: 'html', value: `[^${currentFootnotes.length}]` }];
  }
  if (item.type === 'html') return [{ type: 'html', value: item.data.html ?? '' }];
  if (item.type === 'markdown') return [{ type: 'html', value: item.data.markdown ?? '' }];
  return [];
}

function phrasing(nodes: DocBlock['nodes'], outer: ReadonlySet<string> = new Set()): PhrasingContent[] {
  return nestMarks(inlineItems(nodes), WRAPPING_MARKS, itemToPhrasing, markWrap, outer);
}

/** Texts and inlines back to mdast phrasing content. */
export function toPhrasing(nodes: DocBlock['nodes']): PhrasingContent[] {
  return phrasing(nodes);
}

function toMdast(blocks: DocBlock[]): RootContent[] {
  const out: RootContent[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const kids = (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block');
    switch (b.type) {
      case 'drawing':
        // GitBook's markdown has no drawing: its image (read back as an image block).
        if ((b.data.ref as ContentRef | undefined)?.kind)
          out.push({ type: 'paragraph', children: [{ type: 'image', url: currentRefUrl(b.data.ref as ContentRef), alt: 'Drawing' }] });
        break;
      case 'math':
        out.push({ type: 'html', value: `$$\n${str(b.data.formula)}\n$$` });
        break;
      case 'integration': {
        // `{% @mermaid/diagram content="…" %}`: the integration's block, its text props as attributes.
        const props = b.data.props && typeof b.data.props === 'object' ? (b.data.props as Record<string, unknown>) : {};
        const attrs = Object.entries(props).flatMap(([k, v]): [string, string][] =>
          typeof v === 'string' && /^[A-Za-z][\w-]*$/.test(k) ? [[k, v]] : [],
        );
        out.push({ ...tag(`@${str(b.data.integration)}/${str(b.data.block)}`, attrs, []), lone: true });
        break;
      }
      case 'if': {
        // GitBook's conditional content; a following block on the negated expression is its `{% else %}`.
        const expression = str(b.data.expression);
        const next = blocks[i + 1];
        const otherwise = next?.type === 'if' && next.data.expression === negated(expression) ? blocksOf(next) : null;
        const children = toMdast(kids);
        if (otherwise) {
          children.push({ ...tag('else', [], []), lone: true }, ...toMdast(otherwise));
          i += 1;
        }
        out.push({ ...tag('if', [], children), expression });
        break;
      }
      case 'paragraph':
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const align = typeof b.data.align === 'string' ? HTML_ALIGN[b.data.align] : undefined;
        const tag = b.type === 'paragraph' ? 'p' : `h${b.type.slice(-1)}`;
        // Markdown cannot align text: an aligned block is written as the HTML it was imported from.
        if (align) out.push({ type: 'html', value: `<${tag} align="${align}">${inlinesToHtml(b.nodes, currentRefUrl)}</${tag}>` });
        else if (b.type === 'paragraph') out.push({ type: 'paragraph', children: toPhrasing(b.nodes) });
        else out.push({ type: 'heading', depth: Number(b.type.slice(-1)) as 1 | 2 | 3, children: toPhrasing(b.nodes) });
        break;
      }
      case 'expandable': {
        const title = b.fragments?.find((f) => f.fragment === 'expandable-title')?.nodes[0];
        const body = b.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes ?? [];
        const open = b.data.defaultExpanded === true ? ' open' : '';
        out.push({ type: 'html', value: `<details${open}>\n<summary>${inlinesToHtml(title?.nodes, currentRefUrl)}</summary>` });
        out.push(...toMdast(body), { type: 'html', value: '</details>' });
        break;
      }
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
        const titled = typeof b.data.title === 'string' || b.data.lineNumbers === true || typeof b.data.overflow === 'string';
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
        // Highlighted lines have no markdown syntax: GitBook's <pre><code> with them in <strong>.
        const body: RootContent = kids.some((line) => line.data.highlighted === true)
          ? {
              type: 'html',
              value: highlightedCodeHtml(
                kids.map((line) => ({ text: blockText(line.nodes), highlighted: line.data.highlighted === true })),
                typeof b.data.syntax === 'string' ? b.data.syntax : null,
              ),
            }
          : code;
        if (titled) {
          // GitBook's code options wrap the fence in a {% code %} tag.
          const options: [string, string | undefined][] = [
            ['title', typeof b.data.title === 'string' ? b.data.title : undefined],
            ['overflow', typeof b.data.overflow === 'string' ? b.data.overflow : undefined],
            ['lineNumbers', b.data.lineNumbers === true ? 'true' : undefined],
          ];
          out.push(tag('code', options, [body]));
        } else out.push(body);
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
      case 'images': {
        const align = typeof b.data.align === 'string' ? b.data.align : undefined;
        const caption = (img: DocBlock) => img.fragments?.find((f) => f.fragment === 'caption')?.nodes[0];
        const dark = (img: DocBlock) => (img.data.refDark ? currentRefUrl(img.data.refDark as ContentRef) : undefined);
        if (kids.some((img) => caption(img) || dark(img))) {
          // An image with a caption or a dark variant: GitBook's <figure>, one per image.
          for (const img of kids) {
            const text = caption(img);
            out.push({
              type: 'html',
              value: `<figure>${imageHtml(img.data, currentRefUrl(img.data.ref as ContentRef), dark(img))}${
                text ? `<figcaption><p>${inlinesToHtml(text.nodes, currentRefUrl)}</p></figcaption>` : ''
              }</figure>`,
            });
          }
        } else if (align || kids.some((img) => img.data.width !== undefined || img.data.height !== undefined)) {
          // Alignment and sizes have no markdown syntax: written as HTML.
          const imgs = kids.map((img) => imageHtml(img.data, currentRefUrl(img.data.ref as ContentRef))).join('\n');
          out.push({ type: 'html', value: align ? `<p align="${align}">\n${imgs}\n</p>` : imgs });
        } else
          out.push({
            type: 'paragraph',
            children: kids.map((img) => ({
              type: 'image',
              url: currentRefUrl(img.data.ref as ContentRef),
              alt: (img.data.alt as string) ?? '',
            })),
          });
        break;
      }
      case 'table': {
        if (isRichTable(b.data)) {
          // Cards, typed and hidden columns: GitBook's HTML table (cell sources written as HTML).
          const cellHtml = (source: string) =>
            source ? inlinesToHtml(readCell(source) ?? [{ object: 'text', leaves: [leaf(source, [])] }], currentRefUrl) : '';
          out.push({ type: 'html', value: richTableHtml(b.data, cellHtml, currentRefUrl) });
          break;
        }
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
      case 'hint':
        out.push(tag('hint', [['style', str(b.data.style, 'info')]], toMdast(kids)));
        break;
      case 'tabs':
        out.push(
          tag(
            'tabs',
            [],
            kids.map((item) => tag('tab', [['title', str(item.data.title)]], toMdast(blocksOf(item)))),
          ),
        );
        break;
      case 'stepper':
        out.push(
          tag(
            'stepper',
            [],
            kids.map((step) => tag('step', [], toMdast(blocksOf(step)))),
          ),
        );
        break;
      case 'columns':
        out.push(
          tag(
            'columns',
            [],
            kids.map((column) =>
              tag('column', [['width', typeof column.data.width === 'string' ? column.data.width : undefined]], toMdast(blocksOf(column))),
            ),
          ),
        );
        break;
      case 'updates':
        out.push(
          tag(
            'updates',
            [['format', typeof b.data.format === 'string' ? b.data.format : undefined]],
            kids.map((update) => tag('update', [['date', str(update.data.date)]], toMdast(blocksOf(update)))),
          ),
        );
        break;
      case 'embed': {
        const caption = typeof b.data.caption === 'string' ? b.data.caption : '';
        const node = tag('embed', [['url', str(b.data.url)]], caption ? [{ type: 'html', value: caption }] : []);
        out.push(caption ? node : { ...node, lone: true });
        break;
      }
      case 'content-ref': {
        const url = currentRefUrl(b.data.ref as ContentRef);
        out.push(
          tag(
            'content-ref',
            [['url', url]],
            [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: url }] }] }],
          ),
        );
        break;
      }
      case 'file': {
        const caption = typeof b.data.caption === 'string' ? b.data.caption : '';
        out.push(tag('file', [['src', currentRefUrl(b.data.ref as ContentRef)]], caption ? [{ type: 'html', value: caption }] : []));
        break;
      }
      case 'reusable-content':
        out.push({ ...tag('include', [['', currentRefUrl(b.data.ref as ContentRef)]], []), lone: true });
        break;
      case 'swagger': {
        // GitBook writes the spec's source inside: a file by its name, a URL as itself.
        const src = currentRefUrl(b.data.ref as ContentRef);
        const label = (b.data.ref as ContentRef | undefined)?.kind === 'file' ? (src.split('/').pop() ?? src) : src;
        out.push(
          tag(
            'openapi',
            [
              ['src', src],
              ['path', str(b.data.path)],
              ['method', str(b.data.method)],
            ],
            [
              {
                type: 'paragraph',
                // `[url](url)` as GitBook writes it (the printer would shorten a link to itself to `<url>`).
                children: /^[^\s()<>[\]\\]+$/.test(src + label)
                  ? [{ type: 'html', value: `[${label}](${src})` }]
                  : [{ type: 'link', url: src, children: [{ type: 'text', value: label }] }],
              },
            ],
          ),
        );
        break;
      }
      case 'prompt': {
        const expanded = b.data.defaultExpanded;
        out.push(
          tag(
            'prompt',
            [
              ['description', str(b.data.description)],
              ['icon', typeof b.data.icon === 'string' ? b.data.icon : undefined],
              ['openInAIProviders', typeof b.data.openInAIProviders === 'boolean' ? String(b.data.openInAIProviders) : undefined],
              ['defaultExpanded', typeof expanded === 'string' ? expanded : undefined],
            ],
            toMdast(kids),
          ),
        );
        break;
      }
      case 'openapi-webhook':
      case 'openapi-schemas': {
        const spec = str((b.data.ref as { spec?: unknown } | undefined)?.spec);
        const attrs: [string, string | undefined][] =
          b.type === 'openapi-webhook'
            ? [
                ['spec', spec],
                ['name', str(b.data.name)],
                ['method', str(b.data.method)],
              ]
            : [
                ['spec', spec],
                ['schemas', Array.isArray(b.data.schemas) ? b.data.schemas.join(',') : ''],
                ['grouped', typeof b.data.grouped === 'boolean' ? String(b.data.grouped) : undefined],
                ['title', typeof b.data.title === 'string' ? b.data.title : undefined],
              ];
        out.push(tag(b.type, attrs, [{ type: 'paragraph', children: [{ type: 'text', value: `OpenAPI ${spec}`.trim() }] }]));
        break;
      }
      case 'openapi-operation': {
        const ref = b.data.ref as { spec?: unknown } | undefined;
        out.push(
          tag(
            'openapi-operation',
            [
              ['spec', str(ref?.spec)],
              ['path', str(b.data.path)],
              ['method', str(b.data.method)],
            ],
            [{ type: 'paragraph', children: [{ type: 'text', value: `OpenAPI ${str(ref?.spec)}`.trim() }] }],
          ),
        );
        break;
      }
      default:
        // Blocks Quire does not render to markdown (drawings, integrations ...) keep their text.
        out.push({ type: 'paragraph', children: toPhrasing(b.nodes) });
    }
  }
  return out;
}

/** A GitBook block tag around these blocks (written by markdown-write.ts). */
function tag(name: string, attrs: [string, string | undefined][], children: RootContent[]): GitbookTag {
  return { type: 'gitbookTag', name, attrs: Object.fromEntries(attrs.filter(([, v]) => v !== undefined)), children } as GitbookTag;
}

const str = (v: unknown, otherwise = ''): string => (typeof v === 'string' ? v : otherwise);

function blocksOf(b: DocBlock): DocBlock[] {
  return (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block');
}

/** Renders a document as GFM markdown; `refUrl` chooses how page, file and anchor references are written. */
export function documentToMarkdown(
  doc: JsonDocument,
  refUrl: (ref: ContentRef) => string = refToUrl,
  style: MarkdownStyle = QUIRE_STYLE,
): string {
  const outerRefUrl = currentRefUrl;
  const outerFootnotes = currentFootnotes;
  currentRefUrl = refUrl;
  currentFootnotes = [];
  try {
    const body = writeMarkdown({ type: 'root', children: toMdast(doc.nodes) }, style);
    // The annotations' bodies, as footnote definitions (continuation lines indented four spaces).
    const notes = currentFootnotes.map((blocks, i) => {
      const text = writeMarkdown({ type: 'root', children: toMdast(blocks) }, style).replace(/\n+$/, '');
      return `[^${i + 1}]: ${text.replace(/\n(?=.)/g, '\n    ')}`;
    });
    return notes.length ? `${body.replace(/\n+$/, '')}\n\n${notes.join('\n\n')}\n` : body;
  } finally {
    currentRefUrl = outerRefUrl;
    currentFootnotes = outerFootnotes;
  }
}
