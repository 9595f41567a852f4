import { h, type ComponentChild, type ComponentChildren } from 'preact';
import katex from 'katex';
import sanitizeHtml from 'sanitize-html';
import {
  cellInlines,
  HINT_STYLES,
  TEXT_COLORS,
  emojiText,
  slugify,
  type ContentRef,
  type DocBlock,
  type DocInline,
  type DocLeaf,
  type DocText,
  type JsonDocument,
  blockText as textOf,
  codeOf,
  operationRef,
  schemasRef,
  specFileRef,
  webhookRef,
  type SchemasRef,
  type SpecFileRef,
  type WebhookRef,
} from '@app/content-model';
import type { CodeHighlighter } from './highlight';
import { iconElement } from './icons';

/** The icon of each hint style, as GitBook's renderer draws them. */
const HINT_ICONS: Record<string, string> = {
  info: 'circle-info',
  warning: 'circle-exclamation',
  danger: 'triangle-exclamation',
  success: 'circle-check',
};

/** What a screen reader announces for each hint style (GitBook's `hint_*` labels). */
const HINT_LABELS: Record<string, string> = { info: 'Information', warning: 'Warning', danger: 'Danger', success: 'Success' };
import { mermaidSource, type DrawnDiagram } from './diagrams';
import { paragraphs, schemaTree, type ApiBody, type ApiOperation, type ApiOperations, type ApiSchema } from './api-reference';

/** What a render may use besides the links: a prepared highlighter, the page's API operations. */
export interface RenderOptions {
  highlighter?: CodeHighlighter;
  operations?: ApiOperations;
  /** A reusable content's document, by id (null: not in the revision). */
  reusable?: (id: string) => JsonDocument | null;
  /** An inline expression's value (`space.vars.version`), null when it names no variable. */
  variables?: (expression: string) => string | null;
  /**
   * Whether the visitor may see an `if` block's content (its expression on their claims). Without it nothing
   * conditional is shown: what a condition guards is never shown by default.
   */
  condition?: (expression: string) => boolean;
  /** The operation of a `swagger` block whose spec is a file of the space (read and parsed before the render). */
  specFile?: (ref: SpecFileRef) => ApiOperation | null;
  /** The webhooks the page's `openapi-webhook` blocks name (as operations: what the API sends). */
  webhooks?: (ref: WebhookRef) => ApiOperation | null;
  /** The schemas the page's `openapi-schemas` blocks name, as outlines. */
  schemas?: (ref: SchemasRef) => { name: string; schema: ApiSchema }[] | null;
  /** A mermaid diagram's drawings (MermaidDiagrams, prepared before the render); null: shown as its source. */
  diagram?: (source: string) => DrawnDiagram | null;
  /**
   * Links that lead nowhere (a page or file that is gone, a relative link no import resolved) are marked as
   * broken, with what they name (a member's preview); without it they are their text, as visitors see them.
   */
  markBroken?: boolean;
}

/** How a document's references become site URLs: the renderer knows no site, space or file store. */
export interface DocumentLinks {
  /** The URL a reference goes to (a page of the site, a file download, an external URL, an anchor); null: nowhere. */
  href(ref: ContentRef): string | null;
  /** The title of what a reference names (a page's title, for a mention); null when unknown. */
  title?(ref: ContentRef): string | null;
}

/** A heading of the page, for the on-page table of contents. */
export interface Heading {
  id: string;
  text: string;
  level: 2 | 3 | 4;
}

const MARK_TAGS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  code: 'code',
  strikethrough: 's',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

/** Raw HTML kept in a document, cleaned: formatting and links only, no script, style, frame or event handler. */
export function sanitize(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'details', 'summary', 'picture', 'source', 'figure', 'figcaption', 'mark'],
    allowedAttributes: {
      a: ['href', 'name', 'title'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      source: ['srcset', 'media', 'type'],
      '*': ['align'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}

/** A column of a table's definition (the official DocumentTableDefinition*: its type, title, alignment). */
interface TableColumn {
  title?: string;
  type?: string;
  textAlignment?: string;
}

/** A table's records in their order. */
function tableRecords(b: DocBlock): { orderIndex?: string; values?: Record<string, unknown> }[] {
  return Object.values(
    (b.data.records as Record<string, { orderIndex?: string; values?: Record<string, unknown> }> | undefined) ?? {},
  ).sort((x, y) => ((x.orderIndex ?? '') < (y.orderIndex ?? '') ? -1 : 1));
}

/** A table cell's value as its markdown source (numbers and booleans as written; anything else: empty). */
function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** A record's value that shows nothing (a card leaves its column out, title and all). */
function emptyValue(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && v.length === 0);
}

/** An inline formula as MathML (as `mathBlock`), or its TeX source when KaTeX cannot read it. */
function mathInline(formula: string): ComponentChild {
  try {
    const mathml = katex.renderToString(formula, {
      output: 'mathml',
      displayMode: false,
      throwOnError: true,
      trust: false,
      maxExpand: 200,
      maxSize: 50,
    });
    return h('span', { class: 'math-inline', dangerouslySetInnerHTML: { __html: mathml } });
  } catch {
    return h('code', { class: 'math-inline' }, formula);
  }
}

/**
 * A formula rendered on the server as MathML (KaTeX, no script in the page, no style attribute: the
 * CSP allows none). A formula KaTeX cannot read is shown as its TeX source.
 */
function mathBlock(formula: string): ComponentChild {
  let mathml: string;
  try {
    mathml = katex.renderToString(formula, {
      output: 'mathml',
      displayMode: true,
      throwOnError: true,
      trust: false,
      maxExpand: 200,
      maxSize: 50,
    });
  } catch {
    return h('pre', { class: 'math' }, h('code', null, formula));
  }
  return h('div', { class: 'math', dangerouslySetInnerHTML: { __html: mathml } });
}

/**
 * A document as preact elements: every block type of Quire's document model, escaped by construction
 * (text is always a child, never markup; kept raw HTML goes through `sanitize`). Headings get ids and
 * anchor links, collected in `headings` for the on-page table of contents.
 */
export class DocumentRenderer {
  readonly headings: Heading[] = [];
  private readonly ids = new Set<string>();
  /** The reusable contents being rendered (an include of itself is not followed). */
  private readonly including = new Set<string>();
  /** Annotations rendered so far (each body gets an id of its own). */
  private annotations = 1;

  constructor(
    private readonly links: DocumentLinks,
    private readonly options: RenderOptions = {},
  ) {}

  render(doc: JsonDocument): ComponentChild {
    return h('div', { class: 'document' }, this.blocks(doc.nodes));
  }

  /** Blocks, inlines and texts alike (a paragraph holds inlines, a list item blocks). */
  private blocks(nodes: (DocBlock | DocInline | DocText)[] | undefined): ComponentChildren[] {
    return (nodes ?? []).map((n) => (n.object === 'block' ? this.block(n) : this.inline(n)));
  }

  private anchorId(text: string): string {
    const base = slugify(text, 'section');
    let id = base;
    for (let i = 2; this.ids.has(id); i++) id = `${base}-${i}`;
    this.ids.add(id);
    return id;
  }

  private fragment(b: DocBlock, name: string): DocBlock[] {
    return b.fragments?.find((f) => f.fragment === name)?.nodes ?? [];
  }

  private block(b: DocBlock): ComponentChildren {
    const align = typeof b.data.align === 'string' && ['left', 'center', 'right'].includes(b.data.align) ? b.data.align : undefined;
    // Classes, not style attributes: the site's Content-Security-Policy allows no inline style.
    const aligned = align ? `align-${align}` : undefined;
    switch (b.type) {
      case 'paragraph':
        return h('p', { class: aligned }, this.blocks(b.nodes));
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        // The page title is the h1: the document's headings start at h2.
        const level = (Number(b.type.slice(-1)) + 1) as 2 | 3 | 4;
        const text = textOf(b.nodes);
        const id = this.anchorId(text);
        this.headings.push({ id, text, level });
        return h(`h${level}`, { id, class: aligned }, [
          ...this.blocks(b.nodes),
          h('a', { class: 'anchor', href: `#${id}`, 'aria-label': `Link to “${text}”` }, '#'),
        ]);
      }
      case 'list-unordered':
        return h('ul', null, this.blocks(b.nodes));
      case 'list-ordered':
        return h('ol', { start: typeof b.data.start === 'number' && b.data.start !== 1 ? b.data.start : undefined }, this.blocks(b.nodes));
      case 'list-tasks':
        return h(
          'ul',
          { class: 'tasks' },
          (b.nodes ?? []).map((item) =>
            item.object === 'block'
              ? h('li', null, [
                  h('input', { type: 'checkbox', disabled: true, checked: item.data.checked === true, 'aria-label': 'done' }),
                  ...this.blocks(item.nodes),
                ])
              : this.inline(item),
          ),
        );
      case 'list-item':
        return h('li', null, this.blocks(b.nodes));
      case 'blockquote':
        return h('blockquote', null, this.blocks(b.nodes));
      case 'divider':
        return h('hr', null);
      case 'hint': {
        const kind = typeof b.data.style === 'string' && HINT_STYLES.has(b.data.style) ? b.data.style : 'info';
        // GitBook's icon column: the style's icon, or the hint's own (`data.icon`) when Font Awesome has it.
        // A hint whose first block is a heading shows it as a header row across the tinted box, as GitBook does.
        const own = typeof b.data.icon === 'string' ? iconElement(b.data.icon) : null;
        const [first, ...rest] = b.nodes ?? [];
        const headed = first?.object === 'block' && /^heading-[1-3]$/.test(first.type);
        return h('div', { class: `hint hint-${kind}${headed ? ' hint-headed' : ''}`, role: 'note', 'aria-label': HINT_LABELS[kind] }, [
          h('span', { class: 'hint-icon' }, own ?? iconElement(HINT_ICONS[kind])),
          headed ? h('div', { class: 'hint-head' }, this.block(first)) : null,
          h('div', { class: 'hint-body' }, this.blocks(headed ? rest : b.nodes)),
        ]);
      }
      case 'code':
        return this.code(b);
      case 'table':
        return (b.data.view as { type?: unknown } | undefined)?.type === 'cards' ? this.cards(b) : this.table(b);
      case 'if':
        // Conditional content: shown when the visitor's claims satisfy its expression, else nothing at all.
        return typeof b.data.expression === 'string' && this.options.condition?.(b.data.expression) === true ? this.blocks(b.nodes) : null;
      case 'images':
        return h('div', { class: aligned ? `images ${aligned}` : 'images' }, this.blocks(b.nodes));
      case 'image':
        return this.image(b);
      case 'file': {
        const ref = b.data.ref as ContentRef | undefined;
        const href = ref ? this.links.href(ref) : null;
        const caption = typeof b.data.caption === 'string' && b.data.caption ? b.data.caption : 'Download the file';
        return h('p', { class: 'file' }, href ? h('a', { href, download: '' }, caption) : caption);
      }
      case 'embed': {
        const url = typeof b.data.url === 'string' ? b.data.url : null;
        const safe = url && /^https?:\/\//i.test(url) ? url : null;
        return h(
          'p',
          { class: 'embed' },
          safe ? h('a', { href: safe, rel: 'noopener noreferrer' }, textOf(b.nodes) || safe) : textOf(b.nodes),
        );
      }
      case 'content-ref': {
        const ref = b.data.ref as ContentRef | undefined;
        const href = ref ? this.links.href(ref) : null;
        return h('p', { class: 'content-ref' }, href ? h('a', { href }, textOf(b.nodes) || href) : null);
      }
      case 'expandable':
        return h('details', { class: 'expandable', open: b.data.defaultExpanded === true }, [
          h('summary', null, this.blocks(this.fragment(b, 'expandable-title').flatMap((t) => t.nodes ?? []))),
          ...this.blocks(this.fragment(b, 'expandable-body')),
        ]);
      case 'tabs':
        return h(
          'div',
          { class: 'tabs' },
          (b.nodes ?? []).map((tab) =>
            tab.object === 'block'
              ? h('section', { class: 'tab' }, [
                  h('p', { class: 'tab-title' }, typeof tab.data.title === 'string' ? tab.data.title : ''),
                  ...this.blocks(tab.nodes),
                ])
              : this.inline(tab),
          ),
        );
      case 'stepper':
        return h('ol', { class: 'stepper' }, this.blocks(b.nodes));
      case 'stepper-step':
        return h('li', { class: 'step' }, this.blocks(b.nodes));
      case 'columns':
        return h('div', { class: 'columns' }, this.blocks(b.nodes));
      case 'column':
        return h('div', { class: 'column' }, this.blocks(b.nodes));
      case 'math':
        return mathBlock(typeof b.data.formula === 'string' ? b.data.formula : textOf(b.nodes));
      case 'html':
        return h('div', {
          class: 'html',
          dangerouslySetInnerHTML: { __html: sanitize(typeof b.data.html === 'string' ? b.data.html : '') },
        });
      case 'markdown':
        return h('p', null, typeof b.data.markdown === 'string' ? b.data.markdown : '');
      case 'openapi-operation':
        return this.operation(b);
      case 'openapi-webhook': {
        const ref = webhookRef(b);
        const op = ref ? (this.options.webhooks?.(ref) ?? null) : null;
        return op
          ? this.operationView(op, `Webhook ${ref!.name}`)
          : this.missing(ref ? `The webhook ${ref.method.toUpperCase()} ${ref.name} (${ref.spec})` : 'An API webhook');
      }
      case 'openapi-schemas': {
        const ref = schemasRef(b);
        const found = ref ? (this.options.schemas?.(ref) ?? null) : null;
        if (!ref || !found?.length) return this.missing(ref ? `The schemas ${ref.schemas.join(', ')} (${ref.spec})` : 'API schemas');
        const custom = typeof b.data.title === 'string' && b.data.title ? b.data.title : null;
        return h(
          'section',
          { class: 'api-schemas' },
          found.map(({ name, schema }) => {
            const title = custom && found.length === 1 ? custom : `The ${name} object`;
            const id = this.anchorId(title);
            this.headings.push({ id, text: title, level: 2 });
            return [
              h('h2', { id }, [title, h('a', { class: 'anchor', href: `#${id}`, 'aria-label': `Link to “${title}”` }, '#')]),
              ...paragraphs(schema.description),
              schemaTree(schema),
            ];
          }),
        );
      }
      case 'reusable-content': {
        // The included document, in place; one that is gone (or includes itself) says so rather than vanish.
        const id = (b.data.ref as { reusableContent?: unknown } | undefined)?.reusableContent;
        const doc = typeof id === 'string' && !this.including.has(id) ? (this.options.reusable?.(id) ?? null) : null;
        if (!doc || typeof id !== 'string')
          return h('div', { class: 'api-missing', role: 'note' }, h('p', null, 'This reusable content is not available.'));
        this.including.add(id);
        try {
          return h('div', { class: 'reusable-content' }, this.blocks(doc.nodes));
        } finally {
          this.including.delete(id);
        }
      }
      case 'prompt': {
        // The official prompt block: a prompt to copy (its code block), shown or folded as `defaultExpanded` says,
        // with links that open it in an assistant when `openInAIProviders` is set.
        const description = typeof b.data.description === 'string' ? b.data.description : 'Prompt';
        const code = (b.nodes ?? []).find((n): n is DocBlock => n.object === 'block' && n.type === 'code');
        const prompt = code ? codeOf(code).lines.join('\n') : textOf(b.nodes);
        const open = b.data.defaultExpanded === 'partial' || b.data.defaultExpanded === 'full';
        const q = encodeURIComponent(prompt);
        const providers =
          b.data.openInAIProviders === true
            ? h('p', { class: 'prompt-providers' }, [
                h('a', { href: `https://chatgpt.com/?q=${q}`, rel: 'noopener noreferrer' }, 'Open in ChatGPT'),
                ' ',
                h('a', { href: `https://claude.ai/new?q=${q}`, rel: 'noopener noreferrer' }, 'Open in Claude'),
              ])
            : null;
        return h('details', { class: 'prompt', open }, [h('summary', null, description), ...this.blocks(b.nodes), providers]);
      }
      case 'drawing': {
        // A drawing made in GitBook's editor: its image (an SVG file of the space).
        const ref = b.data.ref as ContentRef | undefined;
        const src = ref ? this.links.href(ref) : null;
        return src ? h('figure', { class: 'image drawing' }, h('img', { src, alt: 'Drawing', loading: 'lazy' })) : null;
      }
      case 'integration': {
        // A mermaid diagram drawn as images (light and dark); another integration's block cannot run here: said so.
        const source = mermaidSource(b);
        if (source !== null) {
          const drawn = this.options.diagram?.(source) ?? null;
          const label = `Diagram: ${source.trim().split('\n')[0]}`;
          return drawn
            ? h('figure', { class: 'diagram' }, [
                h('img', { class: 'img-light', src: drawn.light, alt: label }),
                h('img', { class: 'img-dark', src: drawn.dark, alt: label }),
              ])
            : h('figure', { class: 'diagram' }, h('pre', { tabIndex: 0 }, h('code', null, source)));
        }
        const name = typeof b.data.integration === 'string' ? b.data.integration : 'an';
        const url = typeof b.data.url === 'string' && /^https?:\/\//i.test(b.data.url) ? b.data.url : null;
        return h('div', { class: 'api-missing', role: 'note' }, [
          h('p', null, `This block comes from the ${name} integration, which this site does not run.`),
          url ? h('p', null, h('a', { href: url, rel: 'noopener noreferrer' }, url)) : null,
        ]);
      }
      case 'swagger': {
        // A spec file of the space: its operation drawn. A URL (nothing is fetched for a visitor): a link to it.
        const fileRef = specFileRef(b);
        const fromFile = fileRef ? (this.options.specFile?.(fileRef) ?? null) : null;
        if (fromFile) return this.operationView(fromFile);
        const ref = b.data.ref as ContentRef | undefined;
        const href = ref ? this.links.href(ref) : null;
        const part = (v: unknown) => (typeof v === 'string' ? v : '');
        const label = `${part(b.data.method).toUpperCase()} ${part(b.data.path)}`.trim() || 'API reference';
        return h('p', { class: 'embed' }, href ? h('a', { href, rel: 'noopener noreferrer' }, label) : label);
      }
      default:
        // A block this renderer has no form for (an integration, a drawing …): its content, plainly.
        return h('div', { class: 'block', 'data-type': b.type }, this.blocks(b.nodes));
    }
  }

  /** An API reference from one of the organization's OpenAPI specs: endpoint, parameters, request, responses. */
  private operation(b: DocBlock): ComponentChild {
    const ref = operationRef(b);
    const op = ref ? (this.options.operations?.(ref) ?? null) : null;
    if (!ref || !op) return this.missing(ref ? `${ref.method.toUpperCase()} ${ref.path} (${ref.spec})` : 'An API operation');
    return this.operationView(op);
  }

  /** What an API block names but the organization's specs do not hold (now): said, not left blank. */
  private missing(what: string): ComponentChild {
    return h('div', { class: 'api-operation api-missing', role: 'note' }, h('p', null, `${what} is not available.`));
  }

  /** An operation (or a webhook, titled `heading`) drawn: endpoint, parameters, request body, responses. */
  private operationView(op: ApiOperation, heading?: string): ComponentChild {
    const method = op.method.toUpperCase();
    const title = op.summary ?? heading ?? `${method} ${op.path}`;
    const id = this.anchorId(op.summary ?? `${op.method} ${op.path}`);
    this.headings.push({ id, text: title, level: 2 });
    const sub = (text: string) => h('h3', { id: this.anchorId(`${id} ${text}`) }, text);
    const body = (x: ApiBody) => [
      h('p', { class: 'api-content-type' }, [
        h('code', null, x.contentType),
        x.required ? h('span', { class: 'api-required' }, ' required') : null,
      ]),
      ...paragraphs(x.description),
      schemaTree(x.schema),
      x.example ? this.codeFigure(x.example.split('\n'), 'json', 'Example', false) : null,
    ];
    return h('section', { class: 'api-operation', 'aria-labelledby': id }, [
      h('h2', { id }, [title, h('a', { class: 'anchor', href: `#${id}`, 'aria-label': `Link to “${title}”` }, '#')]),
      h('p', { class: 'api-endpoint' }, [
        h('span', { class: `api-method api-${op.method}` }, method),
        ' ',
        h('code', null, `${op.servers[0] ?? ''}${op.path}`),
      ]),
      op.deprecated ? h('p', { class: 'api-deprecated', role: 'note' }, 'Deprecated') : null,
      ...paragraphs(op.description),
      op.parameters.length
        ? [
            sub('Parameters'),
            h(
              'div',
              { class: 'table', tabIndex: 0 },
              h('table', null, [
                h(
                  'thead',
                  null,
                  h(
                    'tr',
                    null,
                    ['Name', 'In', 'Type', 'Description'].map((c) => h('th', { scope: 'col' }, c)),
                  ),
                ),
                h(
                  'tbody',
                  null,
                  op.parameters.map((p) =>
                    h('tr', null, [
                      h('td', null, [h('code', null, p.name), p.required ? h('span', { class: 'api-required' }, ' required') : null]),
                      h('td', null, p.in),
                      h('td', null, p.schema ? h('code', null, p.schema.type ?? 'any') : null),
                      h('td', null, [...paragraphs(p.description), p.schema?.enum ? `One of: ${p.schema.enum.join(', ')}` : null]),
                    ]),
                  ),
                ),
              ]),
            ),
          ]
        : null,
      op.requestBody ? [sub('Request body'), ...body(op.requestBody)] : null,
      op.responses.length
        ? [
            sub('Responses'),
            ...op.responses.map((r, i) =>
              h('details', { class: 'api-response', open: i === 0 }, [
                h('summary', null, [h('code', null, r.status), r.description ? ` ${r.description.split('\n')[0]}` : null]),
                ...r.bodies.flatMap(body),
              ]),
            ),
          ]
        : null,
    ]);
  }

  private code(b: DocBlock): ComponentChild {
    const { lines, syntax } = codeOf(b);
    const title = typeof b.data.title === 'string' && b.data.title ? b.data.title : null;
    const highlighted = new Set((b.nodes ?? []).flatMap((n, i) => (n.object === 'block' && n.data.highlighted === true ? [i] : [])));
    return this.codeFigure(lines, syntax, title, b.data.lineNumbers === true, highlighted);
  }

  /** A code block: its title, its lines (highlighted when the language is prepared), numbered or not. */
  private codeFigure(lines: string[], syntax: string, title: string | null, numbered: boolean, marked = new Set<number>()): ComponentChild {
    const highlighted = this.options.highlighter?.tokens(lines.join('\n'), syntax) ?? null;
    // A line the writer highlighted (GitBook's `<strong>` in `<pre>`) is marked for the stylesheet.
    const lineClass = (i: number) => (marked.has(i) ? 'line highlighted' : 'line');
    const content = highlighted
      ? highlighted.map((tokens, i) =>
          h('span', { class: lineClass(i) }, [
            ...tokens.map((t) => (t.className ? h('span', { class: t.className }, t.text) : t.text)),
            '\n',
          ]),
        )
      : lines.map((line, i) => h('span', { class: lineClass(i) }, line + '\n'));
    return h('figure', { class: 'code' }, [
      title ? h('figcaption', null, title) : null,
      h(
        'pre',
        { class: numbered ? 'numbered' : undefined, tabIndex: 0 },
        h('code', { class: syntax ? `language-${syntax}` : undefined }, content),
      ),
    ]);
  }

  private table(b: DocBlock): ComponentChild {
    const view = (b.data.view as { columns?: string[] } | undefined) ?? {};
    const columns = Array.isArray(view.columns) ? view.columns : [];
    const definition = (b.data.definition as Record<string, TableColumn> | undefined) ?? {};
    const records = tableRecords(b);
    const cell = (source: string) => {
      const inlines = source ? cellInlines(source) : [];
      return inlines ? this.blocks(inlines) : source;
    };
    const alignOf = (c: string) => {
      const a = definition[c]?.textAlignment;
      return a === 'left' || a === 'center' || a === 'right' ? `align-${a}` : undefined;
    };
    return h(
      'div',
      { class: 'table', tabIndex: 0 },
      h('table', null, [
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            columns.map((c) => h('th', { scope: 'col', class: alignOf(c) }, cell(definition[c]?.title ?? ''))),
          ),
        ),
        h(
          'tbody',
          null,
          records.map((r) =>
            h(
              'tr',
              null,
              columns.map((c) => h('td', { class: alignOf(c) }, this.cellValue(definition[c], r.values?.[c], false))),
            ),
          ),
        ),
      ]),
    );
  }

  private image(b: DocBlock): ComponentChild {
    const ref = b.data.ref as ContentRef | undefined;
    const src = ref ? this.links.href(ref) : null;
    const alt = typeof b.data.alt === 'string' ? b.data.alt : '';
    // The official caption is a fragment (one paragraph, with its marks and links); Quire's older `data.caption` a string.
    const fragment = this.fragment(b, 'caption')[0];
    const caption: ComponentChildren | null = fragment
      ? this.blocks(fragment.nodes)
      : typeof b.data.caption === 'string' && b.data.caption
        ? b.data.caption
        : null;
    const size = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined);
    const dark = b.data.refDark as ContentRef | undefined;
    const darkSrc = dark ? this.links.href(dark) : null;
    const img = (url: string, theme?: string) =>
      h('img', { src: url, alt, loading: 'lazy', width: size(b.data.width), height: size(b.data.height), class: theme });
    // A dark variant: one image per theme, the stylesheet shows the one of the page's theme.
    const images = src && darkSrc ? [img(src, 'img-light'), img(darkSrc, 'img-dark')] : src ? [img(src)] : [];
    return h('figure', { class: 'image' }, [...images, caption ? h('figcaption', null, caption) : null]);
  }

  private inline(n: DocInline | DocText): ComponentChildren {
    if (n.object === 'text') return n.leaves.map((l) => this.leaf(l));
    switch (n.type) {
      case 'link': {
        const href = this.links.href(n.data.ref);
        const external = n.data.ref.kind === 'url';
        const content = this.blocks(n.nodes);
        if (href) return h('a', { href, title: n.data.title, rel: external ? 'noopener noreferrer' : undefined }, content);
        return this.options.markBroken ? this.broken(n.data.ref, content) : h('span', null, content);
      }
      case 'inline-image': {
        const src = this.links.href(n.data.ref);
        const dark = n.data.refDark ? this.links.href(n.data.refDark as ContentRef) : null;
        const size = n.data.size === 'line' ? 'inline-line' : '';
        const img = (url: string, theme: string) =>
          h('img', {
            src: url,
            alt: n.data.alt ?? '',
            title: n.data.title,
            loading: 'lazy',
            class: [theme, size].filter(Boolean).join(' ') || undefined,
          });
        return src ? (dark ? [img(src, 'img-light'), img(dark, 'img-dark')] : img(src, '')) : null;
      }
      case 'html':
        return h('span', { dangerouslySetInnerHTML: { __html: sanitize(n.data.html ?? '') } });
      case 'button': {
        const href = n.data.ref ? this.links.href(n.data.ref) : null;
        const icon = n.data.icon ? iconElement(n.data.icon) : null;
        const kind = n.data.kind === 'secondary' ? 'secondary' : 'primary';
        // The official sizes (large when unset, as GitBook's editor makes them).
        const size = n.data.size === 'small' || n.data.size === 'medium' ? n.data.size : 'large';
        const classes = `button button-${kind} button-${size}`;
        const content = [icon, h('span', null, n.data.label)];
        return href
          ? h('a', { class: classes, href, rel: n.data.ref?.kind === 'url' ? 'noopener noreferrer' : undefined }, content)
          : h('span', { class: classes }, content);
      }
      case 'icon': {
        // The official colour: a palette name or `$` token, as a class (the stylesheet holds the colours).
        const color = typeof n.data.color === 'string' && n.data.color !== 'default' && TEXT_COLORS.has(n.data.color) ? n.data.color : null;
        return color ? h('span', { class: `color tc-${color.replace('$', '')}` }, iconElement(n.data.icon)) : iconElement(n.data.icon);
      }
      case 'emoji':
        return emojiText(n.data.code);
      case 'inline-math':
        return mathInline(n.data.formula);
      case 'mention': {
        const href = this.links.href(n.data.ref);
        const title = this.links.title?.(n.data.ref) ?? href ?? '';
        return href ? h('a', { class: 'mention', href }, title) : h('span', { class: 'mention' }, title);
      }
      case 'annotation': {
        // The annotated words (a focusable `<dfn>`, as GitBook's), and the annotation beside them on hover or focus,
        // pinned open by a click (the site's script): its blocks as blocks. Inside a paragraph only phrasing
        // content is valid HTML, so each block is a `span` drawn as a block.
        const id = this.anchorId(`annotation-${this.annotations++}`);
        // (Conditional blocks are evaluated before a page is rendered; one left here is never shown.)
        const notes = (n.fragments?.find((f) => f.fragment === 'annotation-body')?.nodes ?? []).filter((b) => b.type !== 'if');
        const body = notes.map((b) =>
          h(
            'span',
            { class: `annotation-block annotation-${b.type}` },
            b.type === 'paragraph' || b.type.startsWith('heading-')
              ? this.blocks(b.nodes)
              : b.type === 'code'
                ? h('code', null, textOf([b]))
                : textOf([b]),
          ),
        );
        return h('span', { class: 'annotation' }, [
          h('dfn', { class: 'annotated', tabIndex: 0, 'aria-describedby': id }, this.blocks(n.nodes)),
          h('span', { class: 'annotation-body', role: 'tooltip', id }, body),
        ]);
      }
      case 'expression': {
        // `space.vars.name` / `page.vars.name`: the variable's value; anything else is shown as written.
        const value = this.options.variables?.(n.data.expression) ?? null;
        return value !== null ? value : h('code', { class: 'expression' }, n.data.expression);
      }
      default:
        return (n.data as { markdown?: string }).markdown ?? textOf(n.nodes);
    }
  }

  /**
   * The official cards view of a table, as GitBook lays it out: a grid of one, two or three columns by the width
   * it has (large cards: one or two), or one row that scrolls sideways when `wrap` is false. One card per
   * record: its cover (light and dark, fitted as the record asks), the visible columns' values under their titles
   * (unless `hideColumnTitle`), empty ones left out, and its target: the card's first value links there, and the
   * whole card is that link's area (one link per card, no link inside another).
   */
  private cards(b: DocBlock): ComponentChild {
    const view = b.data.view as {
      columns?: unknown;
      cardSize?: unknown;
      targetDefinition?: unknown;
      coverDefinition?: unknown;
      coverDefinitionDark?: unknown;
      hideColumnTitle?: unknown;
      wrap?: unknown;
    };
    const columns = Array.isArray(view.columns) ? view.columns.filter((c): c is string => typeof c === 'string') : [];
    const definition = (b.data.definition as Record<string, TableColumn> | undefined) ?? {};
    // A cover: a files column's first file, an image column's reference, or the official image record
    // (`{ref, objectFit, alt}`).
    const coverOf = (v: unknown): { ref: ContentRef; fit?: unknown; alt?: unknown } | null => {
      if (Array.isArray(v)) return typeof v[0] === 'string' ? { ref: { kind: 'file', file: v[0] } } : null;
      const record = v && typeof v === 'object' && 'ref' in v ? (v as { ref: unknown; objectFit?: unknown; alt?: unknown }) : null;
      const x = record ? record.ref : v;
      return x && typeof x === 'object' && typeof (x as { kind?: unknown }).kind === 'string'
        ? { ref: x as ContentRef, fit: record?.objectFit, alt: record?.alt }
        : null;
    };
    const column = (v: unknown) => (typeof v === 'string' && definition[v] ? v : null);
    const target = column(view.targetDefinition);
    const cover = column(view.coverDefinition);
    const coverDark = column(view.coverDefinitionDark);
    const size = view.cardSize === 'large' ? 'large' : 'medium';
    const carousel = view.wrap === false;
    const table = this.anchorId(`cards-${b.key ?? 'table'}`);
    const list = h(
      'ul',
      { class: `cards cards-${size}` },
      tableRecords(b).map((r, row) => {
        const values = r.values ?? {};
        const targetRef = target ? coverOf(values[target])?.ref : undefined;
        const href = targetRef ? this.links.href(targetRef) : null;
        const image = (c: string | null, theme: string) => {
          const found = c ? coverOf(values[c]) : null;
          const src = found ? this.links.href(found.ref) : null;
          if (!src) return null;
          const fit = found!.fit === 'contain' || found!.fit === 'fill' ? ` fit-${found!.fit}` : '';
          const alt = typeof found!.alt === 'string' ? found!.alt : '';
          return h('img', { class: `card-cover${theme}${fit}`, src, alt, loading: 'lazy' });
        };
        const light = image(cover, '');
        const dark = image(coverDark, '');
        const images = light && dark ? [image(cover, ' img-light'), image(coverDark, ' img-dark')] : [light ?? dark];
        const shown = columns.filter((c) => c !== target && c !== cover && c !== coverDark && !emptyValue(values[c]));
        const cells: ComponentChild[] = shown.map((c, i) => {
          const content = this.cellValue(definition[c], values[c], true);
          const value =
            i === 0 && href
              ? h('a', { class: 'card-target', href, rel: targetRef?.kind === 'url' ? 'noopener noreferrer' : undefined }, content)
              : content;
          const own = definition[c]?.title;
          const title = view.hideColumnTitle !== true && typeof own === 'string' ? own.trim() : '';
          if (!title) return h('div', { class: 'card-field' }, value);
          const id = `${table}-${row}-${i}`;
          return h('div', { class: 'card-field' }, [
            h('div', { class: 'card-label', id }, title),
            h('div', { 'aria-labelledby': id }, value),
          ]);
        });
        if (href && shown.length === 0) cells.push(h('a', { class: 'card-target', href }, href));
        return h('li', { class: href ? 'card card-linked' : 'card' }, [...images, h('div', { class: 'card-body' }, cells)]);
      }),
    );
    // The carousel scrolls with the keyboard too: the row is a focusable, named region.
    return carousel
      ? h('div', { class: 'cards-frame cards-carousel', role: 'region', tabIndex: 0, 'aria-label': 'Cards (scroll sideways)' }, list)
      : h('div', { class: 'cards-frame' }, list);
  }

  /** A table cell's value as its column's type shows it (in a card: links as text, the card is the link). */
  private cellValue(column: TableColumn | undefined, value: unknown, inCard: boolean): ComponentChildren {
    const type = column?.type ?? 'text';
    const ref =
      value && typeof value === 'object' && !Array.isArray(value) ? ((value as { ref?: ContentRef }).ref ?? (value as ContentRef)) : null;
    switch (type) {
      case 'checkbox':
        return h('input', { type: 'checkbox', disabled: true, checked: value === true, 'aria-label': column?.title || 'checked' });
      case 'number':
      case 'rating':
        return typeof value === 'number' ? String(value) : stringOf(value);
      case 'image': {
        const src = ref && typeof ref.kind === 'string' ? this.links.href(ref) : null;
        return src ? h('img', { src, alt: '', loading: 'lazy' }) : null;
      }
      case 'content-ref':
      case 'files': {
        const refs: (ContentRef | null)[] = Array.isArray(value)
          ? value.map((id) => (typeof id === 'string' ? { kind: 'file' as const, file: id } : null))
          : [ref];
        return refs.map((r) => {
          const href = r && typeof r.kind === 'string' ? this.links.href(r) : null;
          return href ? (inCard ? h('span', null, href) : h('a', { href }, href)) : null;
        });
      }
      case 'select':
      case 'users':
        return Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(', ') : stringOf(value);
      default: {
        const source = stringOf(value);
        const inlines = source ? cellInlines(source) : [];
        if (!inlines) return source;
        // In a card, links are text: the card's target is its one link.
        return inCard
          ? this.blocks(
              inlines.map((x) =>
                x.object === 'inline' && x.type === 'link'
                  ? { object: 'text' as const, leaves: (x.nodes ?? []).flatMap((t) => (t.object === 'text' ? t.leaves : [])) }
                  : x,
              ),
            )
          : this.blocks(inlines);
      }
    }
  }

  /** A link that leads nowhere, marked for a member: a wavy underline, what it named in its title, said to screen readers. */
  private broken(ref: ContentRef, content: ComponentChildren): ComponentChild {
    const named =
      ref.kind === 'url'
        ? ref.url.slice(0, 200)
        : ref.kind === 'page'
          ? 'a page that is gone'
          : ref.kind === 'file'
            ? 'a file that is gone'
            : `a ${ref.kind} that is gone`;
    return h('span', { class: 'broken-link', title: `Broken link: ${named}` }, [
      content,
      h('span', { class: 'visually-hidden' }, ' (broken link)'),
    ]);
  }

  private leaf(l: DocLeaf): ComponentChildren {
    let out: ComponentChildren = l.text;
    for (const mark of l.marks ?? []) {
      if (mark.type === 'color') {
        // The official colour mark: palette names and `$` tokens as classes (the stylesheet holds the colours).
        const classes = [
          ['tc', mark.data?.text],
          ['bg', mark.data?.background],
        ]
          .filter(([, c]) => typeof c === 'string' && c !== 'default' && TEXT_COLORS.has(c))
          .map(([kind, c]) => `${kind}-${c.replace('$', '')}`);
        if (classes.length) out = h('mark', { class: `color ${classes.join(' ')}` }, out);
        continue;
      }
      const tag = MARK_TAGS[mark.type];
      if (tag) out = h(tag, null, out);
    }
    return out;
  }
}
