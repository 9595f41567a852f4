import { addSchemaComponents } from '@app/http-kit';
import { CUSTOMIZATION_DEFINITIONS } from '../domain/customization-schema.generated';

/**
 * The official customization schemas (the JSON Schema Quire validates PUTs with, generated from
 * @gitbook/api) as OpenAPI 3.0 components of the served document, under `Official…` names: `$ref`s moved
 * to `#/components/schemas/`, `null` alternatives written as `nullable`, `const` as a one-value `enum`.
 * The customization answers are described with them, so a generated client keeps every section.
 */
const PREFIX = 'Official';

type Schema = Record<string, unknown>;

/** JSON Schema keywords an OpenAPI 3.0 schema object has no place for (Ajv still checks them on PUT). */
const NOT_IN_OPENAPI_30 = new Set([
  'propertyNames',
  'patternProperties',
  'contains',
  'if',
  'then',
  'else',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  '$id',
  '$schema',
  '$comment',
  'examples',
]);

function toOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (NOT_IN_OPENAPI_30.has(k)) continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/definitions/', `#/components/schemas/${PREFIX}`);
    else if (k === 'const') out.enum = [v];
    else if (k === 'type' && Array.isArray(v)) {
      // OpenAPI 3.0 has one type per schema: several become alternatives.
      const types = (v as unknown[]).filter((t) => t !== 'null');
      if (types.length === 1) out.type = types[0];
      else out.oneOf = types.map((t) => ({ type: t }));
      if (types.length !== v.length) out.nullable = true;
    } else if ((k === 'oneOf' || k === 'anyOf') && Array.isArray(v)) {
      const rest = v.filter((x) => !(x && typeof x === 'object' && (x as Schema).type === 'null'));
      if (rest.length !== v.length) out.nullable = true;
      if (rest.length === 1) out.allOf = [toOpenApi(rest[0])];
      else out[k] = rest.map(toOpenApi);
    } else out[k] = toOpenApi(v);
  }
  // A $ref has no siblings in OpenAPI 3.0: what goes with it applies to an allOf of it.
  if (out.$ref && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }], ...rest };
  }
  return out;
}

/** Every official customization schema, as components of the served document. */
export function customizationComponents(): Record<string, object> {
  return Object.fromEntries(Object.entries(CUSTOMIZATION_DEFINITIONS).map(([name, s]) => [`${PREFIX}${name}`, toOpenApi(s) as object]));
}

addSchemaComponents(customizationComponents());

/**
 * A customization answer (the official SiteCustomizationSettings: the settings and `updatedAt`), with
 * `extra` properties (a site space's `hasOverrides`); one object, so that its properties are all listed.
 */
export function customizationAnswerSchema(extra: Record<string, object> = {}, required: string[] = []): object {
  const base = toOpenApi(CUSTOMIZATION_DEFINITIONS.SiteCustomizationSettingsBase) as { properties: Schema; required?: string[] };
  return {
    type: 'object',
    properties: {
      ...base.properties,
      updatedAt: { type: 'string', format: 'date-time', description: 'When the settings were last updated; absent while never set' },
      ...extra,
    },
    ...(base.required || required.length ? { required: [...(base.required ?? []), ...required] } : {}),
  };
}
