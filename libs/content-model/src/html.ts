import { isTag, isText, type ChildNode, type Element } from 'domhandler';
import { Parser, parseDocument } from 'htmlparser2';
import { block, colorMark, inlineItems, keyOf, leaf, nestMarks, type InlineItem, type MarkKey, type Marks } from './doc-build';
import {
  TEXT_COLORS,
  type ContentRef,
  type DocBlock,
  type DocInline,
  type DocLeaf,
  type DocMark,
  type DocRefData,
  type DocText,
} from './document';

/**
 * Raw HTML met in markdown, mapped to the document model where the model has a place for it (htmlparser2
 * parses; this file only maps elements). The common tags of real READMEs are mapped: `img`, `br`, `a`,
 * `details`/`summary`, `table`/`tr`/`td`/`th`, `p`/`div`/`center` with `align`, headings, lists, `pre`,
 * `blockquote`, `hr`, and the inline marks `b`/`strong`, `i`/`em`, `s`/`del`, `code`, `kbd`, `sup`, `sub`.
 * HTML holding anything else (or anything that could run: see `safeHtml`) is not mapped: it is kept
 * verbatim, as a block or inline that renders back as the same HTML.
 */

export interface HtmlContext {
  resolve: (url: string) => ContentRef;
  /** Normalizations reported to the writer. */
  notes: Set<string>;
  /** The markdown source of inline content (what a table cell stores). */
  inlineMarkdown: (nodes: (DocText | DocInline)[]) => string;
}

/** Inline elements that are marks of the model. */
export const MARK_TAGS: Readonly<Record<string, Marks[number]>> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  s: 'strikethrough',
  del: 'strikethrough',
  strike: 'strikethrough',
  code: 'code',
  kbd: 'keyboard',
  sup: 'superscript',
  sub: 'subscript',
};

/**
 * GitBook's colour mark, `<mark style="color:red;background-color:blue;">`: its mark, or null when the style
 * says anything else or names a colour outside the official palette (the HTML is kept as written then).
 */
export function colorMarkOf(style: string | undefined): MarkKey | null {
  if (style === undefined) return null;
  const colors: Record<string, string> = { color: 'default', 'background-color': 'default' };
  for (const declaration of style.split(';')) {
    if (!declaration.trim()) continue;
    const m = /^\s*(color|background-color)\s*:\s*(\S+)\s*$/i.exec(declaration);
    if (!m || !TEXT_COLORS.has(m[2])) return null;
    colors[m[1].toLowerCase()] = m[2];
  }
  if (colors.color === 'default' && colors['background-color'] === 'default') return null;
  return colorMark(colors.color, colors['background-color']);
}

/** A colour mark's opening tag as GitBook writes it (`<mark style="color:red;">`). */
export function colorMarkTag(key: MarkKey): string {
  const [, text, background] = key.split(':');
  const style = (text !== 'default' ? `color:${text};` : '') + (background !== 'default' ? `background-color:${background};` : '');
  return `<mark style="${escapeHtml(style)}">`;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The attributes each mapped element keeps (others are dropped, and reported). */
const KEPT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'width', 'height'],
  p: ['align'],
  div: ['align'],
  h1: ['align'],
  h2: ['align'],
  h3: ['align'],
  h4: ['align'],
  h5: ['align'],
  h6: ['align'],
  details: ['open'],
  mark: ['style'],
  pre: ['lang'],
  code: ['class'],
  ol: ['start'],
  td: ['align'],
  th: ['align'],
};

class Unmappable extends Error {}

/** Whether every element the HTML opens is closed in it (void elements need no closing). */
function balanced(html: string): boolean {
  let ok = true;
  const parser = new Parser(
    {
      onclosetag(name, implied) {
        if (implied && !VOID.has(name)) ok = false;
      },
    },
    { lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return ok;
}

export interface InlineTag {
  kind: 'open' | 'close' | 'void';
  name: string;
  attrs: Record<string, string>;
}

/** One tag of inline HTML (CommonMark gives inline HTML a tag at a time); null for anything else. */
export function inlineTag(html: string): InlineTag | null {
  const close = /^<\/([a-z][a-z0-9]*)\s*>$/i.exec(html);
  if (close) return { kind: 'close', name: close[1].toLowerCase(), attrs: {} };
  if (!/^<[a-z][a-z0-9]*\b[^<>]*>$/i.test(html)) return null;
  const doc = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const el = doc.children[0];
  if (doc.children.length !== 1 || !isTag(el)) return null;
  return { kind: VOID.has(el.name) ? 'void' : 'open', name: el.name, attrs: el.attribs };
}

function dropped(el: Element, ctx: HtmlContext): void {
  const kept = KEPT_ATTRIBUTES[el.name] ?? [];
  for (const name of Object.keys(el.attribs))
    if (!kept.includes(name)) ctx.notes.add(`HTML attribute "${name}" of <${el.name}> has no place in the document model: dropped`);
}

/** `<img>` attributes as image data: the URL (or file) and alt text; `width`/`height` when asked for. */
export function imageData(attrs: Record<string, string>, ctx: HtmlContext, withSize: boolean): Record<string, unknown> {
  const src = attrs.src ?? '';
  const ref = ctx.resolve(src);
  const data: Record<string, unknown> = { ref: ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: src } };
  if (attrs.alt) data.alt = attrs.alt;
  for (const dim of ['width', 'height'] as const) {
    const v = attrs[dim];
    if (v === undefined) continue;
    const m = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/.exec(v);
    if (withSize && m) data[dim] = m[2] === '%' ? { unit: '%', value: Number(m[1]) } : Number(m[1]);
    else ctx.notes.add(`image ${dim} "${v}" has no place ${withSize ? 'in the document model' : 'on an inline image'}: dropped`);
  }
  return data;
}

const TEXT_ALIGN: Readonly<Record<string, string>> = { left: 'start', center: 'center', right: 'end' };

/** Converts inline DOM to texts and inlines (whitespace collapses as a browser shows it). */
function domInlines(nodes: ChildNode[], ctx: HtmlContext, path: string, marks: Marks, out: (DocText | DocInline)[] = []) {
  const pushLeaf = (l: DocLeaf) => {
    const last = out[out.length - 1];
    if (last && last.object === 'text') last.leaves.push(l);
    else out.push({ object: 'text', leaves: [l] });
  };
  nodes.forEach((n, i) => {
    const p = `${path}.${i}`;
    if (isText(n)) {
      pushLeaf(leaf(n.data.replace(/\s+/g, ' '), marks));
      return;
    }
    if (!isTag(n)) throw new Unmappable();
    dropped(n, ctx);
    const mark = n.name === 'mark' ? colorMarkOf(n.attribs.style) : MARK_TAGS[n.name];
    if (mark) domInlines(n.children, ctx, p, [...marks, mark], out);
    else if (n.name === 'br') pushLeaf(leaf('\n', marks));
    else if (n.name === 'img')
      out.push({
        object: 'inline',
        type: 'inline-image',
        key: keyOf(p),
        isVoid: true,
        data: imageData(n.attribs, ctx, false) as DocRefData,
      });
    else if (n.name === 'a' && n.attribs.href !== undefined) {
      const inner = domInlines(n.children, ctx, p, marks);
      if (inner.some((x) => x.object === 'inline' && x.type === 'link')) throw new Unmappable();
      const data: DocRefData = { ref: ctx.resolve(n.attribs.href) };
      if (n.attribs.title) data.title = n.attribs.title;
      out.push({
        object: 'inline',
        type: 'link',
        key: keyOf(p),
        isVoid: false,
        data,
        nodes: inner.length ? inner : [{ object: 'text', leaves: [leaf('', marks)] }],
      });
    } else throw new Unmappable();
  });
  return out;
}

/**
 * Whitespace as a browser shows it: runs collapse to one space across elements, and none is shown at
 * the start or end of a block or around a line break. Adjacent leaves with the same marks are merged.
 */
function trimmed(nodes: (DocText | DocInline)[]): (DocText | DocInline)[] {
  const leaves: DocLeaf[] = [];
  const flat = (xs: (DocText | DocInline)[] | undefined) => {
    for (const x of xs ?? []) {
      if (x.object === 'text') leaves.push(...x.leaves);
      else if (x.type === 'link') flat(x.nodes);
      else leaves.push({ object: 'leaf', text: '\u0000', marks: [] }); // an image: not whitespace
    }
  };
  flat(nodes);
  let space = true;
  for (const l of leaves) {
    if (l.text === '\u0000') space = false;
    else if (l.text === '\n') space = true;
    else {
      l.text = l.text.replace(/ {2,}/g, ' ');
      if (space) l.text = l.text.replace(/^ /, '');
      if (l.text) space = l.text.endsWith(' ');
    }
  }
  space = true;
  for (let i = leaves.length - 1; i >= 0; i--) {
    const l = leaves[i];
    if (l.text === '\u0000') space = false;
    else if (l.text === '\n') space = true;
    else if (space) {
      l.text = l.text.replace(/ $/, '');
      if (l.text) space = false;
    }
  }
  const sameMarks = (x: DocLeaf, y: DocLeaf) => x.marks.map((m) => m.type).join() === y.marks.map((m) => m.type).join();
  const clean = (xs: (DocText | DocInline)[]): (DocText | DocInline)[] =>
    xs
      .map((x) => {
        if (x.object === 'inline') return x.type === 'link' ? { ...x, nodes: clean(x.nodes ?? []) } : x;
        const merged: DocLeaf[] = [];
        for (const l of x.leaves) {
          const last = merged[merged.length - 1];
          if (!l.text) continue;
          if (last && last.text !== '\n' && l.text !== '\n' && sameMarks(last, l)) last.text += l.text;
          else merged.push(l);
        }
        return { ...x, leaves: merged };
      })
      .filter((x) => x.object === 'inline' || x.leaves.length > 0);
  const out = clean(nodes);
  for (const x of out)
    if (x.object === 'inline' && x.type === 'link' && x.nodes?.length === 0) x.nodes = [{ object: 'text', leaves: [leaf('', [])] }];
  return out;
}

const INLINE_TAGS = new Set([...Object.keys(MARK_TAGS), 'mark', 'a', 'img', 'br']);

/** A run of inline content at block level: a paragraph, or an images block when it holds images only. */
function inlineBlock(run: ChildNode[], ctx: HtmlContext, path: string, align: string | undefined): DocBlock | null {
  const onlyImages = run.every((n) => (isText(n) && !n.data.trim()) || (isTag(n) && (n.name === 'img' || n.name === 'br')));
  if (onlyImages) {
    const images = run.filter((n): n is Element => isTag(n) && n.name === 'img');
    if (images.length === 0) return null;
    images.forEach((img) => dropped(img, ctx));
    const data: Record<string, unknown> = align ? { align } : {};
    return block(
      'images',
      path,
      data,
      images.map((img, j) => block('image', `${path}.${j}`, imageData(img.attribs, ctx, true), undefined, true)),
    );
  }
  const nodes = trimmed(domInlines(run, ctx, path, []));
  if (nodes.length === 0) return null;
  const textAlign = align ? TEXT_ALIGN[align] : undefined;
  return block('paragraph', path, textAlign ? { align: textAlign } : {}, nodes);
}

/** Block-level DOM to blocks; throws Unmappable for anything the model has no place for. */
function domBlocks(nodes: ChildNode[], ctx: HtmlContext, path: string, align?: string): DocBlock[] {
  const out: DocBlock[] = [];
  let run: ChildNode[] = [];
  const flush = () => {
    const b = run.length ? inlineBlock(run, ctx, `${path}.${out.length}`, align) : null;
    if (b) out.push(b);
    run = [];
  };
  for (const n of nodes) {
    if (isText(n) || (isTag(n) && INLINE_TAGS.has(n.name))) {
      run.push(n);
      continue;
    }
    if (!isTag(n)) throw new Unmappable();
    flush();
    dropped(n, ctx);
    const p = `${path}.${out.length}`;
    const ownAlign = n.attribs.align?.toLowerCase();
    const heading = /^h([1-6])$/.exec(n.name);
    if (n.name === 'p' || n.name === 'div' || n.name === 'center') {
      const a = n.name === 'center' ? 'center' : ownAlign && ownAlign in TEXT_ALIGN ? ownAlign : align;
      out.push(...domBlocks(n.children, ctx, p, a));
    } else if (heading) {
      const depth = Number(heading[1]);
      if (depth > 3) ctx.notes.add(`heading level ${depth} became level 3`);
      const a = ownAlign && ownAlign in TEXT_ALIGN ? ownAlign : align;
      const data = a ? { align: TEXT_ALIGN[a] } : {};
      out.push(block(`heading-${Math.min(depth, 3)}`, p, data, trimmed(domInlines(n.children, ctx, p, []))));
    } else if (n.name === 'ul' || n.name === 'ol') {
      const items = n.children.filter((c) => !(isText(c) && !c.data.trim()));
      if (items.some((c) => !isTag(c) || c.name !== 'li')) throw new Unmappable();
      const start = Number(n.attribs.start);
      const data = n.name === 'ol' && Number.isInteger(start) && start !== 1 ? { start } : {};
      out.push(
        block(
          n.name === 'ol' ? 'list-ordered' : 'list-unordered',
          p,
          data,
          (items as Element[]).map((li, j) => block('list-item', `${p}.${j}`, {}, domBlocks(li.children, ctx, `${p}.${j}`))),
        ),
      );
    } else if (n.name === 'pre') {
      const inner = n.children.length === 1 && isTag(n.children[0]) && n.children[0].name === 'code' ? n.children[0] : n;
      if (inner.children.some((c) => !isText(c))) throw new Unmappable();
      const syntax = n.attribs.lang ?? /(?:^|\s)(?:language|lang)-(\S+)/.exec(inner.attribs.class ?? '')?.[1];
      const text = inner.children
        .map((c) => (isText(c) ? c.data : ''))
        .join('')
        .replace(/^\n/, '')
        .replace(/\n$/, '');
      out.push(
        block(
          'code',
          p,
          syntax ? { syntax } : {},
          text.split('\n').map((line, j) => block('code-line', `${p}.${j}`, {}, [{ object: 'text', leaves: [leaf(line, [])] }])),
        ),
      );
    } else if (n.name === 'blockquote') out.push(block('blockquote', p, {}, domBlocks(n.children, ctx, p)));
    else if (n.name === 'hr') out.push(block('divider', p, {}, undefined, true));
    else if (n.name === 'details') out.push(expandableFromDom(n, ctx, p));
    else if (n.name === 'figure') out.push(figureFromDom(n, ctx, p));
    else if (n.name === 'table') out.push(tableFromDom(n, ctx, p));
    else throw new Unmappable();
  }
  flush();
  return out;
}

/**
 * GitBook's image with a caption, `<figure><img …><figcaption><p>…</p></figcaption></figure>`: an `images`
 * block of that image, its caption the official `caption` fragment (one paragraph).
 */
function figureFromDom(n: Element, ctx: HtmlContext, p: string): DocBlock {
  const tags = n.children.filter((c): c is Element => isTag(c));
  const img = tags.find((c) => c.name === 'img');
  const caption = tags.find((c) => c.name === 'figcaption');
  if (!img || tags.some((c) => c !== img && c !== caption) || n.children.some((c) => isText(c) && c.data.trim())) throw new Unmappable();
  const captionNodes = caption
    ? caption.children.some((c) => isTag(c) && c.name === 'p')
      ? caption.children.filter((c): c is Element => isTag(c) && c.name === 'p').flatMap((para) => para.children)
      : caption.children
    : [];
  const text = trimmed(domInlines(captionNodes, ctx, `${p}.0.caption`, []));
  const image = block('image', `${p}.0`, imageData(img.attribs, ctx, true), undefined, true);
  if (text.length)
    image.fragments = [
      {
        object: 'fragment',
        key: keyOf(`${p}.0.caption`),
        fragment: 'caption',
        type: 'caption',
        nodes: [block('paragraph', `${p}.0.caption.0`, {}, text)],
      },
    ];
  return block('images', p, {}, [image]);
}

/** An `expandable` block (the official shape: an `expandable-title` and an `expandable-body` fragment). */
export function expandable(path: string, title: (DocText | DocInline)[], body: DocBlock[], open: boolean): DocBlock {
  return {
    object: 'block',
    type: 'expandable',
    key: keyOf(path),
    isVoid: true,
    data: open ? { defaultExpanded: true } : {},
    fragments: [
      {
        object: 'fragment',
        key: keyOf(`${path}.title`),
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [block('paragraph', `${path}.title.0`, {}, title.length ? title : [{ object: 'text', leaves: [leaf('', [])] }])],
      },
      {
        object: 'fragment',
        key: keyOf(`${path}.body`),
        fragment: 'expandable-body',
        type: 'expandable-body',
        nodes: body.length ? body : [block('paragraph', `${path}.body.0`, {}, [{ object: 'text', leaves: [leaf('', [])] }])],
      },
    ],
  };
}

function expandableFromDom(el: Element, ctx: HtmlContext, path: string): DocBlock {
  const children = el.children.filter((c) => !(isText(c) && !c.data.trim()));
  const first = children[0];
  const summary = first && isTag(first) && first.name === 'summary' ? first : null;
  const title = summary ? trimmed(domInlines(summary.children, ctx, `${path}.title`, [])) : [];
  const body = domBlocks(summary ? children.slice(1) : children, ctx, `${path}.body`);
  return expandable(path, title, body, el.attribs.open !== undefined);
}

function tableFromDom(el: Element, ctx: HtmlContext, path: string): DocBlock {
  const rows: Element[] = [];
  const collect = (nodes: ChildNode[]) => {
    for (const c of nodes) {
      if (isText(c) && !c.data.trim()) continue;
      if (!isTag(c)) throw new Unmappable();
      if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') collect(c.children);
      else if (c.name === 'tr') rows.push(c);
      else throw new Unmappable();
    }
  };
  collect(el.children);
  const cells = rows.map((r) =>
    r.children
      .filter((c) => !(isText(c) && !c.data.trim()))
      .map((c) => {
        if (!isTag(c) || (c.name !== 'td' && c.name !== 'th')) throw new Unmappable();
        if (Number(c.attribs.colspan ?? 1) !== 1 || Number(c.attribs.rowspan ?? 1) !== 1) throw new Unmappable();
        return c;
      }),
  );
  if (cells.length === 0) throw new Unmappable();
  const width = Math.max(...cells.map((r) => r.length));
  const columns = Array.from({ length: width }, (_, j) => `c${j}`);
  const source = (cell: Element | undefined, at: string) =>
    cell ? ctx.inlineMarkdown(trimmed(domInlines(cell.children, ctx, at, []))) : '';
  const [header, ...body] = cells;
  const definition = Object.fromEntries(
    columns.map((id, j) => {
      const align = header[j]?.attribs.align?.toLowerCase();
      return [
        id,
        { id, title: source(header[j], `${path}.h${j}`), type: 'text', textAlignment: align && align in TEXT_ALIGN ? align : 'left' },
      ];
    }),
  );
  const records = Object.fromEntries(
    body.map((row, r) => [
      `r${r}`,
      {
        orderIndex: `a${String(r).padStart(4, '0')}`,
        values: Object.fromEntries(columns.map((id, j) => [id, source(row[j], `${path}.${r}.${j}`)])),
      },
    ]),
  );
  return block('table', path, { view: { type: 'grid', columns, hideHeader: false }, definition, records }, undefined, true);
}

/**
 * Block-level HTML to blocks, or null when some of it has no place in the model (it is then kept
 * verbatim). Only complete HTML is mapped: every element it opens, it closes.
 */
export function htmlToBlocks(html: string, ctx: HtmlContext, path: string): DocBlock[] | null {
  if (!balanced(html)) return null;
  const notes = new Set<string>();
  try {
    const blocks = domBlocks(parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true }).children, { ...ctx, notes }, path);
    if (blocks.length === 0) return null;
    notes.forEach((n) => ctx.notes.add(n));
    return blocks;
  } catch (e) {
    if (e instanceof Unmappable) return null;
    throw e;
  }
}

/**
 * `<details>` (with its `<summary>…</summary>`, if any) opened and not closed: an expandable whose body
 * is the markdown that follows, up to a `</details>`. Returns its title, or null.
 */
export function detailsOpening(html: string, ctx: HtmlContext, path: string): { title: (DocText | DocInline)[]; open: boolean } | null {
  const m = /^\s*<details(\s[^<>]*)?>\s*((?:<summary(?:\s[^<>]*)?>[\s\S]*<\/summary>)?)\s*$/i.exec(html);
  if (!m || !balanced(m[2])) return null;
  const notes = new Set<string>();
  try {
    const summary = parseDocument(m[2], { lowerCaseTags: true }).children[0];
    const title = summary && isTag(summary) ? trimmed(domInlines(summary.children, { ...ctx, notes }, `${path}.title`, [])) : [];
    notes.forEach((n) => ctx.notes.add(n));
    return { title, open: /\sopen\b/i.test(m[1] ?? '') };
  } catch (e) {
    if (e instanceof Unmappable) return null;
    throw e;
  }
}

// ---------- document → HTML (what markdown cannot say: alignment, sizes, expandable titles) ----------

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const MARK_HTML: Readonly<Record<string, string>> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 'del',
  code: 'code',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

function lengthAttr(v: unknown): string | null {
  if (typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && 'value' in v && typeof v.value === 'number') {
    const unit = 'unit' in v && typeof v.unit === 'string' ? v.unit : '';
    return `${v.value}${unit === '%' ? '%' : ''}`;
  }
  return null;
}

/** An image as an `<img>` tag. */
export function imageHtml(data: Record<string, unknown>, url: string): string {
  let out = `<img src="${escapeHtml(url)}"`;
  if (typeof data.alt === 'string') out += ` alt="${escapeHtml(data.alt)}"`;
  for (const dim of ['width', 'height']) {
    const v = lengthAttr(data[dim]);
    if (v) out += ` ${dim}="${escapeHtml(v)}"`;
  }
  return `${out}>`;
}

const HTML_WRAPPING = ['color', ...Object.keys(MARK_HTML)] as DocMark['type'][];

/** Texts and inlines as HTML (marks shared by neighbours share one tag). */
export function inlinesToHtml(nodes: DocBlock['nodes'], refUrl: (ref: ContentRef) => string): string {
  const emit = (item: InlineItem, outer: ReadonlySet<string>): string[] => {
    if (item.object === 'leaf') return [item.text === '\n' ? '<br>' : escapeHtml(item.text)];
    if (item.type === 'link') {
      const title = item.data.title ? ` title="${escapeHtml(item.data.title)}"` : '';
      const inner = nestMarks(inlineItems(item.nodes), HTML_WRAPPING, emit, wrap, outer).join('');
      return [`<a href="${escapeHtml(refUrl(item.data.ref))}"${title}>${inner}</a>`];
    }
    if (item.type === 'inline-image') return [imageHtml(item.data, refUrl(item.data.ref))];
    if (item.type === 'expression') return [expressionHtml(item.data.expression)];
    return [item.data.html ?? item.data.markdown ?? ''];
  };
  const wrap = (mark: MarkKey, inner: string[]) =>
    mark.startsWith('color:') ? [colorMarkTag(mark), ...inner, '</mark>'] : [`<${MARK_HTML[mark]}>`, ...inner, `</${MARK_HTML[mark]}>`];
  return nestMarks(inlineItems(nodes), HTML_WRAPPING, emit, wrap).join('');
}

export const HTML_ALIGN: Readonly<Record<string, string>> = { start: 'left', center: 'center', end: 'right' };

/** GitBook's markdown for an inline expression: `<code class="expression">space.vars.version</code>`. */
export function expressionHtml(expression: string): string {
  return `<code class="expression">${escapeHtml(expression)}</code>`;
}
