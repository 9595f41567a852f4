/**
 * One operation of an OpenAPI document as a reader needs it: method and path, what it takes (parameters,
 * request body) and what it answers (responses), each with a schema outline and an example. Internal
 * `$ref`s are followed (circular ones are named, not followed again); the outline stops at a fixed depth
 * so a huge or hostile document cannot make a huge page. Swagger 2.0 and OpenAPI 3.x alike.
 */
export interface SchemaView {
  type?: string;
  format?: string;
  description?: string;
  enum?: string[];
  nullable?: boolean;
  deprecated?: boolean;
  properties?: { name: string; required: boolean; schema: SchemaView }[];
  items?: SchemaView;
  /** oneOf / anyOf alternatives. */
  variants?: SchemaView[];
  /** The component's name when the outline stops here (a cycle, or the depth limit). */
  ref?: string;
}

export interface ParameterView {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema?: SchemaView;
}

export interface BodyView {
  contentType: string;
  description?: string;
  required?: boolean;
  schema?: SchemaView;
  /** The example the document gives, else one built from the schema; JSON text. */
  example?: string;
}

export interface ResponseView {
  status: string;
  description?: string;
  bodies: BodyView[];
}

export interface OperationView {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** The document's server URLs (absolute http(s) only), for the full URL of the operation. */
  servers: string[];
  parameters: ParameterView[];
  requestBody?: BodyView;
  responses: ResponseView[];
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const DEPTH_MAX = 6;
const PROPERTIES_MAX = 100;
const EXAMPLE_MAX = 20_000;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** The value a local `$ref` (`#/components/schemas/Pet`) points at, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(at) && !Array.isArray(at)) return undefined;
    at = Object.hasOwn(at as object, key) ? (at as Json)[key] : undefined;
  }
  return at;
}

/** Follows `$ref`s from `node` (a chain of them too); null for a dangling or cyclic chain. */
function deref(root: unknown, node: unknown): { value: Json; ref?: string } | null {
  let ref: string | undefined;
  const seen = new Set<string>();
  let at = node;
  while (isObject(at) && typeof at.$ref === 'string') {
    if (seen.has(at.$ref) || seen.size > 20) return null;
    seen.add(at.$ref);
    ref = at.$ref;
    at = resolvePointer(root, at.$ref);
  }
  return isObject(at) ? { value: at, ref } : null;
}

const nameOf = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function schemaView(root: unknown, node: unknown, depth: number, trail: Set<string>): SchemaView | undefined {
  const found = deref(root, node);
  if (!found) return undefined;
  const { value: s, ref } = found;
  if (ref && (trail.has(ref) || depth >= DEPTH_MAX)) return { ref: nameOf(ref), type: str(s.type) };
  const inner = ref ? new Set([...trail, ref]) : trail;
  const view: SchemaView = {};
  const type = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null').join(' | ') : str(s.type);
  if (type) view.type = type;
  if (Array.isArray(s.type) && s.type.includes('null')) view.nullable = true;
  if (s.nullable === true) view.nullable = true;
  if (str(s.format)) view.format = str(s.format);
  if (str(s.description)) view.description = str(s.description);
  if (s.deprecated === true) view.deprecated = true;
  if (Array.isArray(s.enum)) view.enum = s.enum.slice(0, 50).map((e) => JSON.stringify(e));
  if (depth >= DEPTH_MAX) return view;
  // allOf: the parts' properties together (the common way to extend a schema).
  const parts = [s, ...(Array.isArray(s.allOf) ? s.allOf.map((p) => deref(root, p)?.value).filter(isObject) : [])];
  const required = new Set(parts.flatMap((p) => (Array.isArray(p.required) ? p.required.filter((r) => typeof r === 'string') : [])));
  const properties = parts.flatMap((p) => (isObject(p.properties) ? Object.entries(p.properties) : []));
  if (properties.length) {
    view.type ??= 'object';
    view.properties = properties.slice(0, PROPERTIES_MAX).flatMap(([name, p]) => {
      const schema = schemaView(root, p, depth + 1, inner);
      return schema ? [{ name, required: required.has(name), schema }] : [];
    });
  }
  if (s.items !== undefined) view.items = schemaView(root, s.items, depth + 1, inner);
  const alternatives = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (alternatives)
    view.variants = alternatives.slice(0, 20).flatMap((a) => {
      const v = schemaView(root, a, depth + 1, inner);
      return v ? [v] : [];
    });
  return view;
}

/** An example built from a schema: the first enum value, an example, a default, else a value of its type. */
function exampleOf(root: unknown, node: unknown, depth: number, trail: Set<string>): unknown {
  const found = deref(root, node);
  if (!found || depth > DEPTH_MAX) return undefined;
  const { value: s, ref } = found;
  if (ref && trail.has(ref)) return undefined;
  const inner = ref ? new Set([...trail, ref]) : trail;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const parts = [s, ...(Array.isArray(s.allOf) ? s.allOf.map((p) => deref(root, p)?.value).filter(isObject) : [])];
  const properties = parts.flatMap((p) => (isObject(p.properties) ? Object.entries(p.properties) : []));
  if (properties.length) {
    const out: Json = {};
    for (const [name, p] of properties.slice(0, PROPERTIES_MAX)) {
      const v = exampleOf(root, p, depth + 1, inner);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
  const alternatives = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (alternatives?.length) return exampleOf(root, alternatives[0], depth + 1, inner);
  const type: unknown = Array.isArray(s.type) ? (s.type as unknown[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'array': {
      const item = exampleOf(root, s.items, depth + 1, inner);
      return item === undefined ? [] : [item];
    }
    case 'object':
      return {};
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return true;
    case 'string':
      return s.format === 'date-time' ? '2024-01-01T00:00:00Z' : s.format === 'date' ? '2024-01-01' : 'string';
    default:
      return undefined;
  }
}

function exampleText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > EXAMPLE_MAX ? `${text.slice(0, EXAMPLE_MAX)}\n…` : text;
}

function bodies(root: unknown, content: unknown, description?: string, required?: boolean): BodyView[] {
  if (!isObject(content)) return [];
  return Object.entries(content)
    .slice(0, 10)
    .flatMap(([contentType, media]) => {
      if (!isObject(media)) return [];
      const given =
        media.example !== undefined
          ? media.example
          : isObject(media.examples)
            ? deref(root, Object.values(media.examples)[0])?.value.value
            : undefined;
      return [
        {
          contentType,
          description,
          required,
          schema: schemaView(root, media.schema, 0, new Set()),
          example: exampleText(given !== undefined ? given : exampleOf(root, media.schema, 0, new Set())),
        },
      ];
    });
}

/** Swagger 2.0's media types for a body: JSON when offered (the examples are JSON), else the first. */
const preferJson = (types: unknown[]): string => (types.includes('application/json') ? 'application/json' : String(types[0]));

/** The operation `method path` of a parsed document, or null when the document has no such operation. */
export function operationView(doc: unknown, method: string, path: string): OperationView | null {
  const verb = method.toLowerCase();
  if (!isObject(doc) || !METHODS.has(verb) || !isObject(doc.paths) || !Object.hasOwn(doc.paths, path)) return null;
  return itemOperationView(doc, doc.paths[path], verb, path);
}

/**
 * The webhook `name` (its `method`) of an OpenAPI 3.1 document (`webhooks`), as an operation whose path is the
 * webhook's name: what the API sends, and what it expects back. Null when there is no such webhook.
 */
export function webhookView(doc: unknown, name: string, method: string): OperationView | null {
  const verb = method.toLowerCase();
  if (!isObject(doc) || !METHODS.has(verb) || !isObject(doc.webhooks) || !Object.hasOwn(doc.webhooks, name)) return null;
  return itemOperationView(doc, doc.webhooks[name], verb, name);
}

/** The named schemas of a document (`components.schemas`, Swagger 2.0's `definitions`) as outlines; unknown names left out. */
export function schemasView(doc: unknown, names: string[]): { name: string; schema: SchemaView }[] {
  if (!isObject(doc)) return [];
  const swagger2 = typeof doc.swagger === 'string';
  const holder = swagger2 ? doc.definitions : isObject(doc.components) ? doc.components.schemas : undefined;
  if (!isObject(holder)) return [];
  const base = swagger2 ? '#/definitions/' : '#/components/schemas/';
  return names.slice(0, 50).flatMap((name) => {
    if (!Object.hasOwn(holder, name)) return [];
    const schema = schemaView(doc, { $ref: `${base}${name.replace(/~/g, '~0').replace(/\//g, '~1')}` }, 0, new Set());
    return schema ? [{ name, schema }] : [];
  });
}

function itemOperationView(doc: Json, pathItem: unknown, verb: string, path: string): OperationView | null {
  const item = deref(doc, pathItem)?.value;
  const op = item && isObject(item[verb]) ? item[verb] : null;
  if (!item || !op) return null;
  const swagger2 = typeof doc.swagger === 'string';
  const servers = swagger2
    ? str(doc.host)
      ? [
          `${Array.isArray(doc.schemes) && doc.schemes.includes('https') ? 'https' : 'http'}://${doc.host as string}${str(doc.basePath) ?? ''}`,
        ]
      : []
    : (Array.isArray(doc.servers) ? doc.servers : []).flatMap((s) =>
        isObject(s) && typeof s.url === 'string' && /^https?:\/\//i.test(s.url) ? [s.url.replace(/\/$/, '')] : [],
      );
  // Path-level parameters first, overridden by the operation's own (same name and place).
  const params = new Map<string, Json>();
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  for (const p of [...list(item.parameters), ...list(op.parameters)]) {
    const found = deref(doc, p)?.value;
    if (found && typeof found.name === 'string' && typeof found.in === 'string') params.set(`${found.in} ${found.name}`, found);
  }
  let requestBody: BodyView | undefined;
  const parameters: ParameterView[] = [];
  for (const p of params.values()) {
    if (swagger2 && p.in === 'body') {
      const consumes = Array.isArray(op.consumes) ? op.consumes : Array.isArray(doc.consumes) ? doc.consumes : ['application/json'];
      requestBody = bodies(doc, { [preferJson(consumes)]: { schema: p.schema } }, str(p.description), p.required === true)[0];
      continue;
    }
    parameters.push({
      name: p.name as string,
      in: p.in as string,
      required: p.required === true || p.in === 'path',
      description: str(p.description),
      deprecated: p.deprecated === true || undefined,
      schema: schemaView(doc, swagger2 ? p : p.schema, 0, new Set()),
    });
  }
  const body = deref(doc, op.requestBody)?.value;
  if (body) requestBody = bodies(doc, body.content, str(body.description), body.required === true)[0];
  const produces = Array.isArray(op.produces) ? op.produces : Array.isArray(doc.produces) ? doc.produces : ['application/json'];
  const responses = (isObject(op.responses) ? Object.entries(op.responses) : []).flatMap(([status, r]): ResponseView[] => {
    const found = deref(doc, r)?.value;
    if (!found) return [];
    const content = swagger2 ? (found.schema ? { [preferJson(produces)]: { schema: found.schema } } : null) : found.content;
    return [{ status, description: str(found.description), bodies: bodies(doc, content) }];
  });
  return {
    method: verb,
    path,
    operationId: str(op.operationId),
    summary: str(op.summary),
    description: str(op.description),
    deprecated: op.deprecated === true,
    servers,
    parameters,
    requestBody,
    responses,
  };
}
