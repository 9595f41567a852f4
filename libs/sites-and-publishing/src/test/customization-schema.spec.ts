import { CUSTOMIZATION_DEFINITIONS, CUSTOMIZATION_SCHEMA_SOURCE } from '../domain/customization-schema.generated';

describe('the shipped customization schema', () => {
  it('is exactly what the installed official document says (else: npm run gen:customization-schema)', async () => {
    const extractor = await import('../../../../test/support/extract-customization-schema.mjs');
    const { version, definitions } = extractor.definitions();
    expect(CUSTOMIZATION_SCHEMA_SOURCE).toBe(`@gitbook/api ${version}`);
    expect(CUSTOMIZATION_DEFINITIONS).toEqual(definitions);
    expect(Object.keys(definitions)).toContain('SiteCustomizationSettingsInput');
  });
});
