import type { Node, Parent, RootContent } from 'mdast';
import type MarkdownIt from 'markdown-it';

/**
 * GitBook's block tags in markdown (its Git Sync format): a line `{% name key="value" … %}`, the blocks it holds,
 * and a line `{% endname %}` — hints, tabs, code titles, embeds, content references, files, steppers, columns,
 * updates, OpenAPI operations, conditional content (`{% if expression %}` … `{% else %}` … `{% endif %}`) — and the
 * lone `{% include "…" %}`. GitBook documents them block by block at
 * gitbook.com/docs (each block's "Representation in Markdown").
 *
 * A markdown-it block rule reads them the way markdown-it-container reads `:::` fences: the tag lines
 * bound a container whose lines markdown-it tokenizes as blocks, nested to any depth; a tag line inside a
 * fenced code block is code, never a tag. A tag without its end line is text, except the tags GitBook also
 * writes alone (`embed`, `file`, `include`, `content-ref`), which are then a block without content.
 */

/** A tag block in mdast: its name, its attributes, the blocks it holds (nothing for a lone tag). */
export interface GitbookTag extends Parent {
  type: 'gitbookTag';
  name: string;
  attrs: Record<string, string>;
  children: RootContent[];
  /** Written without an end line. */
  lone?: boolean;
  /** What an `{% if … %}` tag tests, as written (`visitor.claims.unsigned.beta`): its whole argument. */
  expression?: string;
}

/** GitBook's math, `$$formula$$` (inline, or alone in its paragraph: a math block). */
export interface GitbookMath extends Node {
  type: 'gitbookMath';
  value: string;
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookTag: GitbookTag;
  }
  interface BlockContentMap {
    gitbookTag: GitbookTag;
  }
  interface PhrasingContentMap {
    gitbookMath: GitbookMath;
  }
  interface RootContentMap {
    gitbookMath: GitbookMath;
  }
}

/** The tags read as blocks; any other `{% … %}` line stays text. */
const CONTAINERS = new Set([
  'hint',
  'tabs',
  'tab',
  'code',
  'embed',
  'content-ref',
  'file',
  'stepper',
  'step',
  'columns',
  'column',
  'updates',
  'update',
  'openapi-operation',
  'openapi-webhook',
  'openapi-schemas',
  'openapi',
  'swagger',
  'swagger-description',
  'swagger-parameter',
  'swagger-response',
  'prompt',
  'if',
]);
/** Tags GitBook also writes alone, without an end line (`else` inside an `if`). */
const LONE = new Set(['embed', 'file', 'include', 'content-ref', 'else']);

const TAG_LINE = /^\{%-?\s*([a-z][a-z0-9-]*)((?:\s+.*?)?)\s*-?%\}\s*$/;
/**
 * An integration's block (`{% @mermaid/diagram content="graph TD …" %}`): always alone, and its attribute values
 * may run over several lines (a diagram's source), up to the line that ends the tag.
 */
const INTEGRATION_START = /^\{%-?\s*(@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*)(?=[\s%])/;
const ATTR = /([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s"']+))|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A tag's attributes: `key="value"`, `key='value'`, `key=value`; a bare quoted string is `""` (`{% include "a.md" %}`). */
export function tagAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) {
    const value = (m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '').replace(/\\(["'\\])/g, '$1');
    const key = m[1] ?? '';
    if (!Object.hasOwn(out, key)) out[key] = value;
  }
  return out;
}

/** A tag's opening line as GitBook writes it: attributes in the given order, double-quoted. */
export function tagLine(name: string, attrs: [string, string | undefined][]): string {
  const written = attrs
    .filter((a): a is [string, string] => a[1] !== undefined)
    .map(([k, v]) => (k ? `${k}="${v.replace(/(["\\])/g, '\\$1')}"` : `"${v.replace(/(["\\])/g, '\\$1')}"`));
  return `{% ${name}${written.length ? ' ' + written.join(' ') : ''} %}`;
}

interface LineState {
  src: string;
  bMarks: number[];
  eMarks: number[];
  tShift: number[];
}

function lineText(state: LineState, line: number): string {
  return state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
}

/** Per tag name, its opening and end lines outside fenced code, in order: found in one pass over the source. */
type TagIndex = Map<string, { line: number; end: boolean }[]>;

function tagIndex(src: string): TagIndex {
  const index: TagIndex = new Map();
  let fence: string | null = null;
  src.split('\n').forEach((raw, line) => {
    const f = FENCE.exec(raw);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && !raw.trim().slice(f[1].length).trim()) fence = null;
      return;
    }
    if (f) {
      fence = f[1];
      return;
    }
    const m = TAG_LINE.exec(raw.trim());
    if (!m) return;
    const end = m[1].startsWith('end') && CONTAINERS.has(m[1].slice(3));
    const name = end ? m[1].slice(3) : m[1];
    if (!CONTAINERS.has(name)) return;
    let lines = index.get(name);
    if (!lines) index.set(name, (lines = []));
    lines.push({ line, end });
  });
  return index;
}

/**
 * The line that closes the tag opened at `start` (the same tag nested inside counted), or -1: a walk over that
 * tag's lines only, so a page of thousands of unclosed tags stays linear in practice.
 */
function closingLine(index: TagIndex, name: string, start: number, endLine: number): number {
  let depth = 0;
  for (const { line, end } of index.get(name) ?? []) {
    if (line <= start) continue;
    if (line >= endLine) break;
    if (!end) depth += 1;
    else if (depth-- === 0) return line;
  }
  return -1;
}

/** The markdown-it plugin: `gitbook_tag_open`/`_close` around a tag's blocks, `gitbook_tag` for a lone one (meta: name, attrs). */
export function gitbookTags(md: MarkdownIt): void {
  md.block.ruler.before(
    'fence',
    'gitbook_tag',
    (state, startLine, endLine, silent) => {
      if (state.sCount[startLine] - state.blkIndent >= 4) return false;
      const integration = INTEGRATION_START.exec(lineText(state, startLine));
      if (integration) return integrationTag(state, startLine, endLine, silent, integration[1]);
      const m = TAG_LINE.exec(lineText(state, startLine));
      if (!m) return false;
      const name = m[1];
      if (!CONTAINERS.has(name) && !LONE.has(name)) return false;
      const env = state.env as { gitbookTags?: TagIndex };
      env.gitbookTags ??= tagIndex(state.src);
      const close = CONTAINERS.has(name) ? closingLine(env.gitbookTags, name, startLine, endLine) : -1;
      if (close < 0 && !LONE.has(name)) return false;
      if (silent) return true;
      const meta = { name, attrs: name === 'if' ? {} : tagAttributes(m[2]), ...(name === 'if' ? { expression: m[2].trim() } : {}) };
      if (close < 0) {
        const token = state.push('gitbook_tag', '', 0);
        token.meta = meta;
        token.map = [startLine, startLine + 1];
        state.line = startLine + 1;
        return true;
      }
      const oldParent = state.parentType;
      const oldMax = state.lineMax;
      state.parentType = 'gitbook_tag' as typeof state.parentType;
      state.lineMax = close;
      const open = state.push('gitbook_tag_open', '', 1);
      open.meta = meta;
      open.map = [startLine, close + 1];
      open.block = true;
      state.md.block.tokenize(state, startLine + 1, close);
      state.push('gitbook_tag_close', '', -1).block = true;
      state.parentType = oldParent;
      state.lineMax = oldMax;
      state.line = close + 1;
      return true;
    },
    { alt: ['paragraph', 'reference', 'blockquote', 'list'] },
  );
}

/**
 * GitBook's math in markdown: `$$formula$$` (TeX) — inside text an inline formula, alone in its paragraph
 * (`$$` lines around it) a math block. A markdown-it inline rule: `$$` opens, the next `$$` closes; without a
 * closing `$$` it is text. Code spans are read first, so `` `$$` `` stays code.
 */
export function gitbookMath(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'gitbook_math', (state, silent) => {
    const start = state.pos;
    if (state.src.charCodeAt(start) !== 0x24 || state.src.charCodeAt(start + 1) !== 0x24) return false;
    const end = state.src.indexOf('$$', start + 2);
    if (end < 0 || end === start + 2) return false;
    if (!silent) state.push('gitbook_math', '', 0).content = state.src.slice(start + 2, end);
    state.pos = end + 2;
    return true;
  });
}

type BlockState = Parameters<Parameters<MarkdownIt['block']['ruler']['before']>[2]>[0];

/** An integration tag spans at most this many lines and characters (a diagram's source); longer, it is text. */
const INTEGRATION_LINES_MAX = 200;
const INTEGRATION_CHARS_MAX = 20_000;

/**
 * Lines of an integration tag, up to the line that ends it outside a quoted value. One scan over its characters
 * (quotes and escapes followed as they come), bounded: each start line costs at most the bounds above.
 */
function integrationTag(state: BlockState, startLine: number, endLine: number, silent: boolean, name: string): boolean {
  let quote: string | null = null;
  let chars = 0;
  const parts: string[] = [];
  for (let line = startLine; line < endLine && line < startLine + INTEGRATION_LINES_MAX; line++) {
    // The first line from its tag; the next ones as written (a diagram's indentation is its own).
    const from =
      line === startLine ? state.bMarks[line] + state.tShift[line] : Math.min(state.bMarks[line] + state.blkIndent, state.eMarks[line]);
    const text = state.src.slice(from, state.eMarks[line]);
    chars += text.length + 1;
    if (chars > INTEGRATION_CHARS_MAX) return false;
    parts.push(text);
    let i = line === startLine ? text.indexOf(name) + name.length : 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        if (c === '\\') i += 1;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '%' && text[i + 1] === '}') break;
    }
    if (quote || i >= text.length || text.slice(i + 2).trim() !== '') continue;
    if (silent) return true;
    const all = parts.join('\n');
    const body = all.slice(all.indexOf(name) + name.length).replace(/-?%\}\s*$/, '');
    const token = state.push('gitbook_tag', '', 0);
    token.meta = { name, attrs: tagAttributes(body) };
    token.map = [startLine, line + 1];
    state.line = line + 1;
    return true;
  }
  return false;
}
