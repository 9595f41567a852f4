import type { DocBlock, DocInline, DocText, JsonDocument } from './document';

/**
 * What a document names besides its text, read before it is rendered or served: the code it holds, the
 * reusable contents it includes, the OpenAPI operations it shows. Pure queries over the official document
 * JSON (the published-page assembler asks them; the renderer reads blocks with the same functions).
 */

/** Where an OpenAPI operation block points: the spec's slug, the method (lowercase) and the path. */
export interface OperationRef {
  spec: string;
  method: string;
  path: string;
}

/** Every block of a document, at any depth: inside blocks, their fragments, and inlines' fragments (an annotation's body). */
function eachBlock(doc: JsonDocument, visit: (b: DocBlock) => void): void {
  const walk = (nodes: (DocBlock | DocInline | DocText)[] | undefined) => {
    for (const n of nodes ?? []) {
      if (n.object === 'text') continue;
      if (n.object === 'block') visit(n);
      walk(n.nodes);
      for (const f of n.fragments ?? []) walk(f.nodes);
    }
  };
  walk(doc.nodes);
}

/** Where an OpenAPI operation block points (official `data`: `ref` {kind: openapi, spec}, `method`, `path`), or null. */
export function operationRef(b: DocBlock): OperationRef | null {
  const ref = b.data.ref as { kind?: unknown; spec?: unknown } | undefined;
  const { method, path } = b.data;
  return ref?.kind === 'openapi' && typeof ref.spec === 'string' && typeof method === 'string' && typeof path === 'string'
    ? { spec: ref.spec, method: method.toLowerCase(), path }
    : null;
}

/** The languages of a document's code blocks (to prepare the highlighter before the render); `json` for API examples. */
export function codeSyntaxes(doc: JsonDocument): Set<string> {
  const out = new Set<string>();
  eachBlock(doc, (b) => {
    if (b.type === 'code' && typeof b.data.syntax === 'string') out.add(b.data.syntax);
    if (b.type === 'openapi-operation') out.add('json');
  });
  return out;
}

/** A code block's lines and language (letters, digits, `_+-`), as the render reads them. */
export function codeOf(b: DocBlock): { lines: string[]; syntax: string } {
  const lines = (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block').map((line) => blockText(line.nodes));
  const syntax = typeof b.data.syntax === 'string' ? b.data.syntax.replace(/[^A-Za-z0-9_+-]/g, '') : '';
  return { lines, syntax };
}

/** A document's code, block by block, as the render highlights it (to tokenize ahead of a visitor). */
export function codeBlocks(doc: JsonDocument): { code: string; syntax: string }[] {
  const out: { code: string; syntax: string }[] = [];
  eachBlock(doc, (b) => {
    if (b.type !== 'code') return;
    const { lines, syntax } = codeOf(b);
    out.push({ code: lines.join('\n'), syntax });
  });
  return out;
}

/** The reusable contents a document's blocks include (to fetch their documents before the render). */
export function includedContents(doc: JsonDocument): string[] {
  const out = new Set<string>();
  eachBlock(doc, (b) => {
    const ref = b.type === 'reusable-content' ? (b.data.ref as { kind?: string; reusableContent?: unknown } | undefined) : undefined;
    if (ref?.kind === 'reusable-content' && typeof ref.reusableContent === 'string') out.add(ref.reusableContent);
  });
  return [...out];
}

/** Where an OpenAPI webhook block points (official `data`: `ref` {kind: openapi, spec}, `name`, `method`), or null. */
export interface WebhookRef {
  spec: string;
  name: string;
  method: string;
}
export function webhookRef(b: DocBlock): WebhookRef | null {
  const ref = b.data.ref as { kind?: unknown; spec?: unknown } | undefined;
  const { method, name } = b.data;
  return b.type === 'openapi-webhook' &&
    ref?.kind === 'openapi' &&
    typeof ref.spec === 'string' &&
    typeof method === 'string' &&
    typeof name === 'string'
    ? { spec: ref.spec, name, method: method.toLowerCase() }
    : null;
}

/** Where an OpenAPI schemas block points (official `data`: `ref` {kind: openapi, spec}, `schemas`), or null. */
export interface SchemasRef {
  spec: string;
  schemas: string[];
}
export function schemasRef(b: DocBlock): SchemasRef | null {
  const ref = b.data.ref as { kind?: unknown; spec?: unknown } | undefined;
  const schemas = Array.isArray(b.data.schemas) ? b.data.schemas.filter((x): x is string => typeof x === 'string') : [];
  return b.type === 'openapi-schemas' && ref?.kind === 'openapi' && typeof ref.spec === 'string' && schemas.length
    ? { spec: ref.spec, schemas }
    : null;
}

/** A `swagger` block whose spec is a file of the space: the file, the method (lowercase) and the path. */
export interface SpecFileRef {
  file: string;
  method: string;
  path: string;
}
export function specFileRef(b: DocBlock): SpecFileRef | null {
  const ref = b.data.ref as { kind?: unknown; file?: unknown } | undefined;
  const { method, path } = b.data;
  return b.type === 'swagger' &&
    ref?.kind === 'file' &&
    typeof ref.file === 'string' &&
    typeof method === 'string' &&
    typeof path === 'string'
    ? { file: ref.file, method: method.toLowerCase(), path }
    : null;
}
export function specFileRefs(doc: JsonDocument): SpecFileRef[] {
  const out: SpecFileRef[] = [];
  eachBlock(doc, (b) => {
    const ref = specFileRef(b);
    if (ref) out.push(ref);
  });
  return out;
}

/** What a document's OpenAPI blocks name: operations, webhooks, schemas (to resolve them before the render). */
export function apiRefs(doc: JsonDocument): { operations: OperationRef[]; webhooks: WebhookRef[]; schemas: SchemasRef[] } {
  const out = { operations: [] as OperationRef[], webhooks: [] as WebhookRef[], schemas: [] as SchemasRef[] };
  eachBlock(doc, (b) => {
    const operation = b.type === 'openapi-operation' ? operationRef(b) : null;
    if (operation) out.operations.push(operation);
    const webhook = webhookRef(b);
    if (webhook) out.webhooks.push(webhook);
    const schemas = schemasRef(b);
    if (schemas) out.schemas.push(schemas);
  });
  return out;
}

/** The API operations a document's blocks name (to resolve them before the render). */
export function operationRefs(doc: JsonDocument): OperationRef[] {
  const out: OperationRef[] = [];
  eachBlock(doc, (b) => {
    const ref = b.type === 'openapi-operation' ? operationRef(b) : null;
    if (ref) out.push(ref);
  });
  return out;
}

/** The text of a node list (every leaf, in order). */
export function blockText(nodes: (DocBlock | DocInline | DocText)[] | undefined): string {
  let out = '';
  for (const n of nodes ?? []) {
    if (n.object === 'text') out += n.leaves.map((l) => l.text).join('');
    else out += blockText(n.nodes);
  }
  return out;
}

/** The expression of an `{% else %}` branch: the negation of its `{% if %}`'s (written back as an else). */
export function negated(expression: string): string {
  return `!(${expression})`;
}

/** The expressions of a document's conditional (`if`) blocks, each once, in order (what a visitor's page depends on). */
export function conditionExpressions(doc: JsonDocument): string[] {
  const out = new Set<string>();
  eachBlock(doc, (b) => {
    if (b.type === 'if') out.add(typeof b.data.expression === 'string' ? b.data.expression : '');
  });
  return [...out];
}

/**
 * The document a visitor sees: each `if` block replaced by its blocks when `holds` its expression, left out
 * otherwise (at any depth, fragments included). The same document when it has none. What is left out never
 * reaches anything made from the result (HTML, markdown, search text, an assistant's sources).
 */
export function evaluateConditions(doc: JsonDocument, holds: (expression: string) => boolean): JsonDocument {
  let found = false;
  eachBlock(doc, (b) => (found ||= b.type === 'if'));
  if (!found) return doc;
  const nodes = <T extends DocBlock | DocInline | DocText>(list: T[]): T[] =>
    list.flatMap((n): T[] => {
      if (n.object === 'text') return [n];
      if (n.object === 'block' && n.type === 'if')
        return holds(typeof n.data.expression === 'string' ? n.data.expression : '') ? (nodes(n.nodes ?? []) as T[]) : [];
      return [
        {
          ...n,
          ...(n.nodes ? { nodes: nodes(n.nodes) } : {}),
          ...(n.fragments ? { fragments: n.fragments.map((f) => ({ ...f, nodes: nodes(f.nodes) })) } : {}),
        },
      ];
    });
  return { ...doc, nodes: nodes(doc.nodes) };
}
