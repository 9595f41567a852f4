import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { InvalidInputError } from '@app/shared-kernel';
import { CUSTOMIZATION_DEFINITIONS } from './customization-schema.generated';

/**
 * Site customization (official getSiteCustomizationById / updateSiteCustomizationById): a PUT body is
 * validated with Ajv against the official `SiteCustomizationSettingsInput` schema (extracted from
 * @gitbook/api into customization-schema.generated.ts) and stored as given; a site never customized
 * answers the defaults below.
 */
export type CustomizationSettings = Record<string, unknown>;

let compiled: { input: ValidateFunction; override: ValidateFunction } | null = null;

/** The official schema's validators, compiled on first use (not every process changes a customization). */
function validators(): { input: ValidateFunction; override: ValidateFunction } {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  ajv.addSchema({ $id: 'quire:customization', definitions: CUSTOMIZATION_DEFINITIONS });
  compiled = {
    input: ajv.compile({ $ref: 'quire:customization#/definitions/SiteCustomizationSettingsInput' }),
    override: ajv.compile({ $ref: 'quire:customization#/definitions/SiteSpaceCustomizationOverride' }),
  };
  return compiled;
}

export function checkCustomization(value: unknown): CustomizationSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInputError('The body must be a JSON object');
  const validateInput = validators().input;
  if (!validateInput(value)) {
    const e = validateInput.errors?.[0];
    throw new InvalidInputError(`customization${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`);
  }
  return value as CustomizationSettings;
}

const color = (light: string, dark = light) => ({ light, dark });

/** What a site looks like before anyone customizes it (valid against the official schema; tested). */
export function defaultCustomization(): CustomizationSettings {
  return {
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB'),
      infoColor: color('#787878'),
      successColor: color('#00C950', '#00D45A'),
      warningColor: color('#FE9A00', '#E09C00'),
      dangerColor: color('#FB2C36', '#FF6467'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: { default: color('default-light', 'default-dark'), openapi: color('default-light', 'default-dark') },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'system', toggeable: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: false },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { items: ['markdown', 'external-ai', 'git'] },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

// ---------------------------------------------------------------------------------------------
// Site-space overrides (official get/override/deleteSiteSpaceCustomizationById)

/** What a site space overrides of its site's customization: top-level values, and groups of values (styling, header …). */
export type CustomizationOverride = Record<string, unknown>;

const isGroup = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A PATCH body checked against the official override schema. */
export function checkOverride(value: unknown): CustomizationOverride {
  if (!isGroup(value)) throw new InvalidInputError('The body must be a JSON object');
  const validateOverride = validators().override;
  if (!validateOverride(value)) {
    const e = validateOverride.errors?.[0];
    throw new InvalidInputError(`customization${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`);
  }
  // The official schema admits any other field; an override of a field that does not exist would be kept
  // and shown for nothing: refused, at the top and in each group.
  for (const [key, v] of Object.entries(value)) {
    const field = Object.hasOwn(OVERRIDE_FIELDS, key) ? OVERRIDE_FIELDS[key] : undefined;
    if (!field) throw new InvalidInputError(`customization: "${key}" is not a field a site space can override`);
    if (field.properties && isGroup(v))
      for (const inner of Object.keys(v))
        if (!Object.hasOwn(field.properties, inner))
          throw new InvalidInputError(`customization.${key}: "${inner}" is not a field a site space can override`);
  }
  return value;
}

const OVERRIDE_FIELDS = (
  CUSTOMIZATION_DEFINITIONS.SiteSpaceCustomizationOverride as { properties: Record<string, { type?: string; properties?: object }> }
).properties;

/**
 * The stored override after a PATCH: a value replaces, `null` resets (the site's value shows again). The
 * groups (styling, header, footer, themes …) are patched value by value, as the official body describes
 * each of their fields; a group left empty is dropped.
 */
export function patchOverride(stored: CustomizationOverride, patch: CustomizationOverride): CustomizationOverride {
  const out: CustomizationOverride = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (OVERRIDE_GROUPS.has(key) && isGroup(value)) {
      const group: Record<string, unknown> = { ...(isGroup(out[key]) ? out[key] : {}) };
      for (const [k, v] of Object.entries(value)) {
        if (v === null) delete group[k];
        else group[k] = v;
      }
      if (Object.keys(group).length) out[key] = group;
      else delete out[key];
    } else out[key] = value;
  }
  return out;
}

/** The groups of the override body: its top-level fields that are objects of fields. */
export const OVERRIDE_GROUPS = new Set(
  Object.entries(OVERRIDE_FIELDS).flatMap(([k, v]) => (v.type === 'object' && v.properties ? [k] : [])),
);

/** A site space's customization: the site's, with the override's values over it (groups merged field by field). */
export function applyOverride(site: CustomizationSettings, override: CustomizationOverride): CustomizationSettings {
  const out: CustomizationSettings = { ...site };
  for (const [key, value] of Object.entries(override)) {
    out[key] = OVERRIDE_GROUPS.has(key) && isGroup(value) && isGroup(site[key]) ? { ...site[key], ...value } : value;
  }
  return out;
}
