import type {
  BlockContent,
  DefinitionContent,
  FootnoteDefinition,
  Html,
  Image,
  ListItem,
  Nodes,
  PhrasingContent,
  RootContent,
  TableCell,
} from 'mdast';
import { parse as parseYaml } from 'yaml';
import { InvalidInputError } from '@app/shared-kernel';
import { block, keyOf, leaf, type Marks } from './doc-build';
import { documentData, HINT_STYLES, withDefaults } from './document';
import { negated } from './document-queries';
import { LAYOUT_PARTS, type PageCover, type PageLayout } from './tree';
import type { DocBlock, DocInline, DocLeaf, DocRefData, DocText, JsonDocument } from './document';
import {
  imageData as htmlImageData,
  buttonData,
  iconName,
  pictureFromHtml,
  detailsOpening,
  expandable,
  htmlToBlocks,
  inlineTag,
  MARK_TAGS,
  colorMarkOf,
  type HtmlContext,
} from './html';
import { parseMarkdown, recordedSource } from './markdown-read';
import type { GitbookTag } from './gitbook-tags';
import { writePhrasing } from './markdown-write';
import { defaultLinkResolver, type LinkResolver } from './markdown-links';
import { safeHtml } from './html-sanitize';
import { documentToMarkdown, toPhrasing, useCellReader } from './document-to-markdown';

/**
 * Markdown ↔ document through mdast (GFM + YAML frontmatter): markdown-it parses (markdown-read.ts), a writer
 * for the mdast subset Quire produces prints (markdown-write.ts); this file maps mdast nodes to document blocks
 * and back.
 */

export interface ParsedMarkdown {
  document: JsonDocument;
  /** Frontmatter values Quire understands (title, description, emoji, hidden). */
  meta: {
    title?: string;
    description?: string;
    emoji?: string;
    icon?: string;
    hidden?: boolean;
    variables?: Record<string, string>;
    layout?: PageLayout;
    cover?: PageCover;
  };
  /** The text of a leading level-1 heading, removed from the body (it is the page title, as in Git Sync). */
  leadingTitle?: string;
  /** What the document model could not hold as it was written, and what became of it (reported to the writer). */
  normalized: string[];
}

/** What conversion needs besides the nodes: link resolution, notes, and the HTML mapping context. */
interface Ctx {
  resolve: LinkResolver;
  /** The footnote definitions a reference of the document names (they are annotations' bodies), by identifier. */
  footnotes: Map<string, FootnoteDefinition>;
  /** Normalizations met on the way (see ParsedMarkdown.normalized). */
  notes: Set<string>;
  html: HtmlContext;
}

/** The markdown a node was written as (a construct the document model has no place for is kept as it was). */
function sourceOf(n: Nodes): string {
  return recordedSource(n) ?? '';
}

/** Raw HTML as stored: verbatim, or sanitized (and said so) when it could run something. */
function keptHtml(html: string, ctx: Ctx): string {
  const safe = safeHtml(html);
  ctx.notes.add(
    safe === html ? 'raw HTML kept verbatim' : 'HTML that could run scripts was removed (script, event handlers, javascript: URLs)',
  );
  return safe;
}

/** Turns phrasing content into texts and inlines, merging adjacent leaves into one text node. */
function inlines(nodes: PhrasingContent[], ctx: Ctx, path: string, marks: Marks = []): (DocText | DocInline)[] {
  const out: (DocText | DocInline)[] = [];
  const pushLeaf = (l: DocLeaf) => {
    const last = out[out.length - 1];
    if (last && last.object === 'text') last.leaves.push(l);
    else out.push({ object: 'text', leaves: [l] });
  };
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
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
      case 'link': {
        // GitBook's mention of a page: a link titled "mention" (`[Page](page.md "mention")`).
        if (n.title === 'mention') {
          out.push({ object: 'inline', type: 'mention', key: keyOf(`${path}.${i}`), isVoid: true, data: { ref: ctx.resolve(n.url) } });
          break;
        }
        const content = inlines(n.children, ctx, `${path}.${i}`, marks).filter((x) => x.object === 'text' || x.type === 'inline-image');
        const data: DocRefData = { ref: ctx.resolve(n.url) };
        if (n.title) data.title = n.title;
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
      case 'html': {
        const mapped = inlineHtml(nodes, i, ctx, `${path}.${i}`, marks);
        if (mapped) {
          mapped.nodes.forEach((x) => (x.object === 'text' ? x.leaves.forEach(pushLeaf) : out.push(x)));
          i = mapped.next - 1;
        } else
          out.push({
            object: 'inline',
            type: 'html',
            key: keyOf(`${path}.${i}`),
            isVoid: true,
            data: { ref: { kind: 'url', url: '' }, html: keptHtml(n.value, ctx) },
          });
        break;
      }
      case 'gitbookMath':
        out.push({ object: 'inline', type: 'inline-math', key: keyOf(`${path}.${i}`), isVoid: true, data: { formula: n.value.trim() } });
        break;
      case 'footnoteReference': {
        // GitBook's annotation: a footnote whose number follows the annotated word (`word[^1]` … `[^1]: note`).
        const definition = ctx.footnotes.get(n.identifier);
        if (definition) {
          const last = out[out.length - 1];
          const leafAt = last?.object === 'text' ? last.leaves[last.leaves.length - 1] : undefined;
          const word = leafAt ? /\S+$/.exec(leafAt.text) : null;
          let text: DocLeaf[] = [leaf('', marks)];
          if (leafAt && word) {
            text = [{ ...leafAt, text: word[0] }];
            leafAt.text = leafAt.text.slice(0, word.index);
            if (!leafAt.text && last?.object === 'text') {
              last.leaves.pop();
              if (!last.leaves.length) out.pop();
            }
          }
          const p = `${path}.${i}`;
          out.push({
            object: 'inline',
            type: 'annotation',
            key: keyOf(p),
            isVoid: false,
            data: {},
            nodes: [{ object: 'text', leaves: text }],
            fragments: [
              {
                object: 'fragment',
                key: keyOf(`${p}.body`),
                fragment: 'annotation-body',
                type: 'annotation-body',
                nodes: annotationBody(definition, ctx, `${p}.body`),
              },
            ],
          });
          ctx.notes.add('footnotes read as annotations');
          break;
        }
        ctx.notes.add('footnotes kept as written (markdown)');
        out.push({
          object: 'inline',
          type: 'markdown',
          key: keyOf(`${path}.${i}`),
          isVoid: true,
          data: { ref: { kind: 'url', url: '' }, markdown: sourceOf(n) },
        });
        break;
      }
      default:
        // Other constructs without a place in the model: kept as their source text.
        ctx.notes.add(`${(n as Nodes).type} kept as text`);
        pushLeaf(leaf(sourceOf(n), marks));
    }
  }
  if (out.length === 0) out.push({ object: 'text', leaves: [leaf('', [])] });
  return out;
}

/**
 * Inline HTML mapped to the model: `<br>`, `<img>`, and an opening `<a href>` or mark tag (`<kbd>`,
 * `<sup>`, `<b>`…) with its closing tag among the following siblings; null when the tag at `at` is none
 * of these (it is kept verbatim then). `next` is the index after what was consumed.
 */
function inlineHtml(
  nodes: PhrasingContent[],
  at: number,
  ctx: Ctx,
  path: string,
  marks: Marks,
): { nodes: (DocText | DocInline)[]; next: number } | null {
  const n = nodes[at] as Html;
  if (safeHtml(n.value) !== n.value) return null;
  const tag = inlineTag(n.value);
  if (!tag) return null;
  if (tag.kind === 'void' && tag.name === 'br') return { nodes: [{ object: 'text', leaves: [leaf('\n', marks)] }], next: at + 1 };
  if (tag.kind === 'void' && tag.name === 'img') {
    const data = htmlImageData(tag.attrs, ctx.html, false) as DocRefData;
    if (tag.attrs['data-size'] === 'line' || tag.attrs['data-size'] === 'original') data.size = tag.attrs['data-size'];
    ctx.notes.add('inline HTML mapped to the document model');
    return { nodes: [{ object: 'inline', type: 'inline-image', key: keyOf(path), isVoid: true, data }], next: at + 1 };
  }
  // GitBook's image with a dark variant, `<picture><source srcset media="(prefers-color-scheme: dark)"><img></picture>`.
  if (tag.kind === 'open' && tag.name === 'picture') {
    const close = closingTag(nodes, at, 'picture');
    const html =
      close < 0
        ? ''
        : nodes
            .slice(at, close + 1)
            .map((x) => (x.type === 'html' ? x.value : x.type === 'text' ? x.value : '<x>'))
            .join('');
    const data = html ? pictureFromHtml(html, ctx.html) : null;
    if (!data) return null;
    ctx.notes.add('inline HTML mapped to the document model');
    return {
      nodes: [{ object: 'inline', type: 'inline-image', key: keyOf(path), isVoid: true, data: data as DocRefData }],
      next: close + 1,
    };
  }
  // GitBook's inline expression, `<code class="expression">space.vars.version</code>`.
  if (tag.kind === 'open' && tag.name === 'code' && /(^|\s)expression(\s|$)/.test(tag.attrs.class ?? '')) {
    const inner = nodes[at + 1];
    const end = nodes[at + 2];
    const closing = end?.type === 'html' ? inlineTag(end.value) : null;
    if (inner?.type === 'text' && closing?.kind === 'close' && closing.name === 'code' && inner.value.trim())
      return {
        nodes: [{ object: 'inline', type: 'expression', key: keyOf(path), isVoid: true, data: { expression: inner.value.trim() } }],
        next: at + 3,
      };
  }
  // GitBook's icon, `<i class="fa-rocket">:rocket:</i>`, and button, `<a href="…" class="button primary">Label</a>`.
  const icon = tag.kind === 'open' && tag.name === 'i' ? iconName(tag.attrs) : null;
  const button = tag.kind === 'open' && tag.name === 'a' ? buttonData(tag.attrs, '', ctx) : null;
  if (icon || button) {
    const close = closingTag(nodes, at, tag.name);
    if (close < 0) return null;
    ctx.notes.add('inline HTML mapped to the document model');
    if (icon) return { nodes: [{ object: 'inline', type: 'icon', key: keyOf(path), isVoid: true, data: { icon } }], next: close + 1 };
    button!.label = titleText(nodes.slice(at + 1, close))
      .replace(/\s+/g, ' ')
      .trim();
    return { nodes: [{ object: 'inline', type: 'button', key: keyOf(path), isVoid: true, data: button! }], next: close + 1 };
  }
  const mark = tag.name === 'mark' ? colorMarkOf(tag.attrs.style) : MARK_TAGS[tag.name];
  if (tag.kind !== 'open' || (!mark && !(tag.name === 'a' && tag.attrs.href !== undefined))) return null;
  const close = closingTag(nodes, at, tag.name);
  if (close < 0) return null;
  const inner = nodes.slice(at + 1, close);
  ctx.notes.add('inline HTML mapped to the document model');
  if (mark) return { nodes: inlines(inner, ctx, path, [...marks, mark]), next: close + 1 };
  const content = inlines(inner, ctx, path, marks);
  // A link holds texts and images: one holding other HTML is kept verbatim, as a whole.
  if (content.some((x) => x.object === 'inline' && x.type !== 'inline-image')) return null;
  const data: DocRefData = { ref: ctx.resolve(tag.attrs.href) };
  if (tag.attrs.title) data.title = tag.attrs.title;
  const link: DocInline = { object: 'inline', type: 'link', key: keyOf(path), isVoid: false, data, nodes: content };
  if (!content.length) link.nodes = [{ object: 'text', leaves: [leaf('', marks)] }];
  return { nodes: [link], next: close + 1 };
}

/** The index of the inline HTML that closes the `name` tag opened at `at` (nested ones counted), or -1. */
function closingTag(nodes: PhrasingContent[], at: number, name: string): number {
  let depth = 0;
  for (let j = at + 1; j < nodes.length; j++) {
    const m = nodes[j];
    if (m.type !== 'html') continue;
    const t = inlineTag(m.value);
    if (t?.name !== name) continue;
    if (t.kind === 'open') depth += 1;
    else if (t.kind === 'close' && depth-- === 0) return j;
  }
  return -1;
}

function imageData(url: string, alt: string | null | undefined, ctx: Ctx): DocRefData {
  const ref = ctx.resolve(url);
  const data: DocRefData = { ref: ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url } };
  if (alt) data.alt = alt;
  return data;
}

/**
 * What a table cell stores: its content as one line of markdown, pipes escaped and hard breaks written
 * as `<br>` (a cell cannot hold a line break).
 */
function cellMarkdown(children: PhrasingContent[]): string {
  const oneLine = (nodes: PhrasingContent[]): PhrasingContent[] =>
    nodes.map((n) =>
      n.type === 'break' ? { type: 'html', value: '<br>' } : 'children' in n ? { ...n, children: oneLine(n.children) } : n,
    );
  return writePhrasing(oneLine(children), true)
    .trim()
    .replace(/\r?\n/g, ' ')
    .replace(/(?<!\\)\|/g, '\\|');
}

function cellSource(cell: TableCell): string {
  return cellMarkdown(cell.children);
}

function toBlocks(nodes: (RootContent | BlockContent | DefinitionContent)[], ctx: Ctx, path: string): DocBlock[] {
  const out: DocBlock[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const p = `${path}.${i}`;
    switch (n.type) {
      case 'paragraph': {
        const shown = n.children.filter((c) => !(c.type === 'text' && !c.value.trim()));
        if (shown.length === 1 && shown[0].type === 'gitbookMath') {
          out.push(block('math', p, { formula: shown[0].value.trim() }, undefined, true));
          break;
        }
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
      case 'html': {
        const mapped = safeHtml(n.value) === n.value ? htmlToBlocks(n.value, ctx.html, p) : null;
        if (mapped) {
          ctx.notes.add('HTML mapped to the document model');
          out.push(...mapped);
          break;
        }
        let details = detailsOpening(n.value, ctx.html, p);
        const close = details ? closingDetails(nodes, i) : -1;
        if (details && close > 0) {
          // GitBook writes `<details>`, a blank line, then `<summary>…</summary>` as a block of its own.
          let from = i + 1;
          const next = nodes[from];
          if (!details.title.length && next?.type === 'html' && /^\s*<summary[\s>][\s\S]*<\/summary>\s*$/i.test(next.value)) {
            const titled = detailsOpening(`<details${details.open ? ' open' : ''}>${next.value.trim()}`, ctx.html, p);
            if (titled) {
              details = titled;
              from += 1;
            }
          }
          ctx.notes.add('HTML mapped to the document model');
          out.push(expandable(p, details.title, toBlocks(nodes.slice(from, close), ctx, `${p}.body`), details.open));
          i = close;
          break;
        }
        out.push(block('html', p, { html: keptHtml(n.value, ctx) }, undefined, true));
        break;
      }
      case 'gitbookTag':
        out.push(...tagBlocks(n, ctx, p));
        break;
      case 'yaml':
      case 'definition':
        break;
      case 'footnoteDefinition':
        // An annotation's body (its reference holds it); one no reference names is kept as written.
        if (ctx.footnotes.get(n.identifier) === n) break;
        ctx.notes.add('footnotes kept as written (markdown)');
        out.push(block('markdown', p, { markdown: sourceOf(n) }, undefined, true));
        break;
      default:
        // Constructs the model has no block for: kept as they were written.
        ctx.notes.add(`${n.type} kept as written (markdown)`);
        out.push(block('markdown', p, { markdown: sourceOf(n) }, undefined, true));
    }
  }
  return out;
}

/** The tag blocks directly inside a tag block that have this name (tabs in tabs, steps in a stepper …). */
function childTags(n: GitbookTag, name: string, ctx: Ctx): GitbookTag[] {
  const tags = n.children.filter((c): c is GitbookTag => c.type === 'gitbookTag' && c.name === name);
  if (tags.length !== n.children.length) ctx.notes.add(`content between {% ${name} %} tags left out`);
  return tags;
}

/** A GitBook block tag (gitbook-tags.ts) as the document block GitBook's editor holds for it. */
function tagBlocks(n: GitbookTag, ctx: Ctx, p: string): DocBlock[] {
  const inner = () => toBlocks(n.children, ctx, p);
  const items = (type: string, name: string, data: (t: GitbookTag) => Record<string, unknown>) =>
    childTags(n, name, ctx).map((t, j) => block(type, `${p}.${j}`, data(t), toBlocks(t.children, ctx, `${p}.${j}`)));
  const caption = () => n.children.flatMap((c) => (c.type === 'paragraph' ? [cellMarkdown(c.children)] : [])).join('\n\n');
  const { attrs } = n;
  // An integration's block, `{% @mermaid/diagram content="…" %}`: the official `integration` block, its attributes the props.
  const integration = /^@([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9-]*)$/.exec(n.name);
  if (integration)
    return [block('integration', p, { integration: integration[1], block: integration[2], props: { ...attrs } }, undefined, true)];
  switch (n.name) {
    case 'hint': {
      const style = attrs.style ?? attrs[''] ?? 'info';
      if (!HINT_STYLES.has(style)) ctx.notes.add(`hint style "${style}" became info`);
      return [block('hint', p, { style: HINT_STYLES.has(style) ? style : 'info' }, inner())];
    }
    case 'tabs':
      return [
        block(
          'tabs',
          p,
          {},
          items('tabs-item', 'tab', (t) => ({ title: t.attrs.title ?? '' })),
        ),
      ];
    case 'stepper':
      return [
        block(
          'stepper',
          p,
          {},
          items('stepper-step', 'step', () => ({})),
        ),
      ];
    case 'columns':
      return [
        block(
          'columns',
          p,
          {},
          items('column', 'column', (t) => (t.attrs.width ? { width: t.attrs.width } : {})),
        ),
      ];
    case 'updates':
      return [
        block(
          'updates',
          p,
          attrs.format ? { format: attrs.format } : {},
          items('update', 'update', (t) => ({ date: t.attrs.date ?? '' })),
        ),
      ];
    case 'code': {
      const [code] = inner();
      if (n.children.length !== 1 || code?.type !== 'code') {
        ctx.notes.add('{% code %} without one code block: its content kept as blocks');
        return inner();
      }
      if (attrs.title) code.data.title = attrs.title;
      if (attrs.lineNumbers === 'true') code.data.lineNumbers = true;
      if (attrs.overflow) code.data.overflow = attrs.overflow;
      return [code];
    }
    case 'embed': {
      const text = caption();
      return [block('embed', p, { url: attrs.url ?? '', ...(text ? { caption: text } : {}) }, undefined, true)];
    }
    case 'content-ref':
      return [block('content-ref', p, { ref: ctx.resolve(attrs.url ?? '') }, undefined, true)];
    case 'file': {
      const ref = ctx.resolve(attrs.src ?? '');
      const text = caption();
      if (ref.kind === 'file') return [block('file', p, { ref, ...(text ? { caption: text } : {}) }, undefined, true)];
      ctx.notes.add('{% file %} naming no file of the space: kept as a link');
      return [
        block(
          'paragraph',
          p,
          {},
          inlines([{ type: 'link', url: attrs.src ?? '', children: [{ type: 'text', value: text || attrs.src || '' }] }], ctx, p),
        ),
      ];
    }
    case 'include': {
      // `{% include "../.gitbook/includes/setup.md" %}`: a reusable content of the space (an import's includes).
      const src = attrs[''] ?? attrs.src ?? '';
      const ref = ctx.resolve(src);
      if (ref.kind === 'reusable-content') return [block('reusable-content', p, { ref }, undefined, true)];
      ctx.notes.add('{% include %} naming no reusable content of the space: kept as a link');
      return [block('paragraph', p, {}, inlines([{ type: 'link', url: src, children: [{ type: 'text', value: src }] }], ctx, p))];
    }
    case 'openapi-operation': {
      // `{% openapi-operation spec="petstore" path="/pet" method="post" %}`: an operation of the organization's
      // OpenAPI spec of that slug (the link inside names the spec's source, for readers of the raw file).
      const method = (attrs.method ?? '').toLowerCase();
      if (attrs.spec && attrs.path && HTTP_METHODS.test(method))
        return [block('openapi-operation', p, { ref: { kind: 'openapi', spec: attrs.spec }, path: attrs.path, method }, undefined, true)];
      ctx.notes.add('{% openapi-operation %} without spec, path and method kept as its content');
      return inner();
    }
    case 'openapi-webhook': {
      // `{% openapi-webhook spec="petstore" name="newPet" method="post" %}`: a webhook of the organization's spec.
      const method = (attrs.method ?? '').toLowerCase();
      if (attrs.spec && attrs.name && HTTP_METHODS.test(method))
        return [block('openapi-webhook', p, { ref: { kind: 'openapi', spec: attrs.spec }, name: attrs.name, method }, undefined, true)];
      ctx.notes.add('{% openapi-webhook %} without spec, name and method kept as its content');
      return inner();
    }
    case 'openapi-schemas': {
      // `{% openapi-schemas spec="petstore" schemas="Pet,Tag" grouped="false" %}`: schemas of the organization's spec.
      const schemas = (attrs.schemas ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (attrs.spec && schemas.length) {
        const data: Record<string, unknown> = { ref: { kind: 'openapi', spec: attrs.spec }, schemas };
        if (attrs.grouped === 'true' || attrs.grouped === 'false') data.grouped = attrs.grouped === 'true';
        if (attrs.title) data.title = attrs.title;
        return [block('openapi-schemas', p, data, undefined, true)];
      }
      ctx.notes.add('{% openapi-schemas %} without spec and schemas kept as its content');
      return inner();
    }
    case 'openapi':
    case 'swagger': {
      // `{% openapi src="spec.yaml" path="/pet" method="post" %}` (and the older `{% swagger src … %}`): the
      // official `swagger` block, an operation of a spec file or URL rather than of an organization's spec.
      const method = (attrs.method ?? '').toLowerCase();
      if (attrs.src && attrs.path && HTTP_METHODS.test(method)) {
        const ref = ctx.resolve(attrs.src);
        return [
          block(
            'swagger',
            p,
            { ref: ref.kind === 'file' ? ref : { kind: 'url', url: attrs.src }, path: attrs.path, method },
            undefined,
            true,
          ),
        ];
      }
      if (n.name === 'swagger' && attrs.path) return legacyApiMethod(n, ctx, p);
      ctx.notes.add(`{% ${n.name} %} without src, path and method kept as its content`);
      return inner();
    }
    case 'prompt': {
      // `{% prompt description="…" %}` around one code block: the official prompt block.
      const [code] = inner();
      if (n.children.length !== 1 || code?.type !== 'code' || !attrs.description) {
        ctx.notes.add('{% prompt %} without a description and one code block: its content kept as blocks');
        return inner();
      }
      const data: Record<string, unknown> = { description: attrs.description };
      if (attrs.icon) data.icon = attrs.icon;
      if (attrs.openInAIProviders === 'true' || attrs.openInAIProviders === 'false')
        data.openInAIProviders = attrs.openInAIProviders === 'true';
      if (attrs.defaultExpanded && PROMPT_EXPANDED.has(attrs.defaultExpanded)) data.defaultExpanded = attrs.defaultExpanded;
      return [block('prompt', p, data, [code])];
    }
    case 'if': {
      // Conditional content: `{% if visitor.claims.unsigned.beta %}` … (`{% else %}` …) `{% endif %}`, the official
      // `if` block (its `expression`); what follows an `else` is a second block whose expression is the negation.
      const expression = n.expression?.trim() ?? '';
      const at = n.children.findIndex((c) => c.type === 'gitbookTag' && c.name === 'else' && c.lone);
      const then = at < 0 ? n.children : n.children.slice(0, at);
      // Without a condition: an `if` that holds for nobody (what it guards is never shown), said so.
      if (!expression) ctx.notes.add('{% if %} without a condition: its content is shown to nobody');
      const out = [block('if', p, { expression }, toBlocks(then, ctx, p))];
      if (at >= 0)
        out.push(block('if', `${p}.else`, { expression: negated(expression) }, toBlocks(n.children.slice(at + 1), ctx, `${p}.else`)));
      return out;
    }
    case 'else':
      ctx.notes.add('{% else %} outside an {% if %} kept as written');
      return [block('markdown', p, { markdown: '{% else %}' }, undefined, true)];
    default:
      ctx.notes.add(`{% ${n.name} %} kept as its content`);
      return inner();
  }
}

const HTTP_METHODS = /^(get|put|post|delete|options|head|patch|trace)$/;
const PROMPT_EXPANDED = new Set(['hidden', 'partial', 'full']);

/**
 * GitBook's oldest API method block, `{% swagger method path baseUrl summary %}` holding
 * `{% swagger-description %}`, `{% swagger-parameter %}` and `{% swagger-response %}`: the official model has
 * no block for it (GitBook itself moved to spec-backed blocks), so it becomes plain blocks that say the same:
 * the method and URL, the description, a list of parameters, and each response with its content.
 */
function legacyApiMethod(n: GitbookTag, ctx: Ctx, p: string): DocBlock[] {
  ctx.notes.add('the legacy {% swagger %} API method became plain blocks (method, description, parameters, responses)');
  const { attrs } = n;
  const text = (value: string, marks: Marks = []) => ({ object: 'text' as const, leaves: [leaf(value, marks)] });
  const out: DocBlock[] = [
    block('paragraph', `${p}.m`, {}, [
      text((attrs.method ?? '').toUpperCase(), ['bold']),
      text(' '),
      text(`${attrs.baseUrl ?? ''}${attrs.path ?? ''}`, ['code']),
      ...(attrs.summary ? [text(` — ${attrs.summary}`)] : []),
    ]),
  ];
  const parameters: DocBlock[] = [];
  n.children.forEach((c, j) => {
    const q = `${p}.${j}`;
    if (c.type !== 'gitbookTag') {
      out.push(...toBlocks([c], ctx, q));
      return;
    }
    if (c.name === 'swagger-description') out.push(...toBlocks(c.children, ctx, q));
    else if (c.name === 'swagger-parameter') {
      const a = c.attrs;
      const about = [a.in, a.type, a.required === 'true' ? 'required' : undefined].filter(Boolean).join(', ');
      const line = block('paragraph', `${q}.n`, {}, [
        text(a.name ?? '', ['code']),
        ...(about ? [text(` (${about})`)] : []),
        ...(a.description ? [text(`: ${a.description}`)] : []),
      ]);
      parameters.push(block('list-item', q, {}, [line, ...toBlocks(c.children, ctx, q)]));
    } else if (c.name === 'swagger-response') {
      const a = c.attrs;
      out.push(
        block('paragraph', `${q}.r`, {}, [
          text(`Response ${a.status ?? ''}`.trim(), ['bold']),
          ...(a.description ? [text(`: ${a.description}`)] : []),
        ]),
      );
      out.push(...toBlocks(c.children, ctx, q));
    } else out.push(...tagBlocks(c, ctx, q));
  });
  if (parameters.length) out.splice(1, 0, block('list-unordered', `${p}.params`, {}, parameters));
  return out;
}

/** The footnote definitions that a reference names (at any depth), by identifier: the first of each. */
function footnotesOf(nodes: RootContent[]): Map<string, FootnoteDefinition> {
  const definitions = new Map<string, FootnoteDefinition>();
  const referenced = new Set<string>();
  const walk = (list: readonly Nodes[]) => {
    for (const n of list) {
      if (n.type === 'footnoteDefinition' && !definitions.has(n.identifier)) definitions.set(n.identifier, n);
      if (n.type === 'footnoteReference') referenced.add(n.identifier);
      if ('children' in n) walk(n.children);
    }
  };
  walk(nodes);
  return new Map([...definitions].filter(([id]) => referenced.has(id)));
}

/** An annotation's body: the definition's blocks (paragraphs, lists, code), at least one paragraph. */
function annotationBody(definition: FootnoteDefinition, ctx: Ctx, path: string): DocBlock[] {
  const blocks = toBlocks(definition.children, { ...ctx, footnotes: new Map() }, path);
  return blocks.length ? blocks : [block('paragraph', `${path}.0`, {}, [{ object: 'text', leaves: [leaf('', [])] }])];
}

/** The index of the `</details>` that closes the one opened at `at` (nested ones counted), or -1. */
function closingDetails(nodes: readonly Nodes[], at: number): number {
  let depth = 0;
  for (let j = at + 1; j < nodes.length; j++) {
    const n = nodes[j];
    if (n.type !== 'html') continue;
    if (/^\s*<details[\s>]/i.test(n.value) && !/<\/details\s*>/i.test(n.value)) depth += 1;
    else if (/^\s*<\/details\s*>\s*$/i.test(n.value) && depth-- === 0) return j;
  }
  return -1;
}

/**
 * A heading's text as a page title: plain text (`out\\_file` is `out_file`, links and emphasis their text, HTML
 * left out), inline code kept in its backticks as GitBook shows it.
 */
function titleText(nodes: readonly PhrasingContent[]): string {
  return nodes
    .map((n) =>
      n.type === 'inlineCode'
        ? `\`${n.value}\``
        : n.type === 'text'
          ? n.value
          : n.type === 'break'
            ? ' '
            : 'children' in n
              ? titleText(n.children)
              : '',
    )
    .join('');
}

/** Parses markdown (with optional YAML frontmatter) into a document. */
export function markdownToDocument(
  markdown: string,
  resolve: LinkResolver = defaultLinkResolver,
  options: { titleFromHeading?: boolean } = {},
): ParsedMarkdown {
  const tree = parseMarkdown(markdown);
  const meta: ParsedMarkdown['meta'] = {};
  let children = tree.children;
  const front = children[0]?.type === 'yaml' ? children[0] : null;
  let frontValues: Record<string, unknown> | null = null;
  if (front) {
    let values: unknown;
    try {
      values = parseYaml(front.value);
    } catch (e) {
      throw new InvalidInputError(`Invalid frontmatter: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    if (values && typeof values === 'object' && !Array.isArray(values)) {
      const v = values as Record<string, unknown>;
      frontValues = v;
      if (typeof v.title === 'string') meta.title = v.title;
      if (typeof v.description === 'string') meta.description = v.description;
      if (typeof v.emoji === 'string') meta.emoji = v.emoji;
      if (typeof v.hidden === 'boolean') meta.hidden = v.hidden;
      if (typeof v.icon === 'string') meta.icon = v.icon.slice(0, 100);
      // GitBook's page variables (`vars:` in the front matter), scalar values as text.
      if (v.vars && typeof v.vars === 'object' && !Array.isArray(v.vars))
        meta.variables = Object.fromEntries(
          Object.entries(v.vars as Record<string, unknown>)
            .filter(([, x]) => ['string', 'number', 'boolean'].includes(typeof x))
            .map(([k, x]) => [k, String(x)]),
        );
    }
    children = children.slice(1);
  }
  let leadingTitle: string | undefined;
  if (options.titleFromHeading && children[0]?.type === 'heading' && children[0].depth === 1) {
    leadingTitle = titleText(children[0].children).replace(/\s+/g, ' ').trim();
    children = children.slice(1);
  }
  const notes = new Set<string>();
  // A link or image that would run script when followed is not kept (its URL becomes empty).
  const safeResolve: LinkResolver = (url) => {
    if (!/^[\s\u0000-\u001f]*(javascript|vbscript|data):/i.test(url.replace(/[\t\n\r]/g, ''))) return resolve(url);
    notes.add('links and images to javascript:, vbscript: or data: URLs were removed');
    return { kind: 'url', url: '' };
  };
  const ctx: Ctx = {
    resolve: safeResolve,
    footnotes: footnotesOf(children),
    notes,
    html: { resolve: safeResolve, notes, inlineMarkdown: (nodes) => cellMarkdown(toPhrasing(nodes)) },
  };
  if (frontValues) {
    const layout = layoutOf(frontValues.layout);
    if (layout) meta.layout = layout;
    const cover = coverOf(frontValues, ctx);
    if (cover) meta.cover = cover;
  }
  const document: JsonDocument = { object: 'document', data: {}, nodes: toBlocks(children, ctx, 'n') };
  return { document, meta, leadingTitle, normalized: [...ctx.notes] };
}

/**
 * The official layout presets (`RevisionPageLayoutPreset`) as the options they stand for. The official document
 * names them without saying what they show; these are Quire's reading of GitBook's editor (docs/gitbook-look.md):
 * `docs` is the default page; `editorial` an article without the page tree, outline or pagination; `landing` a
 * wide page under a full-width cover, without outline, pagination or "last updated".
 */
export const LAYOUT_PRESETS: Readonly<Record<'docs' | 'editorial' | 'landing', Readonly<PageLayout>>> = {
  docs: {},
  editorial: { tableOfContents: false, outline: false, pagination: false },
  landing: { width: 'wide', coverSize: 'full', outline: false, pagination: false, metadata: false },
};

/**
 * GitBook's front matter `layout` (`width: wide`, `cover: {visible, size}`, `title: {visible}` …) as the official
 * page layout; what is not in that shape is left out. Null when nothing is left.
 */
export function layoutOf(value: unknown): PageLayout | null {
  if (value === 'wide') return { width: 'wide' }; // the older one-word form
  if (typeof value === 'string' && Object.hasOwn(LAYOUT_PRESETS, value)) {
    const preset = LAYOUT_PRESETS[value as keyof typeof LAYOUT_PRESETS];
    return Object.keys(preset).length ? { ...preset } : null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const out: PageLayout = {};
  if (v.width === 'default' || v.width === 'wide') out.width = v.width;
  for (const part of LAYOUT_PARTS) {
    const p = v[part];
    if (p && typeof p === 'object' && typeof (p as { visible?: unknown }).visible === 'boolean')
      out[part] = (p as { visible: boolean }).visible;
  }
  const size = (v.cover as { size?: unknown } | undefined)?.size;
  if (size === 'hero' || size === 'full') out.coverSize = size;
  return Object.keys(out).length ? out : null;
}

/** GitBook's front matter `cover` (an image path or URL) and `coverY` as the official page cover. */
function coverOf(values: Record<string, unknown>, ctx: Ctx): PageCover | null {
  if (typeof values.cover !== 'string' || !values.cover.trim()) return null;
  const ref = ctx.resolve(values.cover.trim());
  if (ref.kind !== 'file' && !(ref.kind === 'url' && /^https?:\/\//i.test(ref.url))) {
    ctx.notes.add(`cover "${values.cover.slice(0, 200)}" names no file of the space: left out`);
    return null;
  }
  const cover: PageCover = { ref };
  if (typeof values.coverY === 'number' && Number.isFinite(values.coverY)) cover.yPos = values.coverY;
  return cover;
}

/**
 * A JSON document given by a client (comment bodies, agent instructions …): it must be
 * `{object: "document", nodes: [...]}` and render to markdown of at most `maxMarkdown` characters;
 * answers the document as stored and its markdown, or a 400 naming `where`.
 */
export function checkDocumentInput(value: unknown, where: string, maxMarkdown: number): { document: JsonDocument; markdown: string } {
  const doc = value as Partial<JsonDocument> | null;
  if (typeof doc !== 'object' || doc === null || doc.object !== 'document' || !Array.isArray(doc.nodes))
    throw new InvalidInputError(`${where}: a JSON document ({object: "document", nodes: [...]}) is expected`);
  const document: JsonDocument = { object: 'document', data: documentData(doc, where), nodes: withDefaults(doc.nodes, where) };
  let markdown: string;
  try {
    markdown = documentToMarkdown(document);
  } catch {
    throw new InvalidInputError(`${where}: not a valid document`);
  }
  if (markdown.length > maxMarkdown) throw new InvalidInputError(`${where}: at most ${maxMarkdown} characters of markdown`);
  return { document, markdown };
}

/**
 * A table cell's markdown source as inline nodes (null when it is not one paragraph of inlines), and
 * inline nodes back to a cell's source: what translations rewrite in a table.
 */
export function cellInlines(source: string): (DocText | DocInline)[] | null {
  const { document } = markdownToDocument(source);
  const first = document.nodes[0];
  if (document.nodes.length !== 1 || first.type !== 'paragraph') return null;
  return (first.nodes ?? []).filter((n): n is DocText | DocInline => n.object !== 'block');
}

export function cellSourceOf(nodes: (DocText | DocInline)[]): string {
  return cellMarkdown(toPhrasing(nodes));
}

// The markdown writer reads table cells with this module's reader (see `useCellReader`).
useCellReader(cellInlines);
