import type { OperationRef } from '@app/content-model';
import { h, type ComponentChild } from 'preact';

/**
 * An API operation as the renderer draws it (an OpenAPI operation block). The sites context hands over
 * what the openapi-specs context outlines from the organization's spec; these are the fields drawn.
 */
export interface ApiSchema {
  type?: string;
  format?: string;
  description?: string;
  enum?: string[];
  nullable?: boolean;
  deprecated?: boolean;
  properties?: { name: string; required: boolean; schema: ApiSchema }[];
  items?: ApiSchema;
  variants?: ApiSchema[];
  ref?: string;
}

export interface ApiBody {
  contentType: string;
  description?: string;
  required?: boolean;
  schema?: ApiSchema;
  example?: string;
}

export interface ApiOperation {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  servers: string[];
  parameters: { name: string; in: string; required: boolean; description?: string; deprecated?: boolean; schema?: ApiSchema }[];
  requestBody?: ApiBody;
  responses: { status: string; description?: string; bodies: ApiBody[] }[];
}

/** Where an operation block points: the spec's slug, the method and the path. */
export type ApiOperationRef = OperationRef;

/** The operations a page's blocks name, resolved before the (synchronous) render; null: not available. */
export type ApiOperations = (ref: ApiOperationRef) => ApiOperation | null;

/** Plain text, its blank-line paragraphs kept (an OpenAPI description is markdown; shown as text, never as HTML). */
export function paragraphs(text: string | undefined): ComponentChild[] {
  return (text ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => h('p', null, p));
}

function typeLabel(s: ApiSchema): string {
  let label = s.type === 'array' && s.items ? `${typeLabel(s.items)}[]` : (s.type ?? (s.variants ? 'one of' : s.ref ? s.ref : 'any'));
  if (s.format) label += ` (${s.format})`;
  if (s.nullable) label += ' | null';
  return label;
}

/** A schema as a nested list: each property's name, type, whether it is required, its description and values. */
export function schemaTree(s: ApiSchema | undefined): ComponentChild {
  if (!s) return null;
  const fields = s.properties ?? (s.type === 'array' ? s.items?.properties : undefined);
  const variants = s.variants ?? (s.type === 'array' ? s.items?.variants : undefined);
  return h('div', { class: 'api-schema' }, [
    h('p', { class: 'api-type' }, [h('code', null, typeLabel(s)), s.ref ? ` ${s.ref}` : null]),
    s.enum ? h('p', { class: 'api-enum' }, ['One of: ', ...s.enum.flatMap((e, i) => [i ? ', ' : '', h('code', null, e)])]) : null,
    fields?.length
      ? h(
          'ul',
          null,
          fields.map((f) =>
            h('li', null, [
              h('code', { class: 'api-name' }, f.name),
              ' ',
              h('span', { class: 'api-type' }, typeLabel(f.schema)),
              f.required ? h('span', { class: 'api-required' }, ' required') : null,
              f.schema.deprecated ? h('span', { class: 'api-deprecated' }, ' deprecated') : null,
              ...paragraphs(f.schema.description),
              f.schema.enum
                ? h('p', { class: 'api-enum' }, ['One of: ', ...f.schema.enum.flatMap((e, i) => [i ? ', ' : '', h('code', null, e)])])
                : null,
              f.schema.properties?.length || f.schema.items?.properties?.length || f.schema.variants?.length ? schemaTree(f.schema) : null,
            ]),
          ),
        )
      : null,
    variants?.length
      ? h(
          'ol',
          { class: 'api-variants' },
          variants.map((v) => h('li', null, schemaTree(v))),
        )
      : null,
  ]);
}
