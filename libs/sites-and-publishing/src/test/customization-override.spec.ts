import { applyOverride, checkOverride, defaultCustomization, OVERRIDE_GROUPS, patchOverride } from '../domain/customization';

describe('site-space customization overrides', () => {
  it('knows the groups of the official override body', () => {
    expect([...OVERRIDE_GROUPS]).toEqual(expect.arrayContaining(['styling', 'header', 'footer', 'themes', 'feedback']));
    expect(OVERRIDE_GROUPS.has('title')).toBe(false);
    expect(OVERRIDE_GROUPS.has('favicon')).toBe(false);
  });

  it('patches value by value: a value replaces, null resets, an emptied group goes', () => {
    const stored = { title: 'Beta', styling: { corners: 'straight', font: 'Roboto' } };
    expect(patchOverride(stored, { styling: { corners: null, primaryColor: { light: '#111111', dark: '#222222' } } })).toEqual({
      title: 'Beta',
      styling: { font: 'Roboto', primaryColor: { light: '#111111', dark: '#222222' } },
    });
    expect(patchOverride(stored, { title: null, styling: { corners: null, font: null } })).toEqual({});
    expect(stored).toEqual({ title: 'Beta', styling: { corners: 'straight', font: 'Roboto' } }); // not mutated
  });

  it('applies an override over the site’s settings, groups merged field by field', () => {
    const site = defaultCustomization();
    const applied = applyOverride(site, { title: 'Beta', themes: { default: 'dark' } });
    expect(applied.title).toBe('Beta');
    expect(applied.themes).toEqual({ ...(site.themes as object), default: 'dark' });
    expect(applied.styling).toBe(site.styling);
  });

  it('refuses what the official schema refuses, and fields no site space can override', () => {
    expect(checkOverride({ styling: { corners: 'straight' } })).toEqual({ styling: { corners: 'straight' } });
    for (const bad of [
      null,
      [],
      'x',
      { styling: { corners: 'wobbly' } },
      { unknown: 1 },
      { styling: { unknown: 1 } },
      JSON.parse('{"__proto__": {"x": 1}}'),
    ])
      expect(() => checkOverride(bad)).toThrow();
  });
});
