import {
  conditionExpressions,
  documentText,
  documentToMarkdown,
  evaluateConditions,
  markdownToDocument,
  sections,
  type ContentRef,
  type DocBlock,
  type JsonDocument,
} from '..';

/**
 * GitBook's markdown for the blocks and inlines of #49, read the way GitBook writes them (its docs, "Representation
 * in Markdown"), stored as the official JSON, and written back GitBook's way.
 */
const PAGES: Record<string, string> = { 'getting-started.md': 'p1', 'guide/setup.md': 'p2' };
const FILES: Record<string, string> = { '.gitbook/assets/cover.png': 'f1', '.gitbook/assets/cover-dark.png': 'f2' };
const resolve = (url: string): ContentRef => {
  const [path, anchor] = url.split('#');
  if (PAGES[path]) return anchor ? { kind: 'page', page: PAGES[path], anchor } : { kind: 'page', page: PAGES[path] };
  if (FILES[path]) return { kind: 'file', file: FILES[path] };
  return { kind: 'url', url };
};
const refUrl = (ref: ContentRef): string => {
  if (ref.kind === 'page') return `${Object.keys(PAGES).find((k) => PAGES[k] === ref.page)}${ref.anchor ? `#${ref.anchor}` : ''}`;
  if (ref.kind === 'file') return Object.keys(FILES).find((k) => FILES[k] === ref.file)!;
  return ref.kind === 'url' ? ref.url : '';
};
const keyless = (doc: JsonDocument) => JSON.parse(JSON.stringify(doc, (k, v: unknown) => (k === 'key' ? undefined : v))) as JsonDocument;
const read = (md: string) => markdownToDocument(md, resolve);
/** Read, written back, read again: the same document. */
const roundTrip = (md: string) => {
  const first = read(md);
  const written = documentToMarkdown(first.document, refUrl);
  expect(keyless(read(written).document)).toEqual(keyless(first.document));
  return { ...first, written };
};

describe('GitBook buttons and icons', () => {
  it('a button (primary, secondary, with an icon) and an icon are the official inlines, written back as GitBook writes them', () => {
    const md =
      'Start: <a href="getting-started.md" class="button primary" data-icon="rocket">Get started</a> <a href="https://github.com/fluent/fluentd" class="button secondary">GitHub</a>\n\n' +
      'Made with <i class="fa-heart">:heart:</i> and <i class="fa-github">:github:</i>.\n';
    const { document, written } = roundTrip(md);
    const [buttons, icons] = document.nodes;
    const inline = (b: DocBlock, type: string) => (b.nodes ?? []).filter((n) => n.object === 'inline' && n.type === type);
    expect(inline(buttons, 'button').map((n) => (n as { data: unknown }).data)).toEqual([
      { label: 'Get started', kind: 'primary', icon: 'rocket', ref: { kind: 'page', page: 'p1' } },
      { label: 'GitHub', kind: 'secondary', ref: { kind: 'url', url: 'https://github.com/fluent/fluentd' } },
    ]);
    expect(inline(icons, 'icon').map((n) => (n as { data: unknown }).data)).toEqual([{ icon: 'heart' }, { icon: 'github' }]);
    expect(written).toBe(md);
    expect(documentText(document)).not.toContain(':heart:');
  });

  it('in HTML blocks too; a link with other classes stays a link, an <i> without an icon class stays italic', () => {
    const { document } = roundTrip(
      '<p align="center"><a href="guide/setup.md" class="button primary">Set up</a> <i class="fa-solid fa-bolt">:bolt:</i></p>\n\n' +
        'An <a href="guide/setup.md" class="external">ordinary link</a> and <i class="note">italic</i>.\n',
    );
    const json = JSON.stringify(document);
    expect(document.nodes[0].nodes).toMatchObject([
      { type: 'button', isVoid: true, data: { label: 'Set up', kind: 'primary', ref: { kind: 'page', page: 'p2' } } },
      { object: 'text' },
      { type: 'icon', data: { icon: 'bolt' } },
    ]);
    expect(json).toContain('"type":"link"');
    expect(json).toContain('{"object":"mark","type":"italic"}');
  });
});

describe('GitBook cards and typed tables', () => {
  const cards =
    '<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th><th data-hidden data-card-cover-dark data-type="files"></th></tr></thead>' +
    '<tbody><tr><td><strong>Quickstart</strong></td><td>Run it in five minutes</td><td><a href="getting-started.md">getting-started.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td><td><a href=".gitbook/assets/cover-dark.png">cover-dark.png</a></td></tr>' +
    '<tr><td><strong>Setup</strong></td><td>Configure <em>everything</em></td><td><a href="guide/setup.md#step-2">guide/setup.md#step-2</a></td><td></td><td></td></tr>' +
    '<tr><td><strong>Fluentd</strong></td><td>Upstream</td><td><a href="https://www.fluentd.org/">https://www.fluentd.org/</a></td><td></td><td></td></tr></tbody></table>\n';

  it('a cards table: the cards view, its target and covers (light, dark), the values typed', () => {
    const { document, written, normalized } = roundTrip(cards);
    const [table] = document.nodes;
    expect(table.type).toBe('table');
    expect(table.data.view).toEqual({
      type: 'cards',
      columns: ['c0', 'c1'],
      cardSize: 'medium',
      targetDefinition: 'c2',
      coverDefinition: 'c3',
      coverDefinitionDark: 'c4',
    });
    const definition = table.data.definition as Record<string, { type: string }>;
    expect(Object.values(definition).map((c) => c.type)).toEqual(['text', 'text', 'content-ref', 'files', 'files']);
    const records = Object.values(table.data.records as Record<string, { values: Record<string, unknown> }>);
    expect(records[0].values).toEqual({
      c0: '**Quickstart**',
      c1: 'Run it in five minutes',
      c2: { kind: 'page', page: 'p1' },
      c3: ['f1'],
      c4: ['f2'],
    });
    expect(records[1].values.c1).toBe('Configure _everything_');
    expect(records[1].values.c2).toEqual({ kind: 'page', page: 'p2', anchor: 'step-2' });
    expect(records[2].values.c2).toEqual({ kind: 'url', url: 'https://www.fluentd.org/' });
    expect(records[1].values.c3).toEqual([]);
    expect(written).toBe(cards);
    expect(normalized.join()).not.toContain('dropped');
    // The cards' words are found; their file names are not.
    expect(documentText(document)).toContain('Quickstart');
    expect(documentText(document)).not.toContain('getting-started.md');
  });

  it('typed grid columns: number, checkbox, rating, select, a hidden column, widths, a large card size', () => {
    const md =
      '<table><thead><tr><th width="200">Plugin</th><th data-type="number">Version</th><th data-type="checkbox">Stable</th><th data-type="rating" data-max="5">Rating</th><th data-type="select">Kind</th><th data-hidden>Notes</th></tr></thead>' +
      '<tbody><tr><td><code>in_tail</code></td><td>1.16</td><td>true</td><td>4</td><td>input</td><td>internal</td></tr><tr><td>out_s3</td><td></td><td>false</td><td>3</td><td>output</td><td></td></tr></tbody></table>\n';
    const { document, written } = roundTrip(md);
    const [table] = document.nodes;
    expect(table.data.view).toEqual({
      type: 'grid',
      columns: ['c0', 'c1', 'c2', 'c3', 'c4'],
      hideHeader: false,
      columnWidths: { c0: 200 },
    });
    expect((table.data.definition as Record<string, unknown>).c3).toEqual({ id: 'c3', title: 'Rating', type: 'rating', max: 5 });
    expect((table.data.definition as Record<string, unknown>).c4).toMatchObject({
      type: 'select',
      multiple: false,
      options: [
        { value: 'input', label: 'input' },
        { value: 'output', label: 'output' },
      ],
    });
    const [first, second] = Object.values(table.data.records as Record<string, { values: Record<string, unknown> }>);
    expect(first.values).toEqual({ c0: '`in_tail`', c1: 1.16, c2: true, c3: 4, c4: ['input'], c5: 'internal' });
    expect(second.values).toMatchObject({ c1: null, c2: false, c4: ['output'] });
    expect(written).toBe(md);
    const large = roundTrip(cards.replace('data-view="cards"', 'data-view="cards" data-card-size="large"'));
    expect(large.document.nodes[0].data.view).toMatchObject({ cardSize: 'large' });
    expect(large.written).toContain('<table data-view="cards" data-card-size="large">');
  });

  it('a plain HTML table is still a grid of text written as a pipe table', () => {
    const { written, document } = roundTrip('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td><strong>2</strong></td></tr></table>\n');
    expect(document.nodes[0].data.view).toEqual({ type: 'grid', columns: ['c0', 'c1'], hideHeader: false });
    expect(written).toBe('| A  | B     |\n| :- | :---- |\n| 1  | **2** |\n');
  });
});

describe('GitBook conditional content ({% if %})', () => {
  const md =
    'Everyone reads this.\n\n{% if visitor.claims.unsigned.beta %}\nBeta features are **on**.\n\n{% hint style="info" %}\nThanks for testing.\n{% endhint %}\n{% else %}\nAsk us for the beta.\n{% endif %}\n\n' +
    '{% if visitor.claims.plan == "enterprise" %}\nYour SSO settings.\n{% endif %}\n';

  it('if and else are official if blocks (the else on the negated expression), written back as one tag', () => {
    const { document, written } = roundTrip(md);
    expect(document.nodes.map((b) => [b.type, b.data.expression])).toEqual([
      ['paragraph', undefined],
      ['if', 'visitor.claims.unsigned.beta'],
      ['if', '!(visitor.claims.unsigned.beta)'],
      ['if', 'visitor.claims.plan == "enterprise"'],
    ]);
    expect(document.nodes[1].nodes?.map((n) => (n as DocBlock).type)).toEqual(['paragraph', 'hint']);
    expect(written).toBe(md);
    expect(conditionExpressions(document)).toEqual([
      'visitor.claims.unsigned.beta',
      '!(visitor.claims.unsigned.beta)',
      'visitor.claims.plan == "enterprise"',
    ]);
  });

  it('evaluated for a visitor: what does not hold is gone from the document, its markdown and its search text', () => {
    const { document } = read(md);
    const beta = evaluateConditions(document, (e) => e === 'visitor.claims.unsigned.beta');
    const text = documentText(beta);
    expect(text).toContain('Beta features are on.');
    expect(text).toContain('Thanks for testing.');
    expect(text).not.toContain('Ask us for the beta');
    expect(text).not.toContain('SSO');
    expect(documentToMarkdown(beta)).not.toContain('{% if');
    const nobody = evaluateConditions(document, () => false);
    expect(documentText(nobody)).toBe('Everyone reads this.');
    // The search index holds no conditional content at all (one index serves every visitor).
    expect(
      sections('Page', document)
        .map((s) => s.body)
        .join(' '),
    ).toBe('Everyone reads this.');
    // A document without conditions is returned as it is.
    const plain = read('Just text.\n').document;
    expect(evaluateConditions(plain, () => false)).toBe(plain);
  });

  it('an if without a condition, and an else outside an if, are kept and said', () => {
    const { document, normalized } = read('{% if %}\nShown.\n{% endif %}\n\n{% else %}\n');
    expect(document.nodes.map((b) => b.type)).toEqual(['paragraph', 'markdown']);
    expect(normalized).toEqual(
      expect.arrayContaining(['{% if %} without a condition kept as its content', '{% else %} outside an {% if %} kept as written']),
    );
  });
});
