import type { Nodes, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { markdownTable } from 'markdown-table';
import { tagLine } from './gitbook-tags';

/**
 * mdast → GFM markdown for the nodes the document conversion produces (paragraphs, headings, lists, quotes, fenced
 * code, breaks, HTML, tables; text, code, emphasis, strong, strikethrough, links, images, hard breaks). It writes
 * what remark-stringify wrote with the options Quire used (`-` bullets, `_` emphasis, `**` strong, fenced code,
 * one-space list indent, padded tables through the `markdown-table` package), escaping text so that it reads back as
 * the same text; about ten times faster, because it escapes by rules for the one context it knows (phrasing at the
 * start of a line or not) instead of testing every unsafe pattern of every construct at every position.
 * The fidelity test (remark parses what this writes) and the round-trip tests guard it.
 */

/**
 * The markers a repository writes with, where markdown offers a choice: a page changed in Quire is written back
 * in its repository's own style (see `repositoryStyle`).
 */
export interface MarkdownStyle {
  bullet: '-' | '*' | '+';
  emphasis: '_' | '*';
  strong: '**' | '__';
  /** Paragraphs wrapped at this many characters (a repository whose text is wrapped); absent: one line each. */
  wrap?: number;
}
export const QUIRE_STYLE: MarkdownStyle = { bullet: '-', emphasis: '_', strong: '**' };
let style: MarkdownStyle = QUIRE_STYLE;

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
const PUNCT = /[\p{P}\p{S}]/u;

/** Characters that may need escaping anywhere in text, and at the start of a line. */
const SPECIAL = /[*_`[\]~\\<&!\n]|\$\$/;
const LINE_START = /^[ \t#>=|:+\-\d]/;

const charRef = (ch: string) => `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`;

/** Escapes text so it is read back as this text, `lineStart` when it begins a line of a block. */
function escapeText(value: string, lineStart: boolean): string {
  // Most text has nothing to escape: one test instead of a walk.
  if (!SPECIAL.test(value) && !(lineStart && LINE_START.test(value))) return value;
  let out = '';
  let atLine = lineStart;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    const next = value[i + 1];
    if (atLine) {
      atLine = false;
      const rest = value.slice(i, i + 12);
      if (c === ' ' || c === '\t') {
        out += charRef(c);
        continue;
      }
      if (c === '#' || c === '>' || c === '=' || (c === '|' && /^\|[\t :-]/.test(rest)) || (c === ':' && next === '-')) {
        out += '\\' + c;
        continue;
      }
      if ((c === '-' || c === '+') && (next === undefined || /[ \t\n]/.test(next) || (c === '-' && /[-:|]/.test(next)))) {
        out += '\\' + c;
        continue;
      }
      const ordinal = /^(\d{1,9})([.)])(?:[ \t\n]|$)/.exec(rest);
      if (ordinal) {
        out += ordinal[1] + '\\' + ordinal[2];
        i += ordinal[0].length - (/[ \t\n]$/.test(ordinal[0]) ? 2 : 1);
        continue;
      }
    }
    switch (c) {
      case '*':
      case '_':
      case '`':
      case '[':
      case ']':
      case '~':
        out += '\\' + c;
        break;
      case '\\':
        out += next === undefined || ASCII_PUNCT.test(next) ? '\\\\' : '\\';
        break;
      case '<':
        out += next !== undefined && /[!/?A-Za-z]/.test(next) ? '\\<' : '<';
        break;
      case '&':
        out += next !== undefined && /[#A-Za-z]/.test(next) ? '\\&' : '&';
        break;
      case '!':
        out += next === undefined ? '\\!' : '!';
        break;
      case '$':
        // `$$` would open GitBook's math.
        out += next === '$' ? '\\$' : '$';
        break;
      case '\n':
        // A line break inside text (not a hard break): spaces before it would make one, so they are encoded.
        out = out.replace(/[ \t]+$/, (s) => [...s].map(charRef).join('')) + '\n';
        atLine = true;
        break;
      default:
        out += c;
    }
  }
  return out;
}

/** A link or image destination: raw when it can be, else in angle brackets. */
function destination(url: string): string {
  if (!url) return '';
  if (/[\s\u0000-\u001f<>]/.test(url) || !balancedParens(url)) return '<' + url.replace(/([<>\\])/g, '\\$1').replace(/\n/g, '%0A') + '>';
  return url
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
    .replace(/[()]/g, '\\$&')
    .replace(/&(?=[#A-Za-z])/g, '\\&');
}

function balancedParens(url: string): boolean {
  let depth = 0;
  for (const c of url) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

const title = (t: string | null | undefined) => (t ? ` "${t.replace(/(["\\])/g, '\\$1')}"` : '');

function inlineCode(value: string): string {
  const v = value.replace(/\r?\n/g, ' ');
  let size = 1;
  const runs = new Set((v.match(/`+/g) ?? []).map((r) => r.length));
  while (runs.has(size)) size++;
  const fence = '`'.repeat(size);
  const pad = /^[ `]/.test(v) && /[ `]$/.test(v) && /[^ ]/.test(v) ? ' ' : /^`|`$/.test(v) ? ' ' : '';
  return fence + pad + v + pad + fence;
}

/** A run of one marker character at either end of a mark's content. */
const RUN_EDGES: Readonly<Record<string, RegExp>> = { '*': /^\*+|\*+$/g, _: /^_+|_+$/g, '~': /^~+|~+$/g };

interface Piece {
  out: string;
  /** For emphasis, strong and strikethrough: the written content and the marker. */
  attention?: { inner: string; marker: string };
}

function firstChar(s: string): string {
  return s ? String.fromCodePoint(s.codePointAt(0)!) : '';
}
function lastChar(s: string): string {
  if (!s) return '';
  const code = s.charCodeAt(s.length - 1);
  return code >= 0xdc00 && code <= 0xdfff && s.length > 1 ? s.slice(-2) : s.slice(-1);
}

/**
 * Phrasing content. `lineStart`: it starts a line of a block (line-start escapes apply); `inHeading`: a hard break
 * cannot be written there (an ATX heading is one line), it becomes a space.
 */
export function writePhrasing(nodes: readonly PhrasingContent[], lineStart: boolean, inHeading = false): string {
  const pieces: Piece[] = [];
  let atLine = lineStart;
  for (const n of nodes) {
    let out: string;
    switch (n.type) {
      case 'text':
        out = escapeText(n.value, atLine);
        break;
      case 'break':
        out = inHeading ? ' ' : '\\\n';
        break;
      case 'inlineCode':
        out = inlineCode(n.value);
        break;
      case 'html':
        out = n.value;
        break;
      case 'gitbookMath':
        out = `$$${n.value}$$`;
        break;
      case 'emphasis':
      case 'strong':
      case 'delete': {
        const inner = writePhrasing(n.children, atLine, inHeading);
        const marker = n.type === 'strong' ? style.strong : n.type === 'delete' ? '~~' : style.emphasis;
        pieces.push({ out: '', attention: { inner, marker } });
        atLine = false;
        continue;
      }
      case 'link': {
        const text = writePhrasing(n.children, false, inHeading);
        const only = n.children.length === 1 && n.children[0].type === 'text' ? n.children[0].value : null;
        const auto =
          !n.title &&
          only !== null &&
          (only === n.url || `mailto:${only}` === n.url) &&
          /^[a-z][a-z+.-]+:[^\s<>\\]*$/i.test(n.url) &&
          !/[()]/.test(n.url);
        out = auto ? `<${only}>` : `[${text}](${destination(n.url)}${title(n.title)})`;
        break;
      }
      case 'image':
        out = `![${escapeText(n.alt ?? '', false)}](${destination(n.url)}${title(n.title)})`;
        break;
      default:
        throw new Error(`markdown writer: unexpected phrasing node ${n.type}`);
    }
    pieces.push({ out });
    atLine = n.type === 'break' && !inHeading;
  }
  return joinPieces(pieces);
}

/**
 * Writes attention markers around their content: whitespace at the content's edges goes outside the markers (a
 * marker next to whitespace opens or closes nothing), `_` becomes `*` next to a letter or digit (`_` does not work
 * inside words), and a letter or digit right outside a marker whose content ends in punctuation is written as a
 * character reference (else the marker would not close, CommonMark's flanking rules).
 */
function joinPieces(pieces: Piece[]): string {
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (!p.attention) {
      out += p.out;
      continue;
    }
    const { inner } = p.attention;
    const lead = /^[ \t]*/.exec(inner)![0];
    const trail = inner.length > lead.length ? /[ \t]*$/.exec(inner)![0] : '';
    const core = inner.slice(lead.length, inner.length - trail.length);
    out += lead;
    if (!core) {
      out += trail;
      continue;
    }
    const next = pieces[i + 1];
    const before = lastChar(out);
    const after = trail ? ' ' : next ? firstChar(next.attention ? next.attention.marker : next.out) : '';
    const marker =
      p.attention.marker[0] === '_' && (WORD.test(before) || WORD.test(after)) ? p.attention.marker.replace(/_/g, '*') : p.attention.marker;
    // A delimiter run is all the marker characters in a row: nested markers of the same character belong to it.
    const bare = core.replace(RUN_EDGES[marker[0]], '');
    if (WORD.test(before) && PUNCT.test(firstChar(bare))) out = out.slice(0, -before.length) + charRef(before);
    out += marker + core + marker + trail;
    if (next && !next.attention && WORD.test(after) && PUNCT.test(lastChar(bare))) next.out = charRef(after) + next.out.slice(after.length);
  }
  return out;
}

/** A line that would start a block of its own (a list, heading, quote, fence, tag, table, definition …). */
const BLOCK_START = /^(?:[-+*](?:\s|$)|#{1,6}(?:\s|$)|>|\d{1,9}[.)](?:\s|$)|[=-]+\s*$|\||`{3}|~{3}|\{%|<|\[[^\]]*\]:|\[\^)/;

/** A word that alone on a line would start or underline a block. */
const LONE_BLOCK = /^(?:[-=+*_#>]+|\d{1,9}[.)])$/;

/**
 * A paragraph's lines broken at spaces to at most `width` characters where that is safe: never inside a code
 * span, an angle-bracket autolink or HTML tag, or a link's destination, never before what would start a block,
 * never where the space has a neighbour space (a hard break). A word longer than the width stays whole.
 */
export function wrapParagraph(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const out: string[] = [];
      let from = 0;
      let candidate = -1;
      for (const at of safeBreaks(line)) {
        if (at - from <= width) {
          candidate = at;
          continue;
        }
        // Past the width: break at the last space within it (or here, after a word longer than the width).
        const cut = candidate > from ? candidate : at;
        out.push(line.slice(from, cut));
        from = cut + 1;
        candidate = at >= from && at - from <= width ? at : -1;
      }
      if (line.length - from > width && candidate > from) {
        out.push(line.slice(from, candidate));
        from = candidate + 1;
      }
      out.push(line.slice(from));
      return out.join('\n');
    })
    .join('\n');
}

/** The positions of the spaces of a line where it may break (see `wrapParagraph`). */
function safeBreaks(line: string): number[] {
  const out: number[] = [];
  let i = 0;
  let parens = 0; // inside a link destination: its parentheses
  while (i < line.length) {
    const c = line[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '`') {
      let n = 1;
      while (line[i + n] === '`') n++;
      const close = line.indexOf('`'.repeat(n), i + n);
      i = close < 0 ? i + n : close + n;
      continue;
    }
    if (c === '<' && /[A-Za-z/!?]/.test(line[i + 1] ?? '')) {
      const close = line.indexOf('>', i);
      if (close > 0) {
        i = close + 1;
        continue;
      }
    }
    // An image's alt text is kept as written (a line break in it would stay in the alt).
    if (c === '!' && line[i + 1] === '[') {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === '\\') j += 1;
        else if (line[j] === '[') depth += 1;
        else if (line[j] === ']' && --depth === 0) break;
      }
      i = j;
      continue;
    }
    if (c === ']' && line[i + 1] === '(') {
      parens = 1;
      i += 2;
      continue;
    }
    if (parens > 0) {
      if (c === '(') parens += 1;
      else if (c === ')') parens -= 1;
      i += 1;
      continue;
    }
    // Not before what would start a block, nor after a word that alone on its line would be one (`--`, `1.`).
    if (
      c === ' ' &&
      i > 0 &&
      line[i - 1] !== ' ' &&
      line[i + 1] !== undefined &&
      line[i + 1] !== ' ' &&
      !BLOCK_START.test(line.slice(i + 1)) &&
      !LONE_BLOCK.test(line.slice(line.lastIndexOf(' ', i - 1) + 1, i))
    )
      out.push(i);
    i += 1;
  }
  return out;
}

function indentLines(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first + line : line ? rest + line : line))
    .join('\n');
}

function table(node: Table): string {
  const rows = node.children.map((row) => row.children.map((cell) => writePhrasing(cell.children, false)));
  return markdownTable(rows, {
    align: (node.align ?? []).map((a) => (a === 'left' ? 'l' : a === 'right' ? 'r' : a === 'center' ? 'c' : '')),
  });
}

function longestRun(value: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of value) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

function block(node: RootContent, markers: { last?: string }): string {
  switch (node.type) {
    case 'paragraph': {
      const text = writePhrasing(node.children, true);
      return style.wrap ? wrapParagraph(text, style.wrap) : text;
    }
    case 'heading': {
      const text = writePhrasing(node.children, false, true).replace(/#$/, '\\#');
      return '#'.repeat(node.depth) + (text ? ' ' + text : '');
    }
    case 'thematicBreak':
      return '---';
    case 'html':
      return node.value;
    case 'code': {
      const fence = '`'.repeat(Math.max(3, longestRun(node.value, '`') + 1));
      const info = (node.lang ?? '') + (node.lang && node.meta ? ' ' + node.meta : '');
      return `${fence}${info}\n${node.value ? node.value + '\n' : ''}${fence}`;
    }
    case 'blockquote':
      return indentLines(blocks(node.children, false), '> ', '> ')
        .split('\n')
        .map((l) => (l === '> ' || l === '' ? '>' : l))
        .join('\n');
    case 'list': {
      // Two lists in a row would read as one: the second takes the other marker.
      const start = node.start ?? 1;
      const kind = node.ordered ? '.' : style.bullet;
      const other = node.ordered ? ')' : style.bullet === '*' ? '-' : '*';
      const mark = markers.last === kind ? other : kind;
      markers.last = mark;
      let out = '';
      node.children.forEach((item, i) => {
        const marker = node.ordered ? `${start + i}${mark}` : mark;
        const task = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
        const body = task + blocks(item.children, item.spread === true);
        if (i > 0) out += node.spread || tail(node.children[i - 1]).type === 'html' ? '\n\n' : '\n';
        out += body ? indentLines(body, marker + ' ', ' '.repeat(marker.length + 1)) : marker;
      });
      return out;
    }
    case 'table':
      return table(node);
    case 'gitbookTag': {
      // GitBook's own layout: the tag lines hug their content, which is written as any blocks are.
      const open = node.expression !== undefined ? `{% ${node.name} ${node.expression} %}` : tagLine(node.name, Object.entries(node.attrs));
      if (node.lone) return open;
      // An `{% else %}` hugs the content around it, as the tag lines do.
      const at = node.children.findIndex((c) => c.type === 'gitbookTag' && c.name === 'else' && c.lone);
      const inner =
        at < 0
          ? blocks(node.children, null)
          : [blocks(node.children.slice(0, at), null), '{% else %}', blocks(node.children.slice(at + 1), null)].filter(Boolean).join('\n');
      return `${open}\n${inner ? inner + '\n' : ''}{% end${node.name} %}`;
    }
    default:
      throw new Error(`markdown writer: unexpected block node ${(node as Nodes).type}`);
  }
}

/** The deepest last block of a container (what a following block would continue, lazily). */
function tail(node: RootContent): RootContent {
  let t = node;
  while ((t.type === 'blockquote' || t.type === 'list' || t.type === 'listItem') && t.children.length > 0)
    t = t.children[t.children.length - 1];
  return t;
}

/**
 * Whether two blocks in a tight list need a blank line between them (mdast-util-to-markdown's rules, HTML always
 * set apart): else the second would be read as part of the first (a paragraph continued lazily, a setext heading, a
 * list continued, an inline HTML tag).
 */
function blankLineInTight(left: RootContent, right: RootContent): boolean {
  if (left.type === 'html' || right.type === 'html') return true;
  if (left.type === 'blockquote' && right.type === 'blockquote') return true;
  if (
    left.type === 'paragraph' &&
    right.type === 'list' &&
    ((right.ordered && typeof right.start === 'number' && right.start !== 1) || right.children[0]?.children.length === 0)
  )
    return true;
  if (left.type === 'paragraph' && right.type === 'thematicBreak') return true;
  const last = tail(left);
  const nested = left !== last;
  if (last.type !== 'paragraph') return false;
  return (left.type === 'paragraph' || nested) && (right.type === 'paragraph' || right.type === 'heading');
}

/** Blocks one after the other: a blank line between them, in a tight list only where it is needed. */
function blocks(nodes: readonly RootContent[], spread: boolean | null): string {
  let out = '';
  const markers: { last?: string } = {};
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.type !== 'list') markers.last = undefined;
    const written = block(n, markers);
    if (i > 0) out += spread === false && !blankLineInTight(nodes[i - 1], n) ? '\n' : '\n\n';
    out += written;
  }
  return out;
}

/** Writes a tree as markdown, ending with a newline (nothing for an empty tree), in Quire's style or another. */
export function writeMarkdown(root: Root, using: MarkdownStyle = QUIRE_STYLE): string {
  const previous = style;
  style = using;
  try {
    const out = blocks(root.children, null);
    return out ? out + '\n' : '';
  } finally {
    style = previous;
  }
}
