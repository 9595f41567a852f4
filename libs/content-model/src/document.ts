import { InvalidInputError } from '@app/shared-kernel';
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
  /** Named parts of an inline (an `annotation`'s `annotation-body`). */
  fragments?: DocFragment[];
}

/**
 * An inline: a link or image (with its reference); `html`: raw HTML kept verbatim (sanitized), rendered back as
 * the same HTML; `markdown`: a construct the model has no place for (a footnote reference), kept as it was
 * written; `expression`: the official inline expression (`space.vars.version`), shown evaluated.
 */
export type DocInline =
  | (DocInlineBase & { type: 'link' | 'inline-image' | 'html' | 'markdown'; data: DocRefData })
  | (DocInlineBase & { type: 'expression'; data: { expression: string } })
  /** The official button (GitBook's `<a href="…" class="button primary" data-icon="rocket">Label</a>`). */
  | (DocInlineBase & { type: 'button'; data: ButtonData })
  /** The official icon (GitBook's `<i class="fa-rocket">:rocket:</i>`): a Font Awesome icon's name. */
  | (DocInlineBase & { type: 'icon'; data: { icon: string; color?: string } })
  /** The official annotation: its text (`nodes`) and its body (the `annotation-body` fragment); GitBook's footnote. */
  | (DocInlineBase & { type: 'annotation'; data: Record<string, never> })
  /** The official inline math (`data.formula`, TeX); GitBook's `$$formula$$` inside text. */
  | (DocInlineBase & { type: 'inline-math'; data: { formula: string } })
  /** The official emoji (`data.code`: its code points in hex, `1f680`). */
  | (DocInlineBase & { type: 'emoji'; data: { code: string } })
  /** The official mention of a page, space or user (`data.ref`); GitBook's link titled "mention". */
  | (DocInlineBase & { type: 'mention'; data: { ref: ContentRef } });

/** An official button's data: its label, kind, icon, and where it goes (a reference; an action is kept as given). */
export interface ButtonData {
  [key: string]: unknown;
  label: string;
  kind: 'primary' | 'secondary';
  /** The official size (large when unset). */
  size?: 'small' | 'medium' | 'large';
  icon?: string;
  ref?: ContentRef;
}

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
  return n.fragments ? [...nodes, ...n.fragments.flatMap((f) => f.nodes)] : nodes;
}

export interface JsonDocument {
  object: 'document';
  data: { schemaVersion?: number; [k: string]: unknown };
  nodes: DocBlock[];
}

/**
 * A document as the official schema allows it (a block's or an inline's `data`, a leaf's `marks` may be
 * left out), with those defaults written in: what every reader of a stored document may rely on. Nothing
 * is dropped: unknown block types, fields and fragments are kept as given. Only what is absent is filled
 * in: a `data` or `meta` that is there but not an object (a string, an array, `null`), or `nodes`,
 * `leaves` or `marks` that are there but not arrays, are refused with a 400 naming where (`where`: the
 * input's name). Input only (a copy; the stored documents are already complete).
 */
export function withDefaults(nodes: unknown[], where = 'document'): DocBlock[] {
  const refuse = (path: string, what: string) => {
    throw new InvalidInputError(`${where}.${path} must be ${what}`);
  };
  const object = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const fill = (node: unknown, path: string): unknown => {
    if (!object(node)) refuse(path, 'a node ({object: "block" | "inline" | "text", …})');
    const n = { ...(node as Record<string, unknown>) };
    if (n.object !== 'block' && n.object !== 'inline' && n.object !== 'text') refuse(`${path}.object`, '"block", "inline" or "text"');
    if (n.object === 'block' || n.object === 'inline') {
      if (n.data === undefined) n.data = {};
      else if (!object(n.data)) refuse(`${path}.data`, 'an object');
      checkData(n.object, n.type, n.data as Record<string, unknown>, `${path}.data`, refuse);
      if (n.meta !== undefined && !object(n.meta)) refuse(`${path}.meta`, 'an object');
      if (n.nodes !== undefined && !Array.isArray(n.nodes)) refuse(`${path}.nodes`, 'an array');
      if (Array.isArray(n.nodes)) n.nodes = n.nodes.map((c, i) => fill(c, `${path}.nodes[${i}]`));
      if (n.fragments !== undefined && !Array.isArray(n.fragments)) refuse(`${path}.fragments`, 'an array');
      if (Array.isArray(n.fragments))
        n.fragments = n.fragments.map((f: unknown, i) =>
          f && typeof f === 'object' && Array.isArray((f as DocFragment).nodes)
            ? { ...f, nodes: (f as DocFragment).nodes.map((c, k) => fill(c, `${path}.fragments[${i}].nodes[${k}]`)) }
            : f,
        );
    } else if (n.object === 'text') {
      if (n.leaves === undefined) n.leaves = [];
      else if (!Array.isArray(n.leaves)) refuse(`${path}.leaves`, 'an array');
      n.leaves = (n.leaves as unknown[]).map((l, i) => {
        if (!object(l)) refuse(`${path}.leaves[${i}]`, 'a leaf ({object: "leaf", text, marks})');
        const marks = (l as DocLeaf).marks;
        if (marks === undefined) return { ...(l as object), marks: [] };
        if (!Array.isArray(marks)) refuse(`${path}.leaves[${i}].marks`, 'an array');
        return l;
      });
    }
    return n;
  };
  return nodes.map((node, i) => fill(node, `nodes[${i}]`)) as DocBlock[];
}

/**
 * The `data` an official node of these types must have for anything to read it (the renderers, the markdown
 * writer): refused with a 400 naming where, rather than stored and failing each reader later.
 */
function checkData(
  object: unknown,
  type: unknown,
  data: Record<string, unknown>,
  path: string,
  refuse: (path: string, what: string) => never,
): void {
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const text = (key: string, optional = false) => {
    if (optional && data[key] === undefined) return;
    if (typeof data[key] !== 'string') refuse(`${path}.${key}`, 'a string');
  };
  const ref = (key: string, optional = false) => {
    if (optional && data[key] === undefined) return;
    const v = data[key];
    if (!isObject(v) || typeof (v as { kind?: unknown }).kind !== 'string') refuse(`${path}.${key}`, 'a content reference ({kind, …})');
  };
  if (object === 'inline')
    switch (type) {
      case 'button':
        text('label');
        if (data.kind !== 'primary' && data.kind !== 'secondary') refuse(`${path}.kind`, '"primary" or "secondary"');
        if (data.size !== undefined && !['small', 'medium', 'large'].includes(data.size as string))
          refuse(`${path}.size`, '"small", "medium" or "large"');
        text('icon', true);
        ref('ref', true);
        return;
      case 'icon':
        text('color', true);
        return text('icon');
      case 'mention':
        return ref('ref');
      case 'emoji':
        return text('code');
      case 'inline-math':
        return text('formula');
      default:
        return;
    }
  switch (type) {
    case 'if':
      return text('expression');
    case 'math':
      return text('formula');
    case 'integration':
      text('integration');
      text('block');
      return;
    case 'table':
      // What is there must have its shape (a reader walks it); what is absent reads as empty.
      if (data.view !== undefined && (!isObject(data.view) || !Array.isArray((data.view as { columns?: unknown }).columns)))
        refuse(`${path}.view`, 'an object with columns');
      if (data.definition !== undefined && (!isObject(data.definition) || !Object.values(data.definition as object).every(isObject)))
        refuse(`${path}.definition`, 'an object of column definitions');
      if (
        data.records !== undefined &&
        (!isObject(data.records) ||
          !Object.values(data.records as object).every((r) => isObject(r) && isObject((r as { values?: unknown }).values)))
      )
        refuse(`${path}.records`, 'an object of records with values');
      return;
    default:
      return;
  }
}

/** A document's own `data` and `meta`: absent is empty (data) or absent (meta); anything but an object is a 400. */
export function documentData(doc: { data?: unknown; meta?: unknown }, where = 'document'): JsonDocument['data'] {
  const object = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (doc.data !== undefined && !object(doc.data)) throw new InvalidInputError(`${where}.data must be an object`);
  if (doc.meta !== undefined && !object(doc.meta)) throw new InvalidInputError(`${where}.meta must be an object`);
  return (doc.data as JsonDocument['data'] | undefined) ?? {};
}

export const EMPTY_DOCUMENT: JsonDocument = { object: 'document', data: {}, nodes: [] };

/** Plain text of a document (for search and titles). */
export function documentText(doc: JsonDocument): string {
  const out: string[] = [];
  const walk = (n: DocBlock | DocInline | DocText) => {
    if (n.object === 'text') out.push(n.leaves.map((l) => l.text).join(''));
    else if (n.object === 'block' && n.type === 'table') {
      const records = (n.data.records ?? {}) as Record<string, { values: Record<string, unknown> }>;
      // Text and numbers (a reference or a checkbox has no words to find).
      for (const r of Object.values(records))
        out.push(
          Object.values(r.values ?? {})
            .flatMap((v) =>
              typeof v === 'string' || typeof v === 'number' ? [String(v)] : Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [],
            )
            .join(' '),
        );
    } else if (n.object === 'inline')
      (n.nodes ?? []).forEach(walk); // an annotation's words, not its body
    else innerNodes(n).forEach(walk);
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

/** An official emoji's character (its `code`: code points in hex joined by `-`, `1f680`); empty when it is none. */
export function emojiText(code: string): string {
  try {
    const points = code.split('-').map((hex) => parseInt(hex, 16));
    return points.every((n) => Number.isInteger(n) && n > 0 && n <= 0x10ffff) ? String.fromCodePoint(...points) : '';
  } catch {
    return '';
  }
}
