import { parse as parseYaml, stringify } from 'yaml';
import { configSpaces, readSiteConfig, structureFromConfig, writeSiteConfig, type WrittenSpace } from '../domain/site-config';
import { SITE_CONFIG_DEFINITIONS, SITE_CONFIG_SCHEMA_SOURCE } from '../domain/site-config-schema.generated';

/** A site's gitbook-docs.yaml (the official GitSyncSiteConfig), read and checked, then made the site's structure. */
describe("a site's configuration file", () => {
  const read = (yaml: string, project = '') => readSiteConfig(yaml, 'gitbook-docs.yaml', project);
  const sections = `site:
  title: Fluent
  structure:
    - type: section
      key: section-product
      title: Product
      path: product
      default: true
      icon: rocket
      children:
        - type: space
          key: space-guides
          title: Guides
          path: guides
          default: true
          content:
            directory: ./guides
            language: en
        - type: space
          key: space-guides-fr
          title: Guides (français)
          path: fr
          content:
            directory: ./guides-fr
            language: fr
        - type: space
          key: space-beta
          title: Beta
          path: beta
          draft: true
          content:
            directory: ./beta
    - type: section-group
      key: group-reference
      title: Reference
      children:
        - type: section
          key: section-api
          title: API
          path: api
          children:
            - type: space
              key: space-api
              title: API reference
              path: api
              default: true
              content:
                directory: /shared/api
        - type: external-link
          key: link-status
          title: Status
          url: https://status.example.com
`;

  it('the shipped schema is what the installed official document says (else: npm run gen:customization-schema)', async () => {
    const extractor = await import('../../../../test/support/extract-customization-schema.mjs');
    const { version, definitions } = extractor.definitions(['GitSyncSiteConfig']);
    expect(SITE_CONFIG_SCHEMA_SOURCE).toBe(`@gitbook/api ${version}`);
    expect(SITE_CONFIG_DEFINITIONS).toEqual(definitions);
  });

  it('reads sections, groups, spaces, directories (from the project folder, or the top with a slash) and languages', () => {
    const config = read(sections, 'docs');
    expect(config.title).toBe('Fluent');
    expect(configSpaces(config).map((s) => [s.key, s.directory, s.language ?? null, s.default])).toEqual([
      ['space-guides', 'docs/guides', 'en', true],
      ['space-guides-fr', 'docs/guides-fr', 'fr', false],
      ['space-api', 'shared/api', null, true],
    ]);
    expect(config.notes).toEqual(['space "space-beta" is a draft: left out of the site']);
    let n = 0;
    const structure = structureFromConfig(
      config,
      (key) => `id-${key}`,
      (key) => `space-of-${key}-${++n}`,
    );
    expect(structure.siteSpaces).toEqual([]);
    expect(structure.items).toMatchObject([
      {
        kind: 'section',
        id: 'id-section-product',
        title: 'Product',
        path: 'product',
        icon: 'rocket',
        default: true,
        siteSpaces: [
          { id: 'id-space-guides', spaceId: 'space-of-space-guides-1', path: 'guides', default: true },
          { id: 'id-space-guides-fr', path: 'fr', default: false },
        ],
      },
      {
        kind: 'group',
        id: 'id-group-reference',
        children: [
          { kind: 'section', id: 'id-section-api', default: false },
          // An external link, in its group (the official GitSyncSiteStructureExternalLink).
          { kind: 'external-link', id: 'id-link-status', title: 'Status', url: 'https://status.example.com' },
        ],
      },
    ]);
  });

  it('refuses an external link without an http(s) url or a title', () => {
    const link = (extra: string) =>
      [
        'site:',
        '  title: T',
        '  structure:',
        '    - type: section',
        '      key: s',
        '      title: Section',
        '      path: s',
        '      default: true',
        '      children:',
        '        - type: space',
        '          key: a',
        '          title: A',
        '          path: a',
        '          default: true',
        '          content:',
        '            directory: ./a',
        '    - type: external-link',
        '      key: l',
        extra,
      ].join('\n');
    expect(read(link('      title: Status\n      url: https://status.example.com\n'), '').items[1]).toMatchObject({
      kind: 'external-link',
      url: 'https://status.example.com',
    });
    expect(() => read(link('      title: Status\n      url: javascript:alert(1)\n'), '')).toThrow(/http or https url/);
    expect(() => read(link('      title: S\n      url: https://x.example.com\n'), '')).toThrow();
  });

  it('a site without sections: its spaces at the top, "." the project folder itself', () => {
    const config = read(
      'site:\n  title: One\n  structure:\n    - type: space\n      key: main\n      title: Docs\n      path: docs\n      default: true\n      content:\n        directory: .\n',
      'docs',
    );
    expect(config.spaces).toEqual([{ key: 'main', title: 'Docs', path: 'docs', default: true, directory: 'docs' }]);
    expect(
      structureFromConfig(
        config,
        (k) => k,
        (k) => `s-${k}`,
      ),
    ).toEqual({
      siteSpaces: [{ id: 'main', spaceId: 's-main', path: 'docs', default: true }],
      items: [],
    });
  });

  const space = (key: string, extra = '', directory = `./${key}`) =>
    `    - type: space\n      key: ${key}\n      title: ${key}\n      path: ${key}\n${extra}      content:\n        directory: ${directory}\n`;
  const site = (...nodes: string[]) => `site:\n  title: T\n  structure:\n${nodes.join('')}`;

  it.each([
    ['not YAML', 'site: [', /gitbook-docs.yaml is not valid YAML/],
    ['no site', 'version: 1\n', /gitbook-docs.yaml must have required property 'site'/],
    ['an unknown field', site(space('a', '      default: true\n      colour: red\n')), /must NOT have additional properties/],
    ['two defaults', site(space('a', '      default: true\n'), space('b', '      default: true\n')), /the site marks 2 of its 2 spaces/],
    ['no default', site(space('a'), space('b')), /the site marks 0 of its 2/],
    ['a reused key', site(space('a', '      default: true\n'), space('a')), /space "a" reuses a key/],
    ['a parent directory', site(space('a', '      default: true\n', '../elsewhere')), /space "a" has a directory out of the repository/],
    [
      'a path with a slash',
      site(space('a', '      default: true\n').replace('path: a', 'path: a/b')),
      /space "a": path must be one URL segment/,
    ],
    [
      'two spaces on one path',
      site(space('a', '      default: true\n'), space('b').replace('path: b', 'path: a')),
      /"a" and "b" of the site have the same path "a"/,
    ],
    [
      'one directory in two languages',
      site(space('a', '      default: true\n', './same\n        language: en'), space('b', '', './same\n        language: fr')),
      /space "b" reads "same" in another language/,
    ],
    [
      'a space beside sections',
      'site:\n  title: T\n  structure:\n    - type: section\n      key: s\n      title: Section\n      path: s\n      default: true\n      children:\n' +
        '        - type: space\n          key: a\n          title: A\n          path: a\n          default: true\n          content:\n            directory: ./a\n' +
        space('b'),
      /space "b" is at the top level of a site with sections/,
    ],
    ['a null title', 'site:\n  title: null\n  structure: []\n', /site\/title must be string/],
    [
      'a section title too short',
      site(space('a', '      default: true\n')).replace(
        '    - type: space',
        '    - type: section\n      key: s\n      title: S\n      path: s\n      default: true\n      children: []\n    - type: space',
      ),
      /structure\/0\/title must NOT have fewer than 2 characters/,
    ],
    [
      'a NUL in a key',
      site(space('a', '      default: true\n').replace('key: a', 'key: "a\\0"')),
      /gitbook-docs.yaml holds a NUL character/,
    ],
  ])('refuses %s, naming what is wrong', (_, yaml, message) => {
    expect(() => read(yaml)).toThrow(message);
  });

  describe('written back from the structure', () => {
    const original = parseYaml(sections) as Record<string, unknown>;
    const config = read(sections, 'docs');
    const structure = structureFromConfig(
      config,
      (key) => key,
      (key) => `sp-${key}`,
    );
    const spaces = new Map<string, WrittenSpace>(
      configSpaces(config).map((s) => [`sp-${s.key}`, { title: s.title, language: s.language, directory: s.directory }]),
    );
    const write = (over: Partial<Parameters<typeof writeSiteConfig>[0]> = {}) =>
      writeSiteConfig({ original, title: 'Fluent', structure, spaces, keyOf: (id) => id, projectDirectory: 'docs', ...over });

    it('unchanged: the same file, drafts where they were, external links written from the structure', () => {
      const { value, keys } = write();
      expect(value).toEqual(original);
      expect(keys['space-api']).toEqual({ id: 'space-api', spaceId: 'sp-space-api' });
      // What is written reads back as the same site.
      expect(read(stringify(value), 'docs')).toEqual(config);
    });

    it("the site's changes: a renamed section, a site space gone, a new one keyed from its title, a new folder", () => {
      const changed = structuredClone(structure);
      const product = changed.items[0] as (typeof changed.items)[number] & { kind: 'section' };
      product.title = 'Products';
      product.siteSpaces = [product.siteSpaces[0], { id: 'new-id', spaceId: 'sp-new', path: 'faq', default: false }];
      const more = new Map(spaces)
        .set('sp-new', { title: 'FAQ', directory: 'docs/faq' })
        .set('sp-space-guides', { title: 'Guides', language: 'en', directory: 'other/guides' });
      const { value, keys } = write({
        structure: changed,
        spaces: more,
        title: 'Fluent docs',
        keyOf: (id) => (id === 'new-id' ? undefined : id),
      });
      const site = value.site as { title: string; structure: { title: string; children: Record<string, unknown>[] }[] };
      expect(site.title).toBe('Fluent docs');
      expect(site.structure[0].title).toBe('Products');
      expect(site.structure[0].children.map((c) => [c.key, (c.content as { directory: string }).directory])).toEqual([
        ['space-guides', '/other/guides'],
        ['space-faq', './faq'],
        ['space-beta', './beta'],
      ]);
      expect(keys['space-faq']).toEqual({ id: 'new-id', spaceId: 'sp-new' });
      expect(keys['space-guides-fr']).toBeUndefined();
      expect(readSiteConfig(stringify(value), 'gitbook-docs.yaml', 'docs').notes).toContain(
        'space "space-beta" is a draft: left out of the site',
      );
    });

    it('with no file before: one written from the structure alone', () => {
      const { value } = write({ original: null, keyOf: () => undefined });
      const again = read(stringify(value), 'docs');
      expect(configSpaces(again).map((s) => [s.key, s.directory])).toEqual([
        ['space-guides', 'docs/guides'],
        ['space-guides-fran-ais', 'docs/guides-fr'],
        ['space-api-reference', 'shared/api'],
      ]);
    });
  });
});
