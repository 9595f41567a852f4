/**
 * The rich-text document of spec part 1 §2.1 (the official JSONDocument): blocks of inlines and texts,
 * texts made of leaves with marks. Only the plain shapes Quire produces are typed here.
 */
/** The official text colours of a colour mark (`DocumentTextColor`): palette names and semantic `$` tokens. */
export const TEXT_COLORS: ReadonlySet<string> = new Set([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
]);

export type DocMark =
  | { object: 'mark'; type: 'bold' | 'italic' | 'code' | 'strikethrough' | 'keyboard' | 'superscript' | 'subscript' }
  /** The official colour mark: text and background colour (GitBook's `<mark style="color:red;">`). */
  | { object: 'mark'; type: 'color'; data: { text: string; background: string } };

export interface DocLeaf {
  object: 'leaf';
  text: string;
  marks: DocMark[];
}

export interface DocText {
  object: 'text';
  leaves: DocLeaf[];
}

export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'reusable-content'; reusableContent: string };

interface DocInlineBase {
  object: 'inline';
  key?: string;
  isVoid: boolean;
  /** A link's content: texts, and images (a badge is an image inside a link). */
  nodes?: (DocText | DocInline)[];
}

/**
 * An inline: a link or image (with its reference); `html`: raw HTML kept verbatim (sanitized), rendered back as
 * the same HTML; `markdown`: a construct the model has no place for (a footnote reference), kept as it was
 * written; `expression`: the official inline expression (`space.vars.version`), shown evaluated.
 */
export type DocInline =
  | (DocInlineBase & { type: 'link' | 'inline-image' | 'html' | 'markdown'; data: DocRefData })
  | (DocInlineBase & { type: 'expression'; data: { expression: string } });

/** The data of a link, an image, kept HTML or markdown. */
export interface DocRefData {
  [key: string]: unknown;
  ref: ContentRef;
  alt?: string;
  title?: string;
  html?: string;
  markdown?: string;
}

export interface DocBlock {
  object: 'block';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  nodes?: (DocBlock | DocInline | DocText)[];
  /** Named parts of a void block (an `expandable`'s `expandable-title` and `expandable-body`). */
  fragments?: DocFragment[];
}

export interface DocFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  type: string;
  nodes: DocBlock[];
}

/** What a node holds: its nodes, then the nodes of its fragments. */
export function innerNodes(n: DocBlock | DocInline | DocText): (DocBlock | DocInline | DocText)[] {
  if (n.object === 'text') return [];
  const nodes = n.nodes ?? [];
  return n.object === 'block' && n.fragments ? [...nodes, ...n.fragments.flatMap((f) => f.nodes)] : nodes;
}

export interface JsonDocument {
  object: 'document';
  data: { schemaVersion?: number; [k: string]: unknown };
  nodes: DocBlock[];
}

/**
 * A document as the official schema allows it (a block's or an inline's `data`, a leaf's `marks` may be
 * left out), with those defaults written in: what every reader of a stored document may rely on. Nothing
 * is dropped: unknown block types, fields and fragments are kept as given. Input only (a copy; the
 * stored documents are already complete).
 */
export function withDefaults(nodes: unknown[]): DocBlock[] {
  const fill = (node: unknown): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const n = { ...(node as Record<string, unknown>) };
    if (n.object === 'block' || n.object === 'inline') {
      if (n.data === undefined || n.data === null) n.data = {};
      if (Array.isArray(n.nodes)) n.nodes = n.nodes.map(fill);
      if (Array.isArray(n.fragments))
        n.fragments = n.fragments.map((f: unknown) =>
          f && typeof f === 'object' && Array.isArray((f as DocFragment).nodes) ? { ...f, nodes: (f as DocFragment).nodes.map(fill) } : f,
        );
    } else if (n.object === 'text') {
      if (!Array.isArray(n.leaves)) n.leaves = [];
      n.leaves = (n.leaves as unknown[]).map((l) =>
        l && typeof l === 'object' && !Array.isArray((l as DocLeaf).marks) ? { ...l, marks: [] } : l,
      );
    }
    return n;
  };
  return nodes.map(fill) as DocBlock[];
}

export const EMPTY_DOCUMENT: JsonDocument = { object: 'document', data: {}, nodes: [] };

/** Plain text of a document (for search and titles). */
export function documentText(doc: JsonDocument): string {
  const out: string[] = [];
  const walk = (n: DocBlock | DocInline | DocText) => {
    if (n.object === 'text') out.push(n.leaves.map((l) => l.text).join(''));
    else if (n.object === 'block' && n.type === 'table') {
      const records = (n.data.records ?? {}) as Record<string, { values: Record<string, unknown> }>;
      for (const r of Object.values(records)) out.push(Object.values(r.values).join(' '));
    } else innerNodes(n).forEach(walk);
    if (n.object === 'block') out.push('\n');
  };
  doc.nodes.forEach(walk);
  return out
    .join('')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** The official hint styles (a hint block's `data.style`). */
export const HINT_STYLES: ReadonlySet<string> = new Set(['info', 'success', 'warning', 'danger']);
