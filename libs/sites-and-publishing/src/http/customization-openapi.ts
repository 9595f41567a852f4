import { addSchemaComponents, officialToOpenApi } from '@app/http-kit';
import { CUSTOMIZATION_DEFINITIONS } from '../domain/customization-schema.generated';

/**
 * The official customization schemas (the JSON Schema Quire validates PUTs with, generated from
 * @gitbook/api) as OpenAPI 3.0 components of the served document, under `Official…` names: `$ref`s moved
 * to `#/components/schemas/`, `null` alternatives written as `nullable`, `const` as a one-value `enum`.
 * The customization answers are described with them, so a generated client keeps every section.
 */
const PREFIX = 'Official';

type Schema = Record<string, unknown>;

const toOpenApi = (schema: unknown) => officialToOpenApi(schema, PREFIX);

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
