import {
  conditionExpressions,
  documentText,
  documentToMarkdown,
  evaluateConditions,
  markdownToDocument,
  sections,
  withDefaults,
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

  it('an if without a condition is shown to nobody, an else outside an if is kept as written; both said', () => {
    const { document, normalized } = read('{% if %}\nHidden.\n{% endif %}\n\n{% else %}\n');
    expect(document.nodes.map((b) => b.type)).toEqual(['if', 'markdown']);
    expect(JSON.stringify(evaluateConditions(document, (e) => e !== ''))).not.toContain('Hidden');
    expect(normalized).toEqual(
      expect.arrayContaining([
        '{% if %} without a condition: its content is shown to nobody',
        '{% else %} outside an {% if %} kept as written',
      ]),
    );
  });
});

describe('GitBook annotations, math, mentions, emoji', () => {
  it('a footnote after a word is an annotation on that word, its definition the body; written back as the footnote', () => {
    const md =
      'Fluent buffers[^1] events before it flushes[^2] them.\n\n[^1]: In memory or on disk.\n\n[^2]: Every `flush_interval`.\n\n    Or when a chunk is full.\n';
    const { document, written } = roundTrip(md);
    const inlines = document.nodes[0].nodes!;
    const annotations = inlines.filter((n) => n.object === 'inline' && n.type === 'annotation') as unknown as DocBlock[];
    expect(annotations).toHaveLength(2);
    expect(documentText({ object: 'document', data: {}, nodes: [document.nodes[0]] })).toContain(
      'Fluent buffers events before it flushes them.',
    );
    expect(annotations[1].fragments![0]).toMatchObject({ fragment: 'annotation-body', type: 'annotation-body' });
    expect(annotations[1].fragments![0].nodes.map((b) => b.type)).toEqual(['paragraph', 'paragraph']);
    expect(document.nodes).toHaveLength(1);
    expect(written).toBe(md);
    // A footnote that nothing references stays as written.
    expect(read('Text.\n\n[^lonely]: Not referenced.\n').document.nodes.map((b) => b.type)).toEqual(['paragraph', 'markdown']);
  });

  it('$$formula$$ inside text is inline math, alone in its paragraph a math block; a `$$` in text stays text', () => {
    const md = 'The rate is $$r = n / t$$ per second.\n\n$$\n\\sum_{i=1}^{n} x_i\n$$\n\nThe PID of a shell is \\$$.\n';
    const { document, written } = roundTrip(md);
    expect(document.nodes[0].nodes).toContainEqual(expect.objectContaining({ type: 'inline-math', data: { formula: 'r = n / t' } }));
    expect(document.nodes[1]).toMatchObject({ type: 'math', data: { formula: '\\sum_{i=1}^{n} x_i' } });
    expect(documentText({ object: 'document', data: {}, nodes: [document.nodes[2]] })).toBe('The PID of a shell is $$.');
    expect(written).toBe(md);
  });

  it('a link titled "mention" is a mention of that page; an emoji inline is written as its character', () => {
    const { document, written } = roundTrip('See [Setup](guide/setup.md "mention") first.\n');
    expect(document.nodes[0].nodes).toContainEqual(
      expect.objectContaining({ type: 'mention', data: { ref: { kind: 'page', page: 'p2' } } }),
    );
    expect(written).toBe('See [guide/setup.md](guide/setup.md "mention") first.\n');
    const emoji: JsonDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: 'k',
          data: {},
          nodes: [{ object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f680' } }],
        },
      ],
    };
    expect(documentToMarkdown(emoji)).toBe('🚀\n');
  });
});

describe('GitBook HTML conventions', () => {
  it('<picture> with a dark <source> is an image with refDark (block, in a figure, and inline); written back as GitBook does', () => {
    const block =
      '<figure><picture><source srcset=".gitbook/assets/cover-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/cover.png" alt="The cover"></picture><figcaption><p>Both themes.</p></figcaption></figure>\n';
    const { document, written } = roundTrip(block);
    expect(document.nodes[0].nodes![0]).toMatchObject({
      type: 'image',
      data: { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'file', file: 'f2' }, alt: 'The cover' },
    });
    expect(written).toBe(block);
    const inline =
      'Open the menu <picture><source srcset=".gitbook/assets/cover-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/cover.png" alt="Menu"></picture> and pick one. A <img src=".gitbook/assets/cover.png" alt="badge" data-size="line"> badge.\n';
    const again = roundTrip(inline);
    const images = again.document.nodes[0].nodes!.filter((n) => n.object === 'inline' && n.type === 'inline-image');
    expect(images.map((n) => (n as { data: unknown }).data)).toEqual([
      { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'file', file: 'f2' }, alt: 'Menu' },
      { ref: { kind: 'file', file: 'f1' }, alt: 'badge', size: 'line' },
    ]);
    expect(again.written).toBe(inline);
  });

  it('<pre><code> with <strong> lines is a code block with highlighted lines', () => {
    const md =
      '<pre class="language-ruby"><code class="lang-ruby">&#x3C;source>\n<strong>  @type tail\n</strong>  path /var/log/app.log\n&#x3C;/source>\n</code></pre>\n';
    const { document, written } = roundTrip(md);
    const code = document.nodes[0];
    expect(code).toMatchObject({ type: 'code', data: { syntax: 'ruby' } });
    expect(
      code.nodes!.map((l) => [
        (l as DocBlock).data.highlighted === true,
        ((l as DocBlock).nodes ?? []).map((t) => (t.object === 'text' ? t.leaves.map((x) => x.text).join('') : '')).join(''),
      ]),
    ).toEqual([
      [false, '<source>'],
      [true, '  @type tail'],
      [false, '  path /var/log/app.log'],
      [false, '</source>'],
    ]);
    expect(written).toBe(md);
  });
});

describe('GitBook integrations and expandables', () => {
  it('{% @mermaid/diagram content="…" %} (its source over several lines) is the official integration block, written back alike', () => {
    const md = 'Before.\n\n{% @mermaid/diagram content="graph TD\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]" %}\n\nAfter.\n';
    const { document, written } = roundTrip(md);
    expect(document.nodes[1]).toMatchObject({
      type: 'integration',
      isVoid: true,
      data: { integration: 'mermaid', block: 'diagram', props: { content: 'graph TD\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]' } },
    });
    expect(written).toBe(md);
    // Without the line that ends it, the tag is text; inside fenced code it is code.
    expect(read('{% @mermaid/diagram content="graph TD\nA-->B\n').document.nodes[0].type).toBe('paragraph');
    expect(read('```\n{% @mermaid/diagram content="x" %}\n```\n').document.nodes[0].type).toBe('code');
  });

  it('<details>, a blank line, <summary> on its own: an expandable with that title (GitBook writes it so)', () => {
    const { document } = read('<details>\n\n<summary>What is a tag?</summary>\n\nA dotted name.\n\n</details>\n');
    expect(document.nodes).toHaveLength(1);
    const [title, body] = document.nodes[0].fragments!;
    expect(documentText({ object: 'document', data: {}, nodes: title.nodes })).toBe('What is a tag?');
    expect(documentText({ object: 'document', data: {}, nodes: body.nodes })).toBe('A dotted name.');
  });
});

describe('GitBook OpenAPI webhook and schemas blocks', () => {
  it('{% openapi-webhook %} and {% openapi-schemas %} are the official blocks on the organization’s spec, written back alike', () => {
    const md =
      '{% openapi-webhook spec="fluent" name="bufferFull" method="post" %}\nOpenAPI fluent\n{% endopenapi-webhook %}\n\n' +
      '{% openapi-schemas spec="fluent" schemas="Event,BufferState" grouped="false" %}\nOpenAPI fluent\n{% endopenapi-schemas %}\n';
    const { document, written } = roundTrip(md);
    expect(document.nodes[0]).toMatchObject({
      type: 'openapi-webhook',
      data: { ref: { kind: 'openapi', spec: 'fluent' }, name: 'bufferFull', method: 'post' },
    });
    expect(document.nodes[1]).toMatchObject({
      type: 'openapi-schemas',
      data: { ref: { kind: 'openapi', spec: 'fluent' }, schemas: ['Event', 'BufferState'], grouped: false },
    });
    expect(written).toBe(md);
    // Without what they need, their content, said.
    const { normalized } = read('{% openapi-webhook spec="fluent" %}\nText.\n{% endopenapi-webhook %}\n');
    expect(normalized).toContain('{% openapi-webhook %} without spec, name and method kept as its content');
  });
});

describe('after an adversarial review', () => {
  it('conditional content inside an annotation is evaluated like any other (never shown to a visitor who may not see it)', () => {
    const md = 'A word[^1] here.\n\n[^1]: Public note.\n\n    {% if visitor.claims.admin %}\n    TOPSECRET\n    {% endif %}\n';
    const { document } = read(md);
    expect(conditionExpressions(document)).toEqual(['visitor.claims.admin']);
    const shown = evaluateConditions(document, () => false);
    expect(JSON.stringify(shown)).not.toContain('TOPSECRET');
    expect(documentToMarkdown(shown)).not.toContain('TOPSECRET');
    expect(JSON.stringify(evaluateConditions(document, () => true))).toContain('TOPSECRET');
  });

  it('lines that open an integration tag and never close it are read in one bounded pass (100 kB of them: text)', () => {
    const md = Array.from({ length: 2_000 }, () => '{% @a/b x="' + 'a'.repeat(40)).join('\n');
    const { document } = read(md);
    expect(document.nodes.every((b) => b.type !== 'integration')).toBe(true);
  });

  it('hostile JSON for the new nodes answers 400 naming where, never a 500 later', () => {
    const inline = (type: string, data: unknown) => [
      { object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type, isVoid: true, data }] },
    ];
    const cases: [unknown[], string][] = [
      [inline('button', { kind: 'primary' }), 'document.nodes[0].nodes[0].data.label must be a string'],
      [inline('button', { label: 'Go', kind: 'tertiary' }), 'document.nodes[0].nodes[0].data.kind must be "primary" or "secondary"'],
      [inline('button', { label: 'Go', kind: 'primary', icon: 5 }), 'document.nodes[0].nodes[0].data.icon must be a string'],
      [
        inline('button', { label: 'Go', kind: 'primary', size: 'huge' }),
        'document.nodes[0].nodes[0].data.size must be "small", "medium" or "large"',
      ],
      [
        inline('button', { label: 'Go', kind: 'primary', size: null }),
        'document.nodes[0].nodes[0].data.size must be "small", "medium" or "large"',
      ],
      [inline('icon', {}), 'document.nodes[0].nodes[0].data.icon must be a string'],
      [inline('icon', { icon: 'rocket', color: 7 }), 'document.nodes[0].nodes[0].data.color must be a string'],
      [inline('mention', { ref: null }), 'document.nodes[0].nodes[0].data.ref must be a content reference ({kind, …})'],
      [inline('emoji', { code: 128640 }), 'document.nodes[0].nodes[0].data.code must be a string'],
      [inline('inline-math', {}), 'document.nodes[0].nodes[0].data.formula must be a string'],
      [[{ object: 'block', type: 'if', data: {}, nodes: [] }], 'document.nodes[0].data.expression must be a string'],
      [
        [{ object: 'block', type: 'table', data: { definition: { c0: null } } }],
        'document.nodes[0].data.definition must be an object of column definitions',
      ],
      [
        [{ object: 'block', type: 'table', data: { records: { r0: { values: 'x' } } } }],
        'document.nodes[0].data.records must be an object of records with values',
      ],
      [[{ object: 'block', type: 'integration', data: { integration: 'mermaid' } }], 'document.nodes[0].data.block must be a string'],
      [
        inline('annotation', {}).map((b) => ({ ...b, nodes: [{ ...b.nodes[0], fragments: 'x' }] })),
        'document.nodes[0].nodes[0].fragments must be an array',
      ],
      // Not nodes at all: refused where they are, not stored for every reader to trip on.
      [[7], 'document.nodes[0] must be a node'],
      [[{ object: 'block', type: 'paragraph', nodes: [null] }], 'document.nodes[0].nodes[0] must be a node'],
      [[{ object: 'document', nodes: [] }], 'document.nodes[0].object must be "block", "inline" or "text"'],
      [
        [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: ['x'] }] }],
        'document.nodes[0].nodes[0].leaves[0] must be a leaf',
      ],
    ];
    for (const [nodes, message] of cases) expect(() => withDefaults(nodes)).toThrow(message);
    // What passes is readable: a table without records, an emoji with a code that is none, written back without throwing.
    const ok = withDefaults([
      { object: 'block', type: 'table', data: { view: { type: 'cards', columns: [] } } },
      ...inline('emoji', { code: 'zzz' }),
    ]);
    expect(() => documentToMarkdown({ object: 'document', data: {}, nodes: ok })).not.toThrow();
  });

  it('a code block with highlighted lines keeps its title and line numbers through markdown', () => {
    const md =
      '{% code title="fluent.conf" lineNumbers="true" %}\n<pre class="language-xml"><code class="lang-xml">a\n<strong>b\n</strong></code></pre>\n{% endcode %}\n';
    const { document, written } = roundTrip(md);
    expect(document.nodes[0]).toMatchObject({ type: 'code', data: { title: 'fluent.conf', lineNumbers: true, syntax: 'xml' } });
    expect(written).toBe(md);
  });
});
