import { isTag, isText, type ChildNode, type Element } from 'domhandler';
import { findAll, textContent } from 'domutils';
import { Parser, parseDocument } from 'htmlparser2';
import { block, colorMark, inlineItems, keyOf, leaf, nestMarks, type InlineItem, type MarkKey, type Marks } from './doc-build';
import {
  TEXT_COLORS,
  emojiText,
  type ContentRef,
  type DocBlock,
  type DocInline,
  type DocLeaf,
  type DocMark,
  type DocRefData,
  type DocText,
  type ButtonData,
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
  img: ['src', 'alt', 'width', 'height', 'data-size'],
  pre: ['lang', 'class'],
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
  code: ['class'],
  ol: ['start'],
  td: ['align'],
  th: ['align'],
  table: ['data-view', 'data-card-size', 'data-column-title-hidden', 'data-full-width', 'data-header-hidden'],
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

/** The classes of an element's `class` attribute. */
const classesOf = (attrs: Record<string, string>): string[] => (attrs.class ?? '').split(/\s+/).filter(Boolean);

/**
 * GitBook's button, `<a href="…" class="button primary" data-icon="rocket">Label</a>`: the official button's
 * data, or null when the link is not one (its classes have no `button`).
 */
export function buttonData(attrs: Record<string, string>, label: string, ctx: Pick<HtmlContext, 'resolve'>): ButtonData | null {
  const classes = classesOf(attrs);
  if (!classes.includes('button')) return null;
  const data: ButtonData = { label: label.replace(/\s+/g, ' ').trim(), kind: classes.includes('secondary') ? 'secondary' : 'primary' };
  if (attrs['data-icon']?.trim()) data.icon = attrs['data-icon'].trim();
  if (attrs.href) data.ref = ctx.resolve(attrs.href);
  return data;
}

/** Font Awesome's style classes, which name no icon. */
const FA_STYLES = new Set([
  'fa',
  'fa-solid',
  'fa-regular',
  'fa-brands',
  'fa-light',
  'fa-thin',
  'fa-duotone',
  'fa-sharp',
  'fas',
  'far',
  'fab',
  'fal',
]);

/** GitBook's icon, `<i class="fa-rocket">:rocket:</i>`: the icon's name, or null when the element is no icon. */
export function iconName(attrs: Record<string, string>): string | null {
  const name = classesOf(attrs).find((c) => c.startsWith('fa-') && !FA_STYLES.has(c));
  return name && /^fa-[a-z0-9-]+$/.test(name) ? name.slice(3) : null;
}

/** A button as GitBook writes it. */
export function buttonHtml(data: ButtonData, url: string): string {
  const icon = data.icon ? ` data-icon="${escapeHtml(data.icon)}"` : '';
  return `<a href="${escapeHtml(url)}" class="button ${data.kind === 'secondary' ? 'secondary' : 'primary'}"${icon}>${escapeHtml(data.label)}</a>`;
}

/** An icon as GitBook writes it. */
export function iconHtml(icon: string): string {
  return `<i class="fa-${escapeHtml(icon)}">:${escapeHtml(icon)}:</i>`;
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
    const icon = n.name === 'i' ? iconName(n.attribs) : null;
    if (icon) {
      out.push({ object: 'inline', type: 'icon', key: keyOf(p), isVoid: true, data: { icon } });
      return;
    }
    const button = n.name === 'a' ? buttonData(n.attribs, textContent(n.children), ctx) : null;
    if (button) {
      out.push({ object: 'inline', type: 'button', key: keyOf(p), isVoid: true, data: button });
      return;
    }
    dropped(n, ctx);
    const mark = n.name === 'mark' ? colorMarkOf(n.attribs.style) : MARK_TAGS[n.name];
    if (mark) domInlines(n.children, ctx, p, [...marks, mark], out);
    else if (n.name === 'br') pushLeaf(leaf('\n', marks));
    else if (n.name === 'img' || n.name === 'picture') {
      const data = pictureData(n, ctx, false);
      // GitBook's inline image size: `data-size="line"` (as tall as the text) or `original`.
      const size = (n.name === 'img' ? n : findImg(n))?.attribs['data-size'];
      if (size === 'line' || size === 'original') data.size = size;
      out.push({ object: 'inline', type: 'inline-image', key: keyOf(p), isVoid: true, data: data as DocRefData });
    } else if (n.name === 'a' && n.attribs.href !== undefined) {
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

const INLINE_TAGS = new Set([...Object.keys(MARK_TAGS), 'mark', 'a', 'img', 'br', 'picture']);

/** The `<img>` of a `<picture>` (itself for an `<img>`). */
function findImg(el: Element): Element | undefined {
  return el.name === 'img' ? el : el.children.find((c): c is Element => isTag(c) && c.name === 'img');
}

/**
 * An `<img>`, or GitBook's `<picture>` (a `<source srcset media="(prefers-color-scheme: dark)">` and an `<img>`),
 * as image data: the image, and its dark variant as the official `refDark`.
 */
function pictureData(el: Element, ctx: HtmlContext, withSize: boolean): Record<string, unknown> {
  const img = findImg(el);
  if (!img) throw new Unmappable();
  if (
    el.name === 'picture' &&
    el.children.some((c) => (isTag(c) && c.name !== 'img' && c.name !== 'source') || (isText(c) && c.data.trim()))
  )
    throw new Unmappable();
  const data = imageData(img.attribs, ctx, withSize);
  const dark = el.children.find((c): c is Element => isTag(c) && c.name === 'source' && /dark/.test(c.attribs.media ?? ''));
  const src = dark?.attribs.srcset?.trim().split(/\s+/)[0];
  if (src) {
    const ref = ctx.resolve(src);
    data.refDark = ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: src };
  }
  return data;
}

/** A run of inline content at block level: a paragraph, or an images block when it holds images only. */
function inlineBlock(run: ChildNode[], ctx: HtmlContext, path: string, align: string | undefined): DocBlock | null {
  const onlyImages = run.every(
    (n) => (isText(n) && !n.data.trim()) || (isTag(n) && (n.name === 'img' || n.name === 'picture' || n.name === 'br')),
  );
  if (onlyImages) {
    const images = run.filter((n): n is Element => isTag(n) && (n.name === 'img' || n.name === 'picture'));
    if (images.length === 0) return null;
    images.forEach((img) => dropped(findImg(img) ?? img, ctx));
    const data: Record<string, unknown> = align ? { align } : {};
    return block(
      'images',
      path,
      data,
      images.map((img, j) => block('image', `${path}.${j}`, pictureData(img, ctx, true), undefined, true)),
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
      // GitBook's code with highlighted lines: `<pre class="language-js"><code class="lang-js"><strong>line\n</strong>…`.
      const inner = n.children.length === 1 && isTag(n.children[0]) && n.children[0].name === 'code' ? n.children[0] : n;
      const parts = inner.children.map((c) => {
        if (isText(c)) return { text: c.data, strong: false };
        if (isTag(c) && (c.name === 'strong' || c.name === 'b') && c.children.every(isText)) return { text: textContent(c), strong: true };
        throw new Unmappable();
      });
      const classes = `${inner.attribs.class ?? ''} ${n.attribs.class ?? ''}`;
      const syntax = n.attribs.lang ?? /(?:^|\s)(?:language|lang)-(\S+)/.exec(classes)?.[1];
      const lines: { text: string; highlighted: boolean }[] = [{ text: '', highlighted: false }];
      for (const part of parts)
        part.text.split('\n').forEach((piece, k) => {
          if (k > 0) lines.push({ text: '', highlighted: false });
          const line = lines[lines.length - 1];
          line.text += piece;
          if (part.strong && piece) line.highlighted = true;
        });
      if (lines.length > 1 && lines[0].text === '' && !lines[0].highlighted) lines.shift();
      if (lines.length > 1 && lines[lines.length - 1].text === '') lines.pop();
      out.push(
        block(
          'code',
          p,
          syntax ? { syntax } : {},
          lines.map((line, j) =>
            block('code-line', `${p}.${j}`, line.highlighted ? { highlighted: true } : {}, [
              { object: 'text', leaves: [leaf(line.text, [])] },
            ]),
          ),
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
  const img = tags.find((c) => c.name === 'img' || c.name === 'picture');
  const caption = tags.find((c) => c.name === 'figcaption');
  if (!img || tags.some((c) => c !== img && c !== caption) || n.children.some((c) => isText(c) && c.data.trim())) throw new Unmappable();
  const captionNodes = caption
    ? caption.children.some((c) => isTag(c) && c.name === 'p')
      ? caption.children.filter((c): c is Element => isTag(c) && c.name === 'p').flatMap((para) => para.children)
      : caption.children
    : [];
  const text = trimmed(domInlines(captionNodes, ctx, `${p}.0.caption`, []));
  const image = block('image', `${p}.0`, pictureData(img, ctx, true), undefined, true);
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

/** The official column types of a table definition (GitBook writes them as `<th data-type="…">`). */
const COLUMN_TYPES = new Set(['text', 'number', 'checkbox', 'select', 'rating', 'users', 'files', 'image', 'content-ref']);

/**
 * An HTML table as the official table block. GitBook's own tables (`<table data-view="cards">`, header cells with
 * `data-type`, `data-hidden`, `data-card-target`, `data-card-cover`, `data-card-cover-dark`, `width`) keep their
 * view and column types: a cards view with its target and covers, typed values (numbers, checkboxes, references
 * to pages and files). A plain table is a grid of text columns.
 */
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
  const ids = Array.from({ length: width }, (_, j) => `c${j}`);
  const [header, ...body] = cells;
  const attr = (j: number, name: string) => header[j]?.attribs[name];
  const has = (j: number, name: string) => attr(j, name) !== undefined;
  const typeOf = (j: number) => {
    const t = attr(j, 'data-type') ?? 'text';
    if (!COLUMN_TYPES.has(t)) ctx.notes.add(`table column type "${t}" read as text`);
    return COLUMN_TYPES.has(t) ? t : 'text';
  };
  const inlineSource = (nodes: ChildNode[], at: string) => {
    // GitBook wraps a card's text in <p>: its paragraphs are one line of the cell.
    const flat = nodes.flatMap((n, i) =>
      isTag(n) && n.name === 'p' ? [...(i > 0 ? [parseDocument('<br>').children[0]] : []), ...n.children] : [n],
    );
    return ctx.inlineMarkdown(trimmed(domInlines(flat, ctx, at, [])));
  };
  const links = (cell: Element) => findAll((n) => n.name === 'a' && n.attribs.href !== undefined, cell.children).map((a) => a.attribs.href);
  const value = (j: number, cell: Element | undefined, at: string): unknown => {
    const type = typeOf(j);
    const text = cell ? textContent(cell).trim() : '';
    switch (type) {
      case 'number':
      case 'rating':
        return text && Number.isFinite(Number(text)) ? Number(text) : null;
      case 'checkbox':
        return text === 'true';
      case 'content-ref':
      case 'image': {
        const href = cell ? links(cell)[0] : undefined;
        return href ? ctx.resolve(href) : null;
      }
      case 'files': {
        const refs = cell ? links(cell).map((href) => ctx.resolve(href)) : [];
        // The official value: the files' ids; a cover that is a URL keeps its reference.
        return refs.every((r) => r.kind === 'file') ? refs.map((r) => (r as { file: string }).file) : (refs[0] ?? null);
      }
      case 'select':
      case 'users':
        return text ? text.split(/\s*,\s*/) : [];
      default:
        return cell ? inlineSource(cell.children, at) : '';
    }
  };
  const definition = Object.fromEntries(
    ids.map((id, j) => {
      const type = typeOf(j);
      const title = header[j] ? inlineSource(header[j].children, `${path}.h${j}`) : '';
      const align = attr(j, 'align')?.toLowerCase();
      const column: Record<string, unknown> = { id, title, type };
      if (type === 'text') column.textAlignment = align && align in TEXT_ALIGN ? align : 'left';
      if (type === 'rating') column.max = Number(attr(j, 'data-max')) > 0 ? Number(attr(j, 'data-max')) : 5;
      if (type === 'select' || type === 'users') column.multiple = has(j, 'data-multiple');
      if (type === 'select') {
        const options = new Set(body.flatMap((row) => (value(j, row[j], '') as string[]) ?? []));
        column.options = [...options].map((o) => ({ value: o, label: o }));
      }
      return [id, column];
    }),
  );
  const records = Object.fromEntries(
    body.map((row, r) => [
      `r${r}`,
      {
        orderIndex: `a${String(r).padStart(4, '0')}`,
        values: Object.fromEntries(ids.map((id, j) => [id, value(j, row[j], `${path}.${r}.${j}`)])),
      },
    ]),
  );
  const shown = ids.filter((_, j) => !has(j, 'data-hidden'));
  const column = (name: string) => ids.find((_, j) => has(j, name));
  const view: Record<string, unknown> =
    el.attribs['data-view'] === 'cards'
      ? {
          type: 'cards',
          columns: shown,
          cardSize: el.attribs['data-card-size'] === 'large' ? 'large' : 'medium',
          ...(column('data-card-target') ? { targetDefinition: column('data-card-target') } : {}),
          ...(column('data-card-cover') ? { coverDefinition: column('data-card-cover') } : {}),
          ...(column('data-card-cover-dark') ? { coverDefinitionDark: column('data-card-cover-dark') } : {}),
          ...(el.attribs['data-column-title-hidden'] !== undefined ? { hideColumnTitle: true } : {}),
        }
      : { type: 'grid', columns: shown, hideHeader: el.attribs['data-header-hidden'] !== undefined };
  if (view.type === 'grid') {
    const widths = Object.fromEntries(ids.flatMap((id, j) => (Number(attr(j, 'width')) > 0 ? [[id, Number(attr(j, 'width'))]] : [])));
    if (Object.keys(widths).length) view.columnWidths = widths;
  }
  const data: Record<string, unknown> = { view, definition, records };
  if (el.attribs['data-full-width'] !== undefined) data.fullWidth = el.attribs['data-full-width'] === 'true';
  return block('table', path, data, undefined, true);
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

/**
 * An image as an `<img>` tag; with a dark variant (`darkUrl`), GitBook's `<picture>` with a dark `<source>`; an
 * inline image's `size` as `data-size`.
 */
export function imageHtml(data: Record<string, unknown>, url: string, darkUrl?: string): string {
  let out = `<img src="${escapeHtml(url)}"`;
  if (typeof data.alt === 'string') out += ` alt="${escapeHtml(data.alt)}"`;
  for (const dim of ['width', 'height']) {
    const v = lengthAttr(data[dim]);
    if (v) out += ` ${dim}="${escapeHtml(v)}"`;
  }
  if (data.size === 'line' || data.size === 'original') out += ` data-size="${data.size}"`;
  out += '>';
  return darkUrl ? `<picture><source srcset="${escapeHtml(darkUrl)}" media="(prefers-color-scheme: dark)">${out}</picture>` : out;
}

/** `<picture>…</picture>` written inline (its tags one by one in markdown), as image data; null when it is not one image. */
export function pictureFromHtml(html: string, ctx: HtmlContext): Record<string, unknown> | null {
  const doc = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const el = doc.children.find(isTag);
  if (!el || el.name !== 'picture' || doc.children.some((c) => c !== el && !(isText(c) && !c.data.trim()))) return null;
  try {
    return pictureData(el, ctx, false);
  } catch (e) {
    if (e instanceof Unmappable) return null;
    throw e;
  }
}

/** Code lines as GitBook writes a block with highlighted lines: `<pre><code>`, a highlighted line in `<strong>`. */
export function highlightedCodeHtml(lines: { text: string; highlighted: boolean }[], syntax: string | null): string {
  // GitBook's escapes in code: `&#x26;` and `&#x3C;` (a `>` stays).
  const esc = (text: string) => text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
  const body = lines.map((l) => (l.highlighted ? `<strong>${esc(l.text)}\n</strong>` : `${esc(l.text)}\n`)).join('');
  return syntax
    ? `<pre class="language-${escapeHtml(syntax)}"><code class="lang-${escapeHtml(syntax)}">${body}</code></pre>`
    : `<pre><code>${body}</code></pre>`;
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
    if (item.type === 'inline-image')
      return [imageHtml(item.data, refUrl(item.data.ref), item.data.refDark ? refUrl(item.data.refDark as ContentRef) : undefined)];
    if (item.type === 'expression') return [expressionHtml(item.data.expression)];
    if (item.type === 'button') return [buttonHtml(item.data, item.data.ref ? refUrl(item.data.ref) : '')];
    if (item.type === 'icon') return [iconHtml(item.data.icon)];
    if (item.type === 'annotation') return [nestMarks(inlineItems(item.nodes), HTML_WRAPPING, emit, wrap, outer).join('')];
    if (item.type === 'inline-math') return [escapeHtml(`$$${item.data.formula}$$`)];
    if (item.type === 'emoji') return [escapeHtml(emojiText(item.data.code))];
    if (item.type === 'mention') return [`<a href="${escapeHtml(refUrl(item.data.ref))}">${escapeHtml(refUrl(item.data.ref))}</a>`];
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

interface TableShape {
  view: {
    type?: string;
    columns?: string[];
    cardSize?: string;
    targetDefinition?: string;
    coverDefinition?: string;
    coverDefinitionDark?: string;
    hideColumnTitle?: boolean;
    hideHeader?: boolean;
    columnWidths?: Record<string, number>;
  };
  definition: Record<string, { title?: string; type?: string; max?: number; multiple?: boolean }>;
  records: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
  fullWidth?: boolean;
}

/** Whether a table needs GitBook's HTML form (a cards view, typed or hidden columns …): a pipe table cannot say it. */
export function isRichTable(data: Record<string, unknown>): boolean {
  const { view, definition } = data as unknown as Partial<TableShape>;
  const shown = new Set(view?.columns ?? []);
  return (
    view?.type === 'cards' ||
    data.fullWidth !== undefined ||
    view?.hideHeader === true ||
    Object.values(definition ?? {}).some((c) => (c.type ?? 'text') !== 'text') ||
    Object.keys(definition ?? {}).some((id) => !shown.has(id))
  );
}

/**
 * A table as GitBook writes one that markdown cannot hold: `<table data-view="cards">`, header cells with
 * `data-type`, `data-hidden`, `data-card-target` and `data-card-cover(-dark)`, values as text, `true`/`false`, and
 * links to the pages and files they reference (read back by `tableFromDom`). `cellHtml` writes a text cell's
 * markdown source as HTML.
 */
export function richTableHtml(
  data: Record<string, unknown>,
  cellHtml: (source: string) => string,
  refUrl: (ref: ContentRef) => string,
): string {
  const shape = data as unknown as Partial<TableShape>;
  const view = shape.view ?? { columns: [] };
  const definition = shape.definition ?? {};
  const records = shape.records ?? {};
  const shown = new Set(view.columns ?? []);
  const ids = Object.keys(definition);
  const cards = view.type === 'cards';
  const head = ids.map((id) => {
    const c = definition[id];
    const attrs = [
      !shown.has(id) ? ' data-hidden' : '',
      cards && view.targetDefinition === id ? ' data-card-target' : '',
      cards && view.coverDefinition === id ? ' data-card-cover' : '',
      cards && view.coverDefinitionDark === id ? ' data-card-cover-dark' : '',
      typeof c.type === 'string' && c.type !== 'text' ? ` data-type="${escapeHtml(c.type)}"` : '',
      c.type === 'rating' && typeof c.max === 'number' ? ` data-max="${c.max}"` : '',
      c.multiple === true ? ' data-multiple' : '',
      !cards && typeof view.columnWidths?.[id] === 'number' ? ` width="${view.columnWidths[id]}"` : '',
    ].join('');
    return `<th${attrs}>${cellHtml(typeof c.title === 'string' ? c.title : '')}</th>`;
  });
  const link = (ref: ContentRef, text?: string) => {
    const url = refUrl(ref);
    return `<a href="${escapeHtml(url)}">${escapeHtml(text ?? url)}</a>`;
  };
  const baseName = (url: string) => {
    const name = url.split(/[?#]/)[0].split('/').pop() || url;
    try {
      return decodeURIComponent(name);
    } catch {
      return name;
    }
  };
  const cell = (id: string, v: unknown): string => {
    const type = definition[id].type ?? 'text';
    if (v === null || v === undefined) return '';
    if (type === 'text') return cellHtml(typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
    if (type === 'checkbox') return v === true ? 'true' : 'false';
    if (Array.isArray(v))
      return type === 'files'
        ? v.map((file) => (typeof file === 'string' ? link({ kind: 'file', file }, baseName(refUrl({ kind: 'file', file }))) : '')).join('')
        : escapeHtml(v.filter((x) => typeof x === 'string').join(', '));
    if (typeof v === 'object') {
      const ref = ('ref' in v ? v.ref : v) as ContentRef | null;
      if (!ref || typeof ref !== 'object' || typeof ref.kind !== 'string') return '';
      return link(ref, ref.kind === 'file' ? baseName(refUrl(ref)) : undefined);
    }
    return typeof v === 'number' || typeof v === 'string' ? escapeHtml(String(v)) : '';
  };
  const rows = Object.values(records)
    .sort((x, y) => (x.orderIndex < y.orderIndex ? -1 : 1))
    .map((r) => `<tr>${ids.map((id) => `<td>${cell(id, r.values[id])}</td>`).join('')}</tr>`);
  const attrs = [
    cards ? ' data-view="cards"' : '',
    cards && view.cardSize === 'large' ? ' data-card-size="large"' : '',
    cards && view.hideColumnTitle === true ? ' data-column-title-hidden' : '',
    !cards && view.hideHeader === true ? ' data-header-hidden' : '',
    typeof data.fullWidth === 'boolean' ? ` data-full-width="${data.fullWidth}"` : '',
  ].join('');
  return `<table${attrs}><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
