import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultLinkResolver, documentToMarkdown, markdownToDocument, type ContentRef, type DocBlock, type JsonDocument } from '..';
import { InvalidInputError } from '@app/shared-kernel';
import { tagAttributes, tagLine } from '../gitbook-tags';

/** GitBook's block tags (its Git Sync markdown), read into the blocks its editor holds and written back its way. */
const read = (markdown: string, resolve = defaultLinkResolver) => markdownToDocument(markdown, resolve);
const types = (doc: JsonDocument): unknown[] =>
  doc.nodes.map((b) => {
    const kids = (b.nodes ?? []).filter((n): n is DocBlock => n.object === 'block');
    return kids.length && b.type !== 'code' && !b.type.startsWith('list') && b.type !== 'paragraph'
      ? { [b.type]: types({ ...doc, nodes: kids }) }
      : b.type;
  });
/** Written, then read and written again: the same markdown (a fixed point). */
const roundTrip = (markdown: string) => documentToMarkdown(read(markdown).document);

describe('GitBook block tags in markdown', () => {
  it('reads tag attributes as GitBook writes them, quoted or not, escaped quotes included', () => {
    expect(tagAttributes(' style="info"')).toEqual({ style: 'info' });
    expect(tagAttributes(` title='It\\'s' lineNumbers=true overflow="wrap"`)).toEqual({
      title: "It's",
      lineNumbers: 'true',
      overflow: 'wrap',
    });
    expect(tagAttributes(' "../.gitbook/includes/intro.md"')).toEqual({ '': '../.gitbook/includes/intro.md' });
    expect(tagAttributes(' url="a" url="b"')).toEqual({ url: 'a' });
    expect(tagLine('hint', [['style', 'warning']])).toBe('{% hint style="warning" %}');
    expect(
      tagLine('code', [
        ['title', 'say "hi"'],
        ['lineNumbers', undefined],
      ]),
    ).toBe('{% code title="say \\"hi\\"" %}');
  });

  it('hints: the style and the blocks inside, any of the four styles; an unknown one becomes info with a note', () => {
    const { document, normalized } = read('{% hint style="warning" %}\nMind the **gap**.\n\n* one\n* two\n{% endhint %}\n');
    expect(types(document)).toEqual([{ hint: ['paragraph', 'list-unordered'] }]);
    expect(document.nodes[0].data).toEqual({ style: 'warning' });
    expect(normalized).toEqual([]);
    const odd = read('{% hint style="tip" %}\nTip.\n{% endhint %}\n');
    expect(odd.document.nodes[0].data).toEqual({ style: 'info' });
    expect(odd.normalized).toContain('hint style "tip" became info');
  });

  it('tabs, steppers, columns and updates hold their items, nested to any depth', () => {
    const md = [
      '{% tabs %}',
      '{% tab title="npm" %}',
      '```bash',
      'npm install quire',
      '```',
      '{% endtab %}',
      '',
      '{% tab title="Steps" %}',
      '{% stepper %}',
      '{% step %}',
      '### Install',
      '',
      'Run it.',
      '{% endstep %}',
      '',
      '{% step %}',
      '{% hint style="success" %}',
      'Done.',
      '{% endhint %}',
      '{% endstep %}',
      '{% endstepper %}',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% columns %}',
      '{% column width="50%" %}',
      'Left',
      '{% endcolumn %}',
      '',
      '{% column %}',
      'Right',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '',
      '{% updates format="full" %}',
      '{% update date="2025-05-01" %}',
      '## Release 2',
      '{% endupdate %}',
      '{% endupdates %}',
      '',
    ].join('\n');
    const { document } = read(md);
    expect(types(document)).toEqual([
      {
        tabs: [
          { 'tabs-item': ['code'] },
          { 'tabs-item': [{ stepper: [{ 'stepper-step': ['heading-3', 'paragraph'] }, { 'stepper-step': [{ hint: ['paragraph'] }] }] }] },
        ],
      },
      { columns: [{ column: ['paragraph'] }, { column: ['paragraph'] }] },
      { updates: [{ update: ['heading-2'] }] },
    ]);
    const tabs = document.nodes[0].nodes as DocBlock[];
    expect(tabs.map((t) => t.data.title)).toEqual(['npm', 'Steps']);
    expect((document.nodes[1].nodes as DocBlock[])[0].data).toEqual({ width: '50%' });
    expect(document.nodes[2].data).toEqual({ format: 'full' });
    expect((document.nodes[2].nodes as DocBlock[])[0].data).toEqual({ date: '2025-05-01' });
    // Written back GitBook's way, and a fixed point from there.
    expect(documentToMarkdown(document)).toBe(md.replace('### Install', '### Install').replace('## Release 2', '## Release 2'));
    expect(roundTrip(documentToMarkdown(document))).toBe(documentToMarkdown(document));
  });

  it('code options: title, line numbers and overflow around a fence', () => {
    const md = '{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\nconsole.log(1)\n```\n{% endcode %}\n';
    const { document } = read(md);
    expect(document.nodes).toHaveLength(1);
    expect(document.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'js', title: 'app.js', lineNumbers: true, overflow: 'wrap' } });
    expect(documentToMarkdown(document)).toBe(md);
    // Without a fence inside, the content stays as blocks (noted).
    const loose = read('{% code title="x" %}\nJust text.\n{% endcode %}\n');
    expect(types(loose.document)).toEqual(['paragraph']);
    expect(loose.normalized.join()).toMatch(/code/);
  });

  it('embeds, content references and files, alone or with a caption', () => {
    const resolve = (url: string): ContentRef =>
      url === 'setup.md'
        ? { kind: 'page', page: 'p-setup' }
        : url.startsWith('.gitbook/assets/')
          ? { kind: 'file', file: 'f-guide' }
          : { kind: 'url', url };
    const md = [
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      '',
      '{% embed url="https://example.com/demo" %}',
      'A demo',
      '{% endembed %}',
      '',
      '{% content-ref url="setup.md" %}',
      '[setup.md](setup.md)',
      '{% endcontent-ref %}',
      '',
      '{% file src=".gitbook/assets/guide.pdf" %}',
      'The guide',
      '{% endfile %}',
      '',
    ].join('\n');
    const { document } = read(md, resolve);
    expect(document.nodes.map((b) => [b.type, b.data])).toEqual([
      ['embed', { url: 'https://www.youtube.com/watch?v=abc' }],
      ['embed', { url: 'https://example.com/demo', caption: 'A demo' }],
      ['content-ref', { ref: { kind: 'page', page: 'p-setup' } }],
      ['file', { ref: { kind: 'file', file: 'f-guide' }, caption: 'The guide' }],
    ]);
    const urls = (ref: ContentRef) => (ref.kind === 'page' ? 'setup.md' : ref.kind === 'file' ? '.gitbook/assets/guide.pdf' : '');
    expect(documentToMarkdown(document, urls)).toBe(md);
  });

  it('an image with a caption (<figure>) and an OpenAPI operation: read into their blocks, written back, a fixed point', () => {
    const md =
      '<figure><img src="https://example.com/a.png" alt="A diagram"><figcaption><p>The <strong>flow</strong> of events</p></figcaption></figure>\n\n' +
      '{% openapi-operation spec="petstore" path="/pet" method="post" %}\n[OpenAPI petstore](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi-operation %}\n';
    const doc = read(md).document;
    expect(types(doc)).toEqual([{ images: ['image'] }, 'openapi-operation']);
    const image = doc.nodes[0].nodes![0] as DocBlock;
    expect(image.data).toEqual({ ref: { kind: 'url', url: 'https://example.com/a.png' }, alt: 'A diagram' });
    expect(image.fragments).toHaveLength(1);
    expect(image.fragments![0].fragment).toBe('caption');
    expect(JSON.stringify(image.fragments![0].nodes)).toContain('"flow"');
    expect(JSON.stringify(image.fragments![0].nodes)).toContain('"bold"');
    expect(doc.nodes[1].data).toEqual({ ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet', method: 'post' });
    const written = documentToMarkdown(doc);
    expect(written).toContain(
      '<figure><img src="https://example.com/a.png" alt="A diagram"><figcaption><p>The <strong>flow</strong> of events</p></figcaption></figure>',
    );
    expect(written).toContain('{% openapi-operation spec="petstore" path="/pet" method="post" %}');
    expect(JSON.stringify(read(written).document)).toBe(JSON.stringify(doc));
    // Without a spec of the organization (the older `src` URL form), or with an unknown method: kept as content.
    const loose = markdownToDocument('{% openapi-operation path="/pet" method="fly" %}\nText.\n{% endopenapi-operation %}\n');
    expect(types(loose.document)).toEqual(['paragraph']);
    expect(loose.normalized.join(' ')).toMatch(/openapi-operation/);
  });

  it('colour marks (<mark style="color:…;background-color:…">): read into the official colour mark, written back as GitBook writes them', () => {
    const md =
      'Using <mark style="color:red;">**RED**</mark> and <mark style="color:purple;background-color:green;">both</mark>, ' +
      '<mark style="background-color:$warning;">a token</mark> and [<mark style="color:blue;">a link</mark>](https://example.com).\n';
    const doc = read(md).document;
    const leaves = (doc.nodes[0].nodes ?? []).flatMap((n) => (n.object === 'text' ? n.leaves : []));
    expect(leaves.find((l) => l.text === 'RED')?.marks).toEqual([
      { object: 'mark', type: 'bold' },
      { object: 'mark', type: 'color', data: { text: 'red', background: 'default' } },
    ]);
    expect(leaves.find((l) => l.text === 'both')?.marks).toEqual([
      { object: 'mark', type: 'color', data: { text: 'purple', background: 'green' } },
    ]);
    expect(leaves.find((l) => l.text === 'a token')?.marks).toEqual([
      { object: 'mark', type: 'color', data: { text: 'default', background: '$warning' } },
    ]);
    // A colour over a whole link is written around it (the same document when read again).
    const written = documentToMarkdown(doc);
    expect(written).toBe(
      md.replace(
        '[<mark style="color:blue;">a link</mark>](https://example.com)',
        '<mark style="color:blue;">[a link](https://example.com)</mark>',
      ),
    );
    const keyless = (d: JsonDocument) => JSON.stringify(d, (k, v: unknown) => (k === 'key' ? undefined : v));
    expect(keyless(read(written).document)).toBe(keyless(doc));
    // A colour outside the official palette, another property, or no style: kept as the HTML it is.
    for (const odd of ['<mark style="color:#ff0000;">x</mark>', '<mark style="font-weight:bold">x</mark>', '<mark>x</mark>']) {
      const kept = read(`A ${odd} b\n`).document;
      expect(JSON.stringify(kept)).not.toContain('"color"');
      expect(documentToMarkdown(kept)).toBe(`A ${odd} b\n`);
    }
  });

  it('prompts: a description and one code block, with the official options; anything else stays content', () => {
    const md =
      '{% prompt description="Create a site" icon="rectangle-terminal" openInAIProviders="true" defaultExpanded="full" %}\n```markdown\nUsing the CLI, create a site.\n```\n{% endprompt %}\n';
    const doc = read(md).document;
    expect(types(doc)).toEqual([{ prompt: ['code'] }]);
    expect(doc.nodes[0].data).toEqual({
      description: 'Create a site',
      icon: 'rectangle-terminal',
      openInAIProviders: true,
      defaultExpanded: 'full',
    });
    expect(documentToMarkdown(doc)).toBe(md);
    const bare = read('{% prompt description="Ask" %}\n```\nHello\n```\n{% endprompt %}\n');
    expect(bare.document.nodes[0].data).toEqual({ description: 'Ask' });
    expect(roundTrip('{% prompt description="Ask" %}\n```\nHello\n```\n{% endprompt %}\n')).toBe(
      '{% prompt description="Ask" %}\n```\nHello\n```\n{% endprompt %}\n',
    );
    const loose = read('{% prompt description="Ask" defaultExpanded="sideways" %}\nJust text.\n{% endprompt %}\n');
    expect(types(loose.document)).toEqual(['paragraph']);
    expect(loose.normalized.join(' ')).toMatch(/prompt/);
  });

  it('OpenAPI blocks from a spec file or URL ({% openapi src %}, the older {% swagger src %}): the official swagger block', () => {
    const files: Record<string, string> = { '.gitbook/assets/api.yaml': 'f1' };
    const resolve = (url: string): ContentRef => (files[url] ? { kind: 'file', file: files[url] } : defaultLinkResolver(url));
    const md =
      '{% openapi src=".gitbook/assets/api.yaml" path="/pets/{id}" method="get" %}\n[api.yaml](.gitbook/assets/api.yaml)\n{% endopenapi %}\n\n' +
      '{% openapi src="https://petstore3.swagger.io/api/v3/openapi.json" path="/pet" method="post" %}\n[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi %}\n';
    const doc = read(md, resolve).document;
    expect(doc.nodes.map((b) => [b.type, b.data])).toEqual([
      ['swagger', { ref: { kind: 'file', file: 'f1' }, path: '/pets/{id}', method: 'get' }],
      ['swagger', { ref: { kind: 'url', url: 'https://petstore3.swagger.io/api/v3/openapi.json' }, path: '/pet', method: 'post' }],
    ]);
    const urls = (ref: ContentRef) => (ref.kind === 'file' ? '.gitbook/assets/api.yaml' : ref.kind === 'url' ? ref.url : '');
    expect(documentToMarkdown(doc, urls)).toBe(md);
    const older = read(
      '{% swagger src="https://example.com/openapi.json" path="/pet" method="PUT" %}\n[x](https://example.com/openapi.json)\n{% endswagger %}\n',
    ).document;
    expect(older.nodes[0].data).toEqual({ ref: { kind: 'url', url: 'https://example.com/openapi.json' }, path: '/pet', method: 'put' });
  });

  it('the legacy {% swagger %} API method (description, parameters, responses): plain blocks that say the same, with a note', () => {
    const md = [
      '{% swagger method="get" path="/users/:id" baseUrl="https://api.example.com" summary="Get a user" %}',
      '{% swagger-description %}',
      'Returns one user.',
      '{% endswagger-description %}',
      '',
      '{% swagger-parameter in="path" name="id" type="string" required="true" %}',
      'The user id',
      '{% endswagger-parameter %}',
      '',
      '{% swagger-response status="200: OK" description="Found" %}',
      '```json',
      '{ "id": "u1" }',
      '```',
      '{% endswagger-response %}',
      '{% endswagger %}',
      '',
    ].join('\n');
    const { document, normalized } = read(md);
    expect(types(document)).toEqual(['paragraph', 'list-unordered', 'paragraph', 'paragraph', 'code']);
    const written = documentToMarkdown(document);
    expect(written).toContain('**GET** `https://api.example.com/users/:id` — Get a user');
    expect(written).toContain('`id` (path, string, required)');
    expect(written).toContain('The user id');
    expect(written).toContain('**Response 200: OK**: Found');
    expect(written).toContain('{ "id": "u1" }');
    expect(normalized.join(' ')).toMatch(/legacy \{% swagger %\}/);
  });

  it('a tag line in fenced code is code; an unclosed container tag is text; an end tag without its start is text', () => {
    const fenced = read('```md\n{% hint style="info" %}\nx\n{% endhint %}\n```\n');
    expect(types(fenced.document)).toEqual(['code']);
    const unclosed = read('{% hint style="info" %}\nNo end.\n');
    expect(types(unclosed.document)).toEqual(['paragraph']);
    expect(JSON.stringify(unclosed.document)).toContain('{% hint style=\\"info\\" %}');
    const stray = read('Text.\n\n{% endhint %}\n');
    expect(types(stray.document)).toEqual(['paragraph', 'paragraph']);
    // A hint whose end tag sits in a fence inside it still closes at its own end tag.
    const inner = read('{% hint style="info" %}\n```\n{% endhint %}\n```\n{% endhint %}\n');
    expect(types(inner.document)).toEqual([{ hint: ['code'] }]);
    // Right after a paragraph line, a tag line starts its block.
    expect(types(read('Intro line\n{% hint style="info" %}\nx\n{% endhint %}\n').document)).toEqual(['paragraph', { hint: ['paragraph'] }]);
  });

  it('hostile input: thousands of nested or unclosed tags, huge attributes, NUL bytes: read in bounded time, or refused as too deep', () => {
    const deep = '{% hint %}\n'.repeat(2_000) + 'x\n' + '{% endhint %}\n'.repeat(2_000);
    const t0 = performance.now();
    expect(() => read(deep)).toThrow(InvalidInputError); // nesting past 99 levels is refused (a 400), as for quotes and lists
    expect(types(read('{% hint %}\n'.repeat(50) + 'x\n' + '{% endhint %}\n'.repeat(50)).document)).toHaveLength(1);
    expect(() => read('{% tabs %}\n'.repeat(5_000))).not.toThrow();
    expect(() => read(`{% embed url="${'a'.repeat(100_000)}" %}\n`)).not.toThrow();
    expect(() => read('{% hint style="\u0000" %}\n\u0000\n{% endhint %}\n')).not.toThrow();
    expect(performance.now() - t0).toBeLessThan(20_000); // a regression guard against quadratic blow-ups, not a speed target
  });

  it('the real GitBook repository (fluentd docs): every hint is read, and written back as GitBook wrote it', () => {
    const root = join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (name.startsWith('.')) continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.md')) files.push(path);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(150);
    let hints = 0;
    let written = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const expected = (source.match(/^\{% hint /gm) ?? []).length;
      if (!expected) continue;
      const doc = read(source).document;
      const found = JSON.stringify(doc).match(/"type":"hint"/g)?.length ?? 0;
      expect([file, found]).toEqual([file, expected]);
      hints += found;
      const out = documentToMarkdown(doc);
      written += (out.match(/^\{% hint style="[a-z]+" %\}$/gm) ?? []).length;
      expect(out).not.toMatch(/^\{% endhint %\}.+/m);
    }
    expect(hints).toBe(24);
    expect(written).toBe(24);
  });
});
