/**
 * Schemas a controller's answers refer to that no DTO class describes (an official JSON Schema a context
 * already holds, converted): registered when the controller's module is loaded, added to the served
 * document's `components.schemas` by the app (apps/api/src/swagger.ts), as Nest's own metadata is.
 */
const registered = new Map<string, object>();

export function addSchemaComponents(schemas: Record<string, object>): void {
  for (const [name, schema] of Object.entries(schemas)) registered.set(name, schema);
}

export function schemaComponents(): Record<string, object> {
  return Object.fromEntries(registered);
}

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

/**
 * An official JSON Schema (as a context extracted it from @gitbook/api, refs to `#/definitions/`) as an
 * OpenAPI 3.0 schema object of the served document: `$ref`s moved to `#/components/schemas/{prefix}…`,
 * `null` alternatives written as `nullable`, `const` as a one-value `enum`.
 */
export function officialToOpenApi(schema: unknown, prefix: string): unknown {
  if (Array.isArray(schema)) return schema.map((x) => officialToOpenApi(x, prefix));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (NOT_IN_OPENAPI_30.has(k)) continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/definitions/', `#/components/schemas/${prefix}`);
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
      if (rest.length === 1) out.allOf = [officialToOpenApi(rest[0], prefix)];
      else out[k] = rest.map((x) => officialToOpenApi(x, prefix));
    } else out[k] = officialToOpenApi(v, prefix);
  }
  // A $ref has no siblings in OpenAPI 3.0: what goes with it applies to an allOf of it.
  if (out.$ref && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }], ...rest };
  }
  return out;
}
