import { Condition, checkAdaptiveJsonSchema, checkClaims, templateConditions } from '../domain/adaptive';
import { checkCustomization, defaultCustomization } from '../domain/customization';
import * as S from '../domain/site';

/** Structure rules, conditions and schemas: plain functions, no framework. */
describe('site structure', () => {
  const ss = (n: number) => ({ id: `ss${n}`, spaceId: `space${n}`, spaceTitle: `Space ${n}` });
  const ids = (items: { id: string }[]) => items.map((i) => i.id);
  const defaults = (items: { id: string; default: boolean }[]) => items.filter((i) => i.default).map((i) => i.id);

  it('keeps exactly one default per level through adds, deletes and moves', () => {
    const st = S.emptyStructure();
    S.addSiteSpace(st, ss(1));
    S.addSiteSpace(st, ss(2));
    expect(defaults(st.siteSpaces)).toEqual(['ss1']);
    S.deleteSiteSpace(st, 'ss1');
    expect(defaults(st.siteSpaces)).toEqual(['ss2']);
    const a = S.addSection(st, { id: 'a', title: 'Alpha', siteSpace: ss(3) });
    expect(st.siteSpaces).toEqual([]);
    expect(ids(a.siteSpaces)).toEqual(['ss2', 'ss3']);
    expect(defaults(a.siteSpaces)).toEqual(['ss2']);
    const b = S.addSection(st, { id: 'b', title: 'Beta', siteSpace: ss(4) });
    expect(defaults(S.sections(st))).toEqual(['a']);
    S.setDefaultSection(st, 'b');
    expect(defaults(S.sections(st))).toEqual(['b']);
    S.deleteSection(st, 'b');
    expect(defaults(S.sections(st))).toEqual(['a']);
    // moving a default site space out of its section: both levels keep one default
    S.addSection(st, { id: 'c', title: 'Gamma', siteSpace: ss(5) });
    S.sortStructure(st, { type: 'site-space', id: 'ss2' }, { after: { type: 'site-space', id: 'ss5' } });
    expect(defaults(S.findSection(st, 'a').siteSpaces)).toEqual(['ss3']);
    expect(defaults(S.findSection(st, 'c').siteSpaces)).toEqual(['ss5']);
    expect(b.id).toBe('b');
  });

  it('makes paths unique within their level and refuses duplicates and bad segments', () => {
    const st = S.emptyStructure();
    expect(S.addSiteSpace(st, { id: 'x', spaceId: 's', spaceTitle: 'Getting Started!' }).path).toBe('getting-started');
    expect(S.addSiteSpace(st, { id: 'y', spaceId: 's', spaceTitle: 'Getting started' }).path).toBe('getting-started-2');
    expect(S.addSiteSpace(st, { id: 'z', spaceId: 's', spaceTitle: '日本語' }).path).toBe('space');
    expect(() => S.updateSiteSpace(st, 'y', { path: 'getting-started' })).toThrow(/path/);
    expect(() => S.updateSiteSpace(st, 'y', { path: 'a b' })).toThrow(/segment/);
    expect(() => S.updateSiteSpace(st, 'y', { path: 'x'.repeat(101) })).toThrow(/1 to 100/);
    expect(S.updateSiteSpace(st, 'y', { path: 'x'.repeat(100) }).path).toHaveLength(100);
  });

  it('sorts before and after siblings exactly, into groups, and refuses cycles', () => {
    const st = S.emptyStructure();
    for (const id of ['a', 'b', 'c', 'd']) S.addSection(st, { id, title: id.toUpperCase().repeat(2), siteSpace: ss(id.charCodeAt(0)) });
    S.sortStructure(st, { type: 'site-section', id: 'd' }, { before: { type: 'site-section', id: 'b' } });
    expect(ids(st.items)).toEqual(['a', 'd', 'b', 'c']);
    S.sortStructure(st, { type: 'site-section', id: 'a' }, { after: { type: 'site-section', id: 'c' } });
    expect(ids(st.items)).toEqual(['d', 'b', 'c', 'a']);
    S.addGroup(st, { id: 'g', title: 'G', sectionIds: ['b', 'c'] });
    expect(ids(st.items)).toEqual(['d', 'a', 'g']);
    S.sortStructure(st, { type: 'site-section', id: 'a' }, { before: { type: 'site-section', id: 'c' } });
    expect(ids(S.findGroup(st, 'g').children)).toEqual(['b', 'a', 'c']);
    S.addGroup(st, { id: 'h', title: 'H', sectionIds: [], parentId: 'g' });
    expect(() => S.sortStructure(st, { type: 'site-section-group', id: 'g' }, { before: { type: 'site-section-group', id: 'h' } })).toThrow(
      /itself/,
    );
    expect(() => S.sortStructure(st, { type: 'site-section', id: 'a' }, { before: { type: 'site-space', id: 'x' } })).toThrow();
    S.deleteGroup(st, 'g');
    expect(ids(st.items)).toEqual(['d', 'b', 'a', 'c', 'h']);
  });

  it('limits group depth', () => {
    const st = S.emptyStructure();
    S.addGroup(st, { id: 'g1', title: 'G', sectionIds: [] });
    S.addGroup(st, { id: 'g2', title: 'G', sectionIds: [], parentId: 'g1' });
    S.addGroup(st, { id: 'g3', title: 'G', sectionIds: [], parentId: 'g2' });
    expect(() => S.addGroup(st, { id: 'g4', title: 'G', sectionIds: [], parentId: 'g3' })).toThrow(/deep/);
  });

  it('removes deleted spaces everywhere and hides what conditions refuse', () => {
    const st = S.emptyStructure();
    S.addSection(st, { id: 'a', title: 'AA', siteSpace: ss(1) });
    S.addSection(st, { id: 'b', title: 'BB', siteSpace: ss(2) });
    S.addSiteSpace(st, { ...ss(3), sectionId: 'a' });
    S.updateSection(st, 'a', { condition: 'visitor.claims.x' });
    expect(S.removeSpaces(st, new Set(['space1']))).toBe(1);
    expect(defaults(S.findSection(st, 'a').siteSpaces)).toEqual(['ss3']);
    const visible = S.visibleStructure(st, (c) => c !== 'visitor.claims.x');
    expect(ids(visible.items)).toEqual(['b']);
    expect(defaults(visible.items as S.SectionNode[])).toEqual(['b']);
    expect(ids(st.items)).toEqual(['a', 'b']); // the original is untouched
    expect(S.conditionsOf(st)).toEqual(['visitor.claims.x']);
  });
});

describe('conditions', () => {
  it('evaluates claims without eval and refuses everything outside the whitelist', () => {
    const c = Condition.parse('visitor.claims.beta && !visitor.claims.unsigned.app || visitor.claims.roles.includes("admin")');
    expect(c.test({ beta: true })).toBe(true);
    expect(c.test({ beta: true, unsigned: { app: true } })).toBe(false);
    expect(c.test({ roles: ['admin'] })).toBe(true);
    expect(c.test({})).toBe(false);
    expect(Condition.parse('visitor.claims.plan == "pro" ? true : visitor.claims.level >= 3').test({ level: 3 })).toBe(true);
    expect(Condition.parse('visitor["claims"].x').test({ x: 1 })).toBe(true);
    for (const bad of [
      'process.exit()',
      'constructor',
      'visitor.__proto__',
      'visitor["constructor"]',
      'visitor.claims.x = 1',
      'visitor.claims.f()',
      'this',
      'visitor.claims[visitor.claims.k]',
      '(() => 1)()',
      'visitor.claims.a &&',
      'a'.repeat(1025),
    ])
      expect(() => Condition.parse(bad)).toThrow();
    // prototype members are never read
    expect(Condition.parse('visitor.claims.toString').test({})).toBe(false);
  });
});

describe('adaptive schema, claims and customization', () => {
  const schema = {
    type: 'object',
    properties: {
      beta: { type: 'boolean', description: 'Beta' },
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        properties: { app: { type: 'boolean', description: 'App' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };

  it('accepts the spec schema, suggests one condition per claim, and validates claims against it', () => {
    const checked = checkAdaptiveJsonSchema(schema);
    expect(templateConditions(checked).map((c) => c.condition)).toEqual(['visitor.claims.beta', 'visitor.claims.unsigned.app']);
    expect(checkClaims(checked, { beta: true, unsigned: { app: false } })).toEqual({ beta: true, unsigned: { app: false } });
    expect(() => checkClaims(checked, { beta: 'yes' })).toThrow(/claims\/beta must be boolean/);
    expect(() => checkClaims(checked, { other: true })).toThrow(/unknown property "other"/);
    expect(() => checkClaims(null, { beta: true })).toThrow(/no adaptive schema/);
    expect(checkClaims(null, {})).toEqual({});
    expect(() => checkAdaptiveJsonSchema({ ...schema, properties: { n: { type: 'string', description: 'x' } } })).toThrow(/boolean/);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c${i}`, { type: 'boolean', description: 'x' }]));
    expect(() => checkAdaptiveJsonSchema({ ...schema, properties: many })).toThrow(/100/);
  });

  it('the default customization passes the official input schema; broken ones do not', () => {
    expect(checkCustomization(defaultCustomization())).toBeTruthy();
    expect(() => checkCustomization({ ...defaultCustomization(), themes: { default: 'neon', toggeable: true } })).toThrow(
      /themes\/default/,
    );
    expect(() => checkCustomization(null)).toThrow(/object/);
  });
});
