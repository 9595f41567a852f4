import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { InvalidInputError } from '@app/shared-kernel';
import { CUSTOMIZATION_DEFINITIONS } from './customization-schema.generated';

/**
 * Site customization (official getSiteCustomizationById / updateSiteCustomizationById): a PUT body is
 * validated with Ajv against the official `SiteCustomizationSettingsInput` schema (extracted from
 * @gitbook/api into customization-schema.generated.ts) and stored as given; a site never customized
 * answers the defaults below.
 */
export type CustomizationSettings = Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addFormat('emoji', true);
ajv.addFormat('icon', true);
ajv.addSchema({ $id: 'quire:customization', definitions: CUSTOMIZATION_DEFINITIONS });
const validateInput = ajv.compile({ $ref: 'quire:customization#/definitions/SiteCustomizationSettingsInput' });

export function checkCustomization(value: unknown): CustomizationSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInputError('The body must be a JSON object');
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
    pageActions: { items: ['markdown'] },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}
