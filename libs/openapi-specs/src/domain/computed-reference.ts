import { InvalidInputError, NotFoundError } from '@app/shared-kernel';

/**
 * An API reference computed from an OpenAPI document (the official `builtin:openapi` computed content): pages
 * of GitBook markdown whose blocks name the spec's operations and schemas (`{% openapi-operation %}`,
 * `{% openapi-schemas %}`), resolved against the spec's latest version whenever a page is shown. Operations
 * are grouped by their first tag, in the order the document declares its tags; untagged operations go under
 * `default` (as Swagger UI groups them). Swagger 2.0 and OpenAPI 3.x alike.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export const DOC_METHODS = [...METHODS, 'hook'] as const;
export const UNTAGGED = 'default';
/** Schemas one `openapi-schemas` block names (the render outlines at most 50). */
const SCHEMAS_PER_BLOCK = 50;
/** What a path or a name must be to stand in a tag's attribute: no quote, no line break, no `%}`. */
const ATTRIBUTE_SAFE = /^(?!.*%\})[^"\n\r]*$/;

export interface SpecOperation {
  path: string;
  method: string;
  tag: string;
  summary?: string;
  deprecated: boolean;
}

export type ReferenceDocumentProps =
  | { doc: 'models' }
  | { doc: 'operations' | 'info' | 'tag'; page: string }
  | { doc: 'operation'; page: string; method: (typeof DOC_METHODS)[number]; deprecated?: boolean };

export interface ReferenceRevisionProps {
  models: boolean;
  downloadLink: boolean;
  grouping: 'by-tag' | 'by-operation';
}

/** A page of the computed reference: its key (for its id), title, slug, body (GitBook markdown) and children. */
export interface ReferencePage {
  key: string;
  title: string;
  markdown: string;
  children: ReferencePage[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The operations of the document, in its order; paths a tag's attribute cannot hold are left out. */
export function specOperations(doc: unknown): SpecOperation[] {
  if (!isObject(doc) || !isObject(doc.paths)) return [];
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item) || !ATTRIBUTE_SAFE.test(path)) continue;
    for (const method of Object.keys(item).filter((k) => (METHODS as readonly string[]).includes(k))) {
      const op = item[method];
      if (!isObject(op)) continue;
      const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [];
      out.push({ path, method, tag: tags[0] ?? UNTAGGED, summary: text(op.summary), deprecated: op.deprecated === true });
    }
  }
  return out;
}

/** The tags operations are grouped by: those the document declares (in its order), then others used, then `default`. */
export function specTags(doc: unknown): { name: string; description?: string }[] {
  const declared = isObject(doc) && Array.isArray(doc.tags) ? doc.tags.filter(isObject) : [];
  const out = new Map<string, { name: string; description?: string }>();
  for (const t of declared)
    if (typeof t.name === 'string' && t.name.trim()) out.set(t.name, { name: t.name, description: text(t.description) });
  const used = new Set(specOperations(doc).map((o) => o.tag));
  for (const name of used) if (name !== UNTAGGED && !out.has(name)) out.set(name, { name });
  const tags = [...out.values()].filter((t) => used.has(t.name) && t.name !== UNTAGGED);
  // Untagged operations last (a tag the document itself names `default` keeps its description).
  if (used.has(UNTAGGED)) tags.push(out.get(UNTAGGED) ?? { name: UNTAGGED });
  return tags;
}

function schemaNames(doc: unknown): string[] {
  if (!isObject(doc)) return [];
  const holder = typeof doc.swagger === 'string' ? doc.definitions : isObject(doc.components) ? doc.components.schemas : undefined;
  return isObject(holder) ? Object.keys(holder).filter((n) => ATTRIBUTE_SAFE.test(n) && !n.includes(',')) : [];
}

function webhookMethod(doc: unknown, name: string): string | null {
  if (!isObject(doc) || !isObject(doc.webhooks) || !Object.hasOwn(doc.webhooks, name)) return null;
  const item = doc.webhooks[name];
  return isObject(item) ? (METHODS.find((m) => isObject(item[m])) ?? null) : null;
}

const attr = (v: string) => v.replace(/"/g, '');
const operationBlock = (spec: string, o: { path: string; method: string }) =>
  `{% openapi-operation spec="${attr(spec)}" path="${attr(o.path)}" method="${o.method}" %}\n{% endopenapi-operation %}`;
const modelsMarkdown = (spec: string, names: string[]) => {
  const blocks: string[] = [];
  for (let i = 0; i < names.length; i += SCHEMAS_PER_BLOCK)
    blocks.push(
      `{% openapi-schemas spec="${attr(spec)}" schemas="${names.slice(i, i + SCHEMAS_PER_BLOCK).join(',')}" grouped="false" %}\n{% endopenapi-schemas %}`,
    );
  return blocks.join('\n\n');
};
const join = (...parts: (string | undefined)[]) => `${parts.filter((p) => p !== undefined && p !== '').join('\n\n')}\n`;

/** The props of a computed document, checked (400 with what is wrong). */
export function checkDocumentProps(props: Obj): ReferenceDocumentProps {
  const doc = props.doc;
  const page = props.page;
  if (doc === 'models') return { doc };
  if (doc !== 'operations' && doc !== 'info' && doc !== 'tag' && doc !== 'operation')
    throw new InvalidInputError('source.props.doc must be one of models, operations, info, tag, operation');
  if (typeof page !== 'string' || page.length < 1 || page.length > 2048)
    throw new InvalidInputError(`source.props.page must be a string of 1 to 2048 characters for doc "${doc}"`);
  if (doc !== 'operation') return { doc, page };
  const method = props.method;
  if (typeof method !== 'string' || !(DOC_METHODS as readonly string[]).includes(method))
    throw new InvalidInputError(`source.props.method must be one of ${DOC_METHODS.join(', ')}`);
  if (props.deprecated !== undefined && typeof props.deprecated !== 'boolean')
    throw new InvalidInputError('source.props.deprecated must be a boolean');
  return { doc, page, method: method as (typeof DOC_METHODS)[number], deprecated: props.deprecated };
}

/** The props of a computed revision, checked: `models` required, `grouping` by-tag (default) or by-operation. */
export function checkRevisionProps(props: Obj): ReferenceRevisionProps {
  if (typeof props.models !== 'boolean') throw new InvalidInputError('source.props.models must be a boolean');
  if (props.downloadLink !== undefined && typeof props.downloadLink !== 'boolean')
    throw new InvalidInputError('source.props.downloadLink must be a boolean');
  const grouping = props.grouping ?? 'by-tag';
  if (grouping !== 'by-tag' && grouping !== 'by-operation')
    throw new InvalidInputError('source.props.grouping must be by-tag or by-operation');
  return { models: props.models, downloadLink: props.downloadLink === true, grouping };
}

/**
 * One computed document, as GitBook markdown: `info` (the API's description; `page` names nothing more),
 * `tag` (the tag's description), `operations` (the blocks of the tag's operations), `operation` (one
 * operation, or with method `hook` the webhook `page`), `models` (every schema). 404 when what is named is not
 * in the spec.
 */
export function referenceDocument(doc: unknown, spec: string, props: ReferenceDocumentProps): string {
  switch (props.doc) {
    case 'models':
      return join(modelsMarkdown(spec, schemaNames(doc)));
    case 'info': {
      const info = isObject(doc) && isObject(doc.info) ? doc.info : {};
      return join(text(info.description));
    }
    case 'tag': {
      const tag = specTags(doc).find((t) => t.name === props.page);
      if (!tag) throw new NotFoundError('Tag', props.page);
      return join(tag.description);
    }
    case 'operations': {
      const ops = specOperations(doc).filter((o) => o.tag === props.page);
      if (ops.length === 0) throw new NotFoundError('Tag', props.page);
      return join(...ops.map((o) => operationBlock(spec, o)));
    }
    case 'operation': {
      if (props.method === 'hook') {
        const method = ATTRIBUTE_SAFE.test(props.page) ? webhookMethod(doc, props.page) : null;
        if (!method) throw new NotFoundError('Webhook', props.page);
        return join(`{% openapi-webhook spec="${attr(spec)}" name="${attr(props.page)}" method="${method}" %}\n{% endopenapi-webhook %}`);
      }
      const op = specOperations(doc).find((o) => o.path === props.page && o.method === props.method);
      if (!op) throw new NotFoundError('Operation', `${props.method.toUpperCase()} ${props.page}`);
      return join(operationBlock(spec, op));
    }
  }
}

/**
 * The pages of a computed reference: `by-tag`, a page per tag (its description, then its operations);
 * `by-operation`, a page per tag holding a page per operation (titled by its summary, else `METHOD path`);
 * then, with `models`, a Models page. `downloadUrl` (a public spec's address) opens the first page with a
 * link to download the spec.
 */
export function referencePages(doc: unknown, spec: string, props: ReferenceRevisionProps, downloadUrl?: string): ReferencePage[] {
  const ops = specOperations(doc);
  const pages: ReferencePage[] = specTags(doc).map((tag) => {
    const mine = ops.filter((o) => o.tag === tag.name);
    if (props.grouping === 'by-tag')
      return {
        key: `tag:${tag.name}`,
        title: tag.name,
        markdown: join(tag.description, ...mine.map((o) => operationBlock(spec, o))),
        children: [],
      };
    return {
      key: `tag:${tag.name}`,
      title: tag.name,
      markdown: join(tag.description),
      children: mine.map((o) => ({
        key: `operation:${o.method} ${o.path}`,
        title: o.summary ?? `${o.method.toUpperCase()} ${o.path}`,
        markdown: join(operationBlock(spec, o)),
        children: [],
      })),
    };
  });
  const models = schemaNames(doc);
  if (props.models && models.length)
    pages.push({ key: 'models', title: 'Models', markdown: join(modelsMarkdown(spec, models)), children: [] });
  if (props.downloadLink && downloadUrl && pages.length)
    pages[0] = { ...pages[0], markdown: join(`[Download the OpenAPI specification](${downloadUrl})`, pages[0].markdown.trim()) };
  return pages;
}
