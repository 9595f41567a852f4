import Ajv from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface ServedDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * Validates real answers against the OpenAPI document Quire serves (`/docs-json`), with every object
 * closed: where the document lists an object's `properties`, a property it does not list is an error
 * (`additionalProperties: false`), and a `required` one that is missing is too. What a client generated
 * from the document would drop or miss, this finds. OpenAPI 3.0's `nullable` is read as JSON Schema's
 * `null` type.
 */
export function servedValidator(doc: ServedDocument) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const f of ['emoji', 'icon', 'int32', 'int64', 'double', 'float']) ajv.addFormat(f, true);
  ajv.addSchema(
    { components: { schemas: Object.fromEntries(Object.entries(doc.components.schemas).map(([k, v]) => [k, close(v)])) } },
    'served',
  );
  const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      op,
      // `{name}` is one segment; `{pagePath}`-like parameters of catch-all routes may hold several.
      pattern: new RegExp(
        `^${path
          .split(/(\{[^}]+\})/)
          .map((part) => (/^\{.*Path\}$/.test(part) ? '.+' : /^\{.*\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
          .join('')}$`,
      ),
      literal: path.replace(/\{[^}]+\}/g, '').length,
    })),
  );
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

  return {
    /**
     * The errors of one answer (empty when it matches): `method` and the request path (no query), its status
     * and parsed JSON body. An answer the document does not describe (no operation, or no JSON schema for
     * its status) is an error too.
     */
    check(method: string, url: string, status: number, body: unknown): string[] {
      const path = decodeURI(url.split('?')[0]);
      const candidates = routes.filter((r) => r.method === method.toUpperCase() && r.pattern.test(path));
      if (!candidates.length) return [`${method} ${path}: no operation of the served document`];
      const route = candidates.sort((a, b) => b.literal - a.literal)[0];
      const response = route.op.responses?.[String(status)] ?? route.op.responses?.default;
      const schema = response?.content?.['application/json']?.schema;
      if (!schema) return [`${method} ${route.path} ${status}: the served document has no JSON schema for this answer`];
      const key = `${method} ${route.path} ${status}`;
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(rebase(close(schema)));
        compiled.set(key, validate);
      }
      if (validate(body)) return [];
      return (validate.errors ?? []).map(
        (e) =>
          `${route.op.operationId ?? key} ${e.instancePath || '/'} ${e.message}${e.keyword === 'additionalProperties' ? `: ${(e.params as { additionalProperty: string }).additionalProperty}` : ''}`,
      );
    },
  };
}

/** `$ref`s of a schema given alone point into the document added as `served`. */
function rebase(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"served#/components/schemas/')) as Schema;
}

/** The schema with every listed object closed and `nullable` as a null type (a copy). */
export function close(schema: unknown): Schema {
  if (Array.isArray(schema)) return schema.map(close) as unknown as Schema;
  if (!schema || typeof schema !== 'object') return schema as Schema;
  const s: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k === 'properties') s[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, p]) => [name, close(p)]));
    else if (k === 'example' || k === 'examples') continue;
    else s[k] = close(v);
  }
  if (s.properties && s.additionalProperties === undefined && !s.allOf && !s.oneOf && !s.anyOf) s.additionalProperties = false;
  if (s.nullable === true) {
    delete s.nullable;
    if (typeof s.type === 'string') s.type = [s.type, 'null'];
    else if (s.$ref || s.allOf || s.oneOf || s.anyOf) return { anyOf: [s, { type: 'null' }] };
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...(s.enum as unknown[]), null];
  }
  return s;
}
