import type { Nodes, Parents, PhrasingContent, Root, RootContent, Table } from 'mdast';
import MarkdownIt from 'markdown-it';
import { parse as parseYaml } from 'yaml';

import footnote from 'markdown-it-footnote';
import { InvalidInputError } from '@app/shared-kernel';
import { gitbookMath, gitbookTags, type GitbookTag } from './gitbook-tags';
import { QUIRE_STYLE, type MarkdownStyle } from './markdown-write';

/**
 * Markdown → mdast, parsed by markdown-it (CommonMark + GFM tables, strikethrough and autolinks, footnotes, GitBook's
 * block tags: gitbook-tags.ts), after
 * YAML frontmatter (between `---` lines at the very start, as remark-frontmatter reads it) is taken off: its token
 * stream is mapped to the mdast nodes the document conversion reads.
 *
 * Why markdown-it and not remark's parser: at 15 kB of real markdown, micromark alone takes ~34 ms, markdown-it
 * ~1.2 ms (the import target is 5 ms for the whole conversion). Both are maintained CommonMark parsers; the fidelity
 * test parses with remark, so the two check each other.
 *
 * Differences from remark-gfm worth knowing: only URLs with a scheme are autolinked in text (`www.…` literals and
 * bare e-mail addresses stay text: linkify-it took `mime-db@1.50.0` for an address); `~one tilde~` is not
 * strikethrough (it stays text). Reference links arrive resolved (their definitions are
 * not content); a reference without a definition is the text it was written as.
 */
type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

/** Containers (quotes, lists) nest at most this deep: markdown-it stops reading a block there (its default preset). */
const MAX_NESTING = 100;

const md = new MarkdownIt('default', { html: true, linkify: true })
  .use(footnote)
  .use(gitbookTags)
  .use(gitbookMath)
  .disable(['footnote_inline', 'footnote_tail']); // footnote definitions stay where they were written
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
// URLs are kept as written (no percent-encoding, no punycode); dangerous schemes are refused later, with a note.
md.validateLink = () => true;
md.normalizeLink = (url) => url;
md.normalizeLinkText = (url) => url;

/** Marks a node kept verbatim with the markdown it was written as. */
function withSource<T extends Nodes>(node: T, source: string): T {
  Object.assign(node, { data: { ...node.data, source } });
  return node;
}

/** The markdown a node was written as, when the reader recorded it (footnotes). */
export function recordedSource(node: Nodes): string | undefined {
  const data: { source?: unknown } = node.data ?? {};
  return typeof data.source === 'string' ? data.source : undefined;
}

const TASK = /^\[([ xX])\][ \t]+/;

const attr = (t: Token, name: string): string | null => {
  const v = t.attrGet(name);
  return v === null ? null : String(v);
};
const label = (t: Token): string => {
  const value = (t.meta as { label?: unknown } | null)?.label;
  return typeof value === 'string' ? value : '';
};

function plainText(tokens: Token[] | null): string {
  let out = '';
  for (const t of tokens ?? []) {
    if (t.type === 'text' || t.type === 'code_inline') out += t.content;
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out += '\n';
    else if (t.type === 'image') out += plainText(t.children);
  }
  return out;
}

function inline(tokens: Token[], into: Parents): void {
  const stack: Parents[] = [into];
  const push = (node: PhrasingContent) => {
    const parent = stack[stack.length - 1] as { children: PhrasingContent[] };
    const last = parent.children[parent.children.length - 1];
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else parent.children.push(node);
    return node;
  };
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        if (t.content) push({ type: 'text', value: t.content });
        break;
      case 'softbreak':
        push({ type: 'text', value: '\n' });
        break;
      case 'hardbreak':
        push({ type: 'break' });
        break;
      case 'code_inline':
        push({ type: 'inlineCode', value: t.content });
        break;
      case 'strong_open':
        stack.push(push({ type: 'strong', children: [] }) as Parents);
        break;
      case 'em_open':
        stack.push(push({ type: 'emphasis', children: [] }) as Parents);
        break;
      case 's_open':
        stack.push(push({ type: 'delete', children: [] }) as Parents);
        break;
      case 'link_open':
        stack.push(push({ type: 'link', url: attr(t, 'href') ?? '', title: attr(t, 'title'), children: [] }) as Parents);
        break;
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close':
        stack.pop();
        break;
      case 'image':
        push({ type: 'image', url: attr(t, 'src') ?? '', title: attr(t, 'title'), alt: plainText(t.children) });
        break;
      case 'html_inline':
        push({ type: 'html', value: t.content });
        break;
      case 'gitbook_math':
        push({ type: 'gitbookMath', value: t.content });
        break;
      case 'footnote_ref':
        push(withSource({ type: 'footnoteReference', identifier: label(t), label: label(t) }, `[^${label(t)}]`));
        break;
      default:
        if (t.content) push({ type: 'text', value: t.content });
    }
  }
}

/** Parses markdown into an mdast tree (no positions; footnotes carry their source in `data.source`). */
const FRONTMATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export function parseMarkdown(markdown: string): Root {
  const front = FRONTMATTER.exec(markdown);
  const source = front ? markdown.slice(front[0].length) : markdown;
  const tokens = md.parse(source, {});
  // Past the limit markdown-it drops the rest of the block silently: refused rather than half-imported.
  if (tokens.some((t) => t.nesting === 1 && t.level >= MAX_NESTING - 1))
    throw new InvalidInputError(`Markdown nests quotes and lists more than ${MAX_NESTING - 1} levels deep`);
  const root: Root = { type: 'root', children: front ? [{ type: 'yaml', value: front[1] ?? '' }] : [] };
  const stack: Parents[] = [root];
  const footnotes: { node: Nodes; first: number; last: number }[] = [];
  const add = <T extends RootContent>(node: T): T => {
    (stack[stack.length - 1] as { children: RootContent[] }).children.push(node);
    return node;
  };
  const open = (node: RootContent) => stack.push(add(node) as Parents);
  let table: Table | null = null;
  for (const t of tokens) {
    if (t.map && footnotes.length) {
      const f = footnotes[footnotes.length - 1];
      f.first = Math.min(f.first, t.map[0]);
      f.last = Math.max(f.last, t.map[1]);
    }
    switch (t.type) {
      case 'paragraph_open':
        open({ type: 'paragraph', children: [] });
        break;
      case 'heading_open':
        open({ type: 'heading', depth: Number(t.tag.slice(1)) as 1, children: [] });
        break;
      case 'blockquote_open':
        open({ type: 'blockquote', children: [] });
        break;
      case 'bullet_list_open':
        open({ type: 'list', ordered: false, spread: false, children: [] });
        break;
      case 'ordered_list_open':
        open({ type: 'list', ordered: true, start: Number(attr(t, 'start') ?? 1), spread: false, children: [] });
        break;
      case 'list_item_open':
        open({ type: 'listItem', spread: false, checked: null, children: [] });
        break;
      case 'footnote_reference_open': {
        const node = add({ type: 'footnoteDefinition', identifier: label(t), label: label(t), children: [] });
        stack.push(node);
        footnotes.push({ node, first: Infinity, last: -1 });
        break;
      }
      case 'table_open':
        table = { type: 'table', align: [], children: [] };
        open(table);
        break;
      case 'tr_open':
        open({ type: 'tableRow', children: [] });
        break;
      case 'th_open':
      case 'td_open': {
        if (t.type === 'th_open' && table) {
          const align = /text-align:\s*(left|right|center)/.exec(attr(t, 'style') ?? '');
          table.align!.push((align?.[1] as 'left' | 'right' | 'center' | undefined) ?? null);
        }
        open({ type: 'tableCell', children: [] } as unknown as RootContent);
        break;
      }
      case 'list_item_close': {
        const item = stack.pop();
        const first = item?.children[0];
        const text = first?.type === 'paragraph' ? first.children[0] : undefined;
        if (item?.type === 'listItem' && text?.type === 'text') {
          const task = TASK.exec(text.value);
          if (task) {
            item.checked = task[1] !== ' ';
            text.value = text.value.slice(task[0].length);
          }
        }
        break;
      }
      case 'footnote_reference_close': {
        const f = footnotes.pop()!;
        stack.pop();
        withSource(
          f.node,
          f.last > f.first
            ? source.split('\n').slice(f.first, f.last).join('\n').trimEnd()
            : `[^${f.node.type === 'footnoteDefinition' ? f.node.label : ''}]:`,
        );
        break;
      }
      case 'paragraph_close':
      case 'heading_close':
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'tr_close':
      case 'th_close':
      case 'td_close':
        stack.pop();
        break;
      case 'table_close':
        stack.pop();
        table = null;
        break;
      case 'inline':
        inline(t.children ?? [], stack[stack.length - 1]);
        break;
      case 'fence': {
        const info = t.info.trim();
        const space = info.search(/\s/);
        add({
          type: 'code',
          lang: (space < 0 ? info : info.slice(0, space)) || null,
          meta: space < 0 ? null : info.slice(space).trim() || null,
          value: t.content.replace(/\r?\n$/, ''),
        });
        break;
      }
      case 'code_block':
        add({ type: 'code', lang: null, meta: null, value: t.content.replace(/(\r?\n)+$/, '') });
        break;
      case 'hr':
        add({ type: 'thematicBreak' });
        break;
      case 'gitbook_tag_open':
      case 'gitbook_tag': {
        const { name, attrs, expression } = t.meta as { name: string; attrs: Record<string, string>; expression?: string };
        const node: GitbookTag = { type: 'gitbookTag', name, attrs, children: [], ...(expression !== undefined ? { expression } : {}) };
        if (t.type === 'gitbook_tag') add({ ...node, lone: true });
        else open(node);
        break;
      }
      case 'gitbook_tag_close':
        stack.pop();
        break;
      case 'html_block':
        add({ type: 'html', value: t.content.replace(/(\r?\n)+$/, '') });
        break;
      default:
      // thead/tbody and footnote anchors carry nothing the tree needs.
    }
  }
  return root;
}

/**
 * The markers these markdown texts write with, by majority where markdown offers a choice (bullets `-` `*` `+`,
 * emphasis `_` `*`, strong `**` `__`), from markdown-it's tokens (code and HTML are not counted); Quire's own
 * where the texts use none.
 */
export function markdownStyleOf(markdowns: Iterable<string>): MarkdownStyle {
  const counts = new Map<string, number>();
  const count = (tokens: Token[]) => {
    for (const t of tokens) {
      const key = t.type === 'bullet_list_open' ? 'bullet' : t.type === 'em_open' ? 'emphasis' : t.type === 'strong_open' ? 'strong' : null;
      if (key) counts.set(`${key}:${t.markup}`, (counts.get(`${key}:${t.markup}`) ?? 0) + 1);
      if (t.children) count(t.children);
    }
  };
  // Wrapping: paragraphs over several lines (each line but the last counted) against long one-line paragraphs.
  const wrappedLines: number[] = [];
  let wrapped = 0;
  let long = 0;
  for (const markdown of markdowns) {
    const front = FRONTMATTER.exec(markdown);
    const body = front ? markdown.slice(front[0].length) : markdown;
    const tokens = md.parse(body, {});
    count(tokens);
    const lines = body.split('\n');
    for (const t of tokens) {
      if (t.type !== 'paragraph_open' || !t.map) continue;
      const [from, to] = t.map;
      const own = lines.slice(from, to).map((l) => l.trim());
      if (own.length === 1 && own[0].length > WRAP_LONG) long += 1;
      else if (own.length > 1 && !own.some((l, i) => i < own.length - 1 && /(\\| {2})$/.test(lines[from + i]))) {
        wrapped += 1;
        wrappedLines.push(...own.slice(0, -1).map((l) => l.length));
      }
    }
  }
  const pick = <K extends 'bullet' | 'emphasis' | 'strong'>(key: K, options: readonly MarkdownStyle[K][]): MarkdownStyle[K] =>
    options.reduce((best, o) => ((counts.get(`${key}:${o}`) ?? 0) > (counts.get(`${key}:${best}`) ?? 0) ? o : best), QUIRE_STYLE[key]);
  const style: MarkdownStyle = {
    bullet: pick('bullet', ['-', '*', '+']),
    emphasis: pick('emphasis', ['_', '*']),
    strong: pick('strong', ['**', '__']),
  };
  // Wrapped when most paragraphs that could be are: the width is what 95 % of their lines stay within.
  if (wrapped >= 5 && wrapped > 3 * long) {
    wrappedLines.sort((a, b) => a - b);
    style.wrap = Math.max(40, wrappedLines[Math.floor(wrappedLines.length * 0.95)] ?? 80);
  }
  return style;
}

/** A one-line paragraph longer than this shows that a repository does not wrap its text. */
const WRAP_LONG = 100;

/**
 * A markdown file's front matter (the YAML between `---` lines at its start) as an object, every key in its
 * order, and where the body begins; null when there is none or it is not a YAML mapping.
 */
export function frontMatterOf(markdown: string): { values: Record<string, unknown>; end: number } | null {
  const front = FRONTMATTER.exec(markdown);
  if (!front) return null;
  try {
    const values: unknown = parseYaml(front[1] ?? '');
    return values && typeof values === 'object' && !Array.isArray(values)
      ? { values: { ...(values as Record<string, unknown>) }, end: front[0].length }
      : null;
  } catch {
    return null;
  }
}
