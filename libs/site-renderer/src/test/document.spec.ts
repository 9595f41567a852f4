import { iconSvg } from '../icons';
import { Fragment, h } from 'preact';
import { render } from 'preact-render-to-string';
import type { DocBlock, JsonDocument } from '@app/content-model';
import { markdownToDocument } from '@app/content-model';
import { DocumentRenderer } from '../document';
import { renderNotFound, renderPage, type SiteFrame } from '../page';

const links = {
  href: (ref: { kind: string; url?: string; page?: string; anchor?: string; file?: string }) =>
    ref.kind === 'url'
      ? /^https?:|^mailto:/.test(ref.url!)
        ? ref.url!
        : null
      : ref.kind === 'page'
        ? `/site/${ref.page}${ref.anchor ? `#${ref.anchor}` : ''}`
        : ref.kind === 'file'
          ? `/site/~files/${ref.file}`
          : ref.kind === 'anchor'
            ? `#${ref.anchor}`
            : null,
};

const text = (t: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: [] }] });
const block = (type: string, data: Record<string, unknown>, nodes: DocBlock['nodes'] = [], extra: Partial<DocBlock> = {}): DocBlock => ({
  object: 'block',
  type,
  key: type,
  data,
  nodes,
  ...extra,
});
const doc = (...nodes: DocBlock[]): JsonDocument => ({ object: 'document', data: {}, nodes });
const html = (d: JsonDocument) => {
  const r = new DocumentRenderer(links);
  return { html: render(h(Fragment, null, r.render(d))), headings: r.headings };
};

describe('DocumentRenderer: every block type as HTML', () => {
  it('renders headings with unique anchors (collected for the table of contents) and marks', () => {
    const { html: out, headings } = html(
      doc(
        block('heading-1', {}, [text('Install')]),
        block('heading-2', {}, [text('Install')]),
        block('paragraph', {}, [
          {
            object: 'text',
            leaves: [
              { object: 'leaf', text: 'b', marks: [{ object: 'mark', type: 'bold' }] },
              { object: 'leaf', text: 'k', marks: [{ object: 'mark', type: 'keyboard' }] },
              {
                object: 'leaf',
                text: 's',
                marks: [
                  { object: 'mark', type: 'strikethrough' },
                  { object: 'mark', type: 'italic' },
                ],
              },
            ],
          },
        ]),
      ),
    );
    expect(out).toContain('<h2 id="install">Install<a class="anchor" href="#install" aria-label="Link to “Install”">#</a></h2>');
    expect(out).toContain('<h3 id="install-2">');
    expect(out).toContain('<p><strong>b</strong><kbd>k</kbd><em><s>s</s></em></p>');
    expect(headings).toEqual([
      { id: 'install', text: 'Install', level: 2 },
      { id: 'install-2', text: 'Install', level: 3 },
    ]);
  });

  it('renders lists, task lists, quotes, dividers, hints, code with title and line numbers, tables and images', () => {
    const { html: out } = html(
      doc(
        block('list-ordered', { start: 3 }, [block('list-item', {}, [block('paragraph', {}, [text('three')])])]),
        block('list-tasks', {}, [block('list-item', { checked: true }, [block('paragraph', {}, [text('done')])])]),
        block('blockquote', {}, [block('paragraph', {}, [text('quoted')])]),
        block('divider', {}),
        block('hint', { style: 'danger' }, [block('paragraph', {}, [text('careful')])]),
        block('hint', { style: '"><script>' }, [block('paragraph', {}, [text('odd style')])]),
        block('code', { syntax: 'ts"onload="x', title: 'app.ts', lineNumbers: true }, [block('code-line', {}, [text('let a = 1 < 2;')])]),
        block('images', { align: 'center' }, [
          block('image', { ref: { kind: 'file', file: 'f1' }, alt: 'A diagram', caption: 'Figure 1', width: 300 }),
        ]),
        block('image', { ref: { kind: 'file', file: 'light' }, refDark: { kind: 'file', file: 'dark' }, alt: 'Themed' }),
        block('image', { ref: { kind: 'url', url: 'javascript:alert(1)' }, alt: 'Refused' }),
      ),
    );
    expect(out).toContain('<ol start="3"><li><p>three</p></li></ol>');
    expect(out).toContain('<ul class="tasks"><li><input type="checkbox" disabled checked aria-label="done"/><p>done</p></li></ul>');
    expect(out).toContain('<blockquote><p>quoted</p></blockquote><hr/>');
    // GitBook's icon column: each style's icon, drawn and hidden from screen readers; an unknown style is info.
    expect(out).toMatch(
      /<div class="hint hint-danger" role="note" aria-label="Danger"><span class="hint-icon"><svg class="icon" viewBox="[^"]+" aria-hidden="true" focusable="false">[\s\S]+?<\/svg><\/span><div class="hint-body"><p>careful<\/p><\/div><\/div>/,
    );
    const danger = /<div class="hint hint-danger"[\s\S]*?<\/svg>/.exec(out)![0];
    expect(danger).toContain(iconSvg('triangle-exclamation')!.paths);
    expect(danger).not.toContain(iconSvg('circle-info')!.paths);
    expect(out).toMatch(
      /<div class="hint hint-info" role="note" aria-label="Information"><span class="hint-icon"><svg [^>]+>[\s\S]+?<\/svg><\/span><div class="hint-body"><p>odd style<\/p><\/div><\/div>/,
    );
    expect(out).toContain(
      '<figure class="code"><figcaption>app.ts</figcaption><pre class="numbered" tabindex="0"><code class="language-tsonloadx"><span class="line">let a = 1 &lt; 2;\n</span></code></pre></figure>',
    );
    expect(out).toContain(
      '<div class="images align-center"><figure class="image"><img src="/site/~files/f1" alt="A diagram" loading="lazy" width="300"/><figcaption>Figure 1</figcaption></figure></div>',
    );
    // A dark variant: one image per theme, switched by the stylesheet.
    expect(out).toContain(
      '<figure class="image"><img src="/site/~files/light" alt="Themed" loading="lazy" class="img-light"/><img src="/site/~files/dark" alt="Themed" loading="lazy" class="img-dark"/></figure>',
    );
    expect(out).toContain('<figure class="image"></figure>');
    expect(out).not.toContain('javascript:');
  });

  it('renders tables from their cells’ markdown, expandables, tabs, steppers, columns, math, files, embeds and unknown blocks', () => {
    const table = markdownToDocument('| Name | Link |\n| :-: | --- |\n| **x** | [p](https://example.com) |\n').document;
    const { html: out } = html(
      doc(
        ...table.nodes,
        block('expandable', {}, [], {
          isVoid: true,
          fragments: [
            { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [block('paragraph', {}, [text('More')])] },
            { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [block('paragraph', {}, [text('Hidden')])] },
          ],
        }),
        block('tabs', {}, [block('tabs-item', { title: 'npm' }, [block('paragraph', {}, [text('npm i')])])]),
        block('stepper', {}, [block('stepper-step', {}, [block('paragraph', {}, [text('Step')])])]),
        block('columns', {}, [block('column', {}, [block('paragraph', {}, [text('Left')])])]),
        block('math', { formula: 'a < b' }),
        block('file', { ref: { kind: 'file', file: 'f2' }, caption: 'Report' }),
        block('embed', { url: 'javascript:alert(1)' }, [text('bad')]),
        block('embed', { url: 'https://example.com/video' }),
        block('integration-thing', {}, [block('paragraph', {}, [text('inside')])]),
      ),
    );
    expect(out).toContain('<th scope="col" class="align-center">Name</th>');
    expect(out).toContain(
      '<td class="align-center"><strong>x</strong></td><td class="align-left"><a href="https://example.com" rel="noopener noreferrer">p</a></td>',
    );
    expect(out).toContain('<details class="expandable"><summary>More</summary><p>Hidden</p></details>');
    expect(out).toContain('<section class="tab"><p class="tab-title">npm</p><p>npm i</p></section>');
    expect(out).toContain('<ol class="stepper"><li class="step"><p>Step</p></li></ol>');
    expect(out).toContain('<div class="columns"><div class="column"><p>Left</p></div></div>');
    // Rendered on the server as MathML, with the TeX kept as its annotation.
    expect(out).toMatch(/<div class="math"><span class="katex"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML" display="block">/);
    expect(out).toContain('<annotation encoding="application/x-tex">a &lt; b</annotation>');
    expect(out).toContain('<p class="file"><a href="/site/~files/f2" download>Report</a></p>');
    expect(out).toContain('<p class="embed">bad</p>');
    expect(out).toContain('<a href="https://example.com/video" rel="noopener noreferrer">https://example.com/video</a>');
    expect(out).toContain('<div class="block" data-type="integration-thing"><p>inside</p></div>');
  });

  it('shows a formula KaTeX cannot read as its source, and lets no formula run a script or a link', () => {
    const { html: broken } = html(doc(block('math', { formula: '\\frac{1}{' })));
    expect(broken).toContain('<pre class="math"><code>\\frac{1}{</code></pre>');
    const { html: hostile } = html(doc(block('math', { formula: '\\href{javascript:alert(1)}{x} <script>alert(2)</script>' })));
    // The TeX stays as text in the annotation; no link and no script element come out of it.
    expect(hostile).not.toMatch(/href=|<script/);
    expect(hostile).not.toMatch(/style=/);
  });

  it('resolves links between pages and refuses script URLs', () => {
    const { document } = markdownToDocument('[a](https://ok.example) [b](javascript:alert(1)) [c](#top)');
    const d = document;
    // A page reference, as stored once a link to another page was resolved.
    d.nodes.push(
      block('paragraph', {}, [
        { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'page', page: 'p9', anchor: 'x' } }, nodes: [text('page')] },
      ]),
    );
    const { html: out } = html(d);
    expect(out).toContain('<a href="https://ok.example" rel="noopener noreferrer">a</a>');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('<a href="#top">c</a>');
    expect(out).toContain('<a href="/site/p9#x">page</a>');
  });

  it('sanitizes kept raw HTML: no script, no event handler, no style, no frame', () => {
    const { document } = markdownToDocument(
      '<div onclick="x()"><script>alert(1)</script><iframe src="https://evil.example"></iframe><p style="color:red">kept</p></div>\n\nInline <img src=x onerror=alert(1)> too.',
    );
    const { html: out } = html(document);
    expect(out).not.toMatch(/<script|onclick|onerror|<iframe|style=/);
    expect(out).toContain('kept');
  });
});

describe('DocumentRenderer: colour marks and prompts (GitBook blocks from a repository)', () => {
  it('a colour mark is a <mark> with the palette classes; a colour outside the palette is plain text', () => {
    const { document } = markdownToDocument('A <mark style="color:red;background-color:$info;">**hot**</mark> word.\n');
    const out = html(document).html;
    expect(out).toContain('<mark class="color tc-red bg-info"><strong>hot</strong></mark>');
    const forged = doc(
      block('paragraph', {}, [
        {
          object: 'text',
          leaves: [
            {
              object: 'leaf',
              text: 'x',
              marks: [{ object: 'mark', type: 'color', data: { text: 'red" onclick="y', background: 'default' } }],
            },
          ],
        },
      ]),
    );
    expect(html(forged).html).toBe('<div class="document"><p>x</p></div>');
  });

  it('a prompt is a disclosure with its description, the prompt as code, folded unless asked otherwise, and assistant links when set', () => {
    const md = (attrs: string) =>
      `{% prompt description="Create a site" ${attrs}%}\n\`\`\`\nUse the CLI & publish.\n\`\`\`\n{% endprompt %}\n`;
    const folded = html(markdownToDocument(md('')).document).html;
    expect(folded).toMatch(/^<div class="document"><details class="prompt"><summary>Create a site<\/summary><figure class="code">/);
    expect(folded).toContain('Use the CLI &amp; publish.');
    expect(folded).not.toContain('chatgpt.com');
    const open = html(markdownToDocument(md('defaultExpanded="full" openInAIProviders="true" ')).document).html;
    expect(open).toMatch(/^<div class="document"><details class="prompt" open>/);
    expect(open).toContain('href="https://chatgpt.com/?q=Use%20the%20CLI%20%26%20publish."');
    expect(open).toContain('href="https://claude.ai/new?q=Use%20the%20CLI%20%26%20publish."');
  });
});

describe('renderPage and renderNotFound', () => {
  const frame: SiteFrame = {
    title: 'Docs <&>',
    home: '/site/',
    assets: { css: '/site/~site.css', js: '/site/~site.js' },
    theme: 'dark',
    noindex: true,
    headerLinks: [{ title: 'Blog', href: 'https://blog.example' }],
    sections: [],
    variants: [],
    nav: [
      { title: 'Intro', href: '/site/intro', current: true, open: true, children: [] },
      {
        title: 'Group',
        href: null,
        current: false,
        open: false,
        children: [{ title: 'Child', href: '/site/child', current: false, open: false, children: [] }],
      },
    ],
  };

  it('is a complete document: escaped titles, canonical and social tags, theme, noindex, skip link, landmarks', () => {
    const out = renderPage(frame, {
      title: 'Intro "quoted"',
      description: 'About <this>',
      url: 'https://docs.example/site/intro',
      breadcrumbs: [],
      next: { title: 'Child', href: '/site/child' },
      document: doc(block('paragraph', {}, [text('Hello')])),
      links,
    });
    expect(out.startsWith('<!doctype html><html lang="en" class="theme-dark">')).toBe(true);
    expect(out).toContain('<title>Intro &quot;quoted&quot; | Docs &lt;&amp;></title>');
    expect(out).toContain('<meta name="robots" content="noindex"/>');
    expect(out).toContain('<link rel="canonical" href="https://docs.example/site/intro"/>');
    expect(out).toContain('<meta property="og:description" content="About &lt;this>"/>');
    expect(out).toContain('<a class="skip" href="#content">Skip to content</a>');
    expect(out).toContain('<main id="content">');
    expect(out).toContain('<a href="/site/intro" aria-current="page" class="current">Intro</a>');
    // A group is a heading with its pages; a page with sub-pages has a toggle of its own, never a link inside a summary.
    expect(out).toContain(
      '<li><span class="nav-group">Group</span><ul class="nav-children"><li><a href="/site/child">Child</a></li></ul></li>',
    );
    expect(out).not.toMatch(/<summary>(?:(?!<\/summary>)[^])*<a /);
    expect(out).toContain('<a class="next" href="/site/child" rel="next"><span>Next</span>Child</a>');
    expect(out).not.toMatch(/<script>|style=/);
  });

  it('page actions: "Copy page" (shown by the script) and a menu that opens without it; "Last updated" keeps the date in its title', () => {
    const page = (actions?: string[]) =>
      renderPage(frame, {
        title: 'Intro',
        url: 'https://docs.example/site/intro',
        breadcrumbs: [],
        document: doc(block('paragraph', {}, [text('Hello')])),
        links,
        actions,
        edit: { url: 'https://gitlab.example/acme/docs/-/edit/main/intro.md', label: 'Edit on GitLab' },
        updatedAt: '2026-11-02T10:00:00.000Z',
      });
    const out = page();
    expect(out).toMatch(
      /<button type="button" class="copy-page" hidden data-markdown="https:\/\/docs.example\/site\/intro.md"><svg[^>]*>[\s\S]*?<\/svg>Copy page<\/button>/,
    );
    const menu =
      /<details class="actions-menu"><summary><span class="actions-label">Page actions<\/span><svg[\s\S]*?<\/summary><div class="actions-list">([\s\S]*?)<\/div><\/details>/.exec(
        out,
      );
    expect(menu).not.toBeNull();
    expect([...menu![1].matchAll(/<\/svg>([^<]+)<\/a>/g)].map((m) => m[1])).toEqual([
      'View as Markdown',
      'Open in ChatGPT',
      'Open in Claude',
      'Edit on GitLab',
    ]);
    // The Git host's own icon on its edit link.
    expect(menu![1]).toContain(`${iconSvg('gitlab')!.paths}</svg>Edit on GitLab</a>`);
    expect(out).toContain(
      '<p class="last-updated">Last updated <time datetime="2026-11-02T10:00:00.000Z" title="2 November 2026">2 November 2026</time></p>',
    );
    // Without the markdown action there is nothing to copy; without any action, no menu at all.
    expect(page(['git'])).not.toContain('copy-page');
    expect(page([])).not.toContain('page-actions');
  });

  it('renders the 404 page in the site’s frame', () => {
    const out = renderNotFound(frame);
    expect(out).toContain('<h1>Page not found</h1>');
    expect(out).toContain('Docs &lt;&amp;>');
  });
});

describe('DocumentRenderer: OpenAPI operation blocks', () => {
  const opBlock = (spec: string, method: string, path: string) =>
    block('openapi-operation', { ref: { kind: 'openapi', spec }, method, path });
  const operation = {
    method: 'post',
    path: '/pets/{id}',
    summary: 'Update a <pet>',
    description: 'First <script>alert(1)</script> paragraph.\n\nSecond.',
    deprecated: true,
    servers: ['https://api.example'],
    parameters: [{ name: 'id', in: 'path', required: true, description: 'The pet.', schema: { type: 'integer' } }],
    requestBody: {
      contentType: 'application/json',
      required: true,
      schema: { type: 'object', properties: [{ name: 'kind', required: false, schema: { type: 'string', enum: ['"cat"', '"dog"'] } }] },
      example: '{\n  "kind": "cat"\n}',
    },
    responses: [
      { status: '200', description: 'Updated', bodies: [] },
      { status: '404', description: 'No such pet', bodies: [] },
    ],
  };

  it('renders the endpoint, parameters, request body with its schema and example, and responses; text escaped', () => {
    const asked: unknown[] = [];
    const r = new DocumentRenderer(links, {
      operations: (ref) => {
        asked.push(ref);
        return ref.spec === 'pets' && ref.method === 'post' && ref.path === '/pets/{id}' ? operation : null;
      },
    });
    const out = render(h(Fragment, null, r.render(doc(opBlock('pets', 'POST', '/pets/{id}')))));
    expect(asked).toEqual([{ spec: 'pets', method: 'post', path: '/pets/{id}' }]);
    expect(out).toContain('<h2 id="update-a-pet">Update a &lt;pet>');
    expect(out).toContain(
      '<p class="api-endpoint"><span class="api-method api-post">POST</span> <code>https://api.example/pets/{id}</code></p>',
    );
    expect(out).toContain('<p class="api-deprecated" role="note">Deprecated</p>');
    expect(out).toContain('<p>First &lt;script>alert(1)&lt;/script> paragraph.</p><p>Second.</p>');
    expect(out).toContain('<td><code>id</code><span class="api-required"> required</span></td><td>path</td><td><code>integer</code></td>');
    expect(out).toContain('<code class="api-name">kind</code> <span class="api-type">string</span>');
    expect(out).toContain('One of: <code>&quot;cat&quot;</code>, <code>&quot;dog&quot;</code>');
    expect(out).toContain('<figcaption>Example</figcaption>');
    expect(out).toContain('<details class="api-response" open><summary><code>200</code> Updated</summary></details>');
    expect(out).toContain('<details class="api-response"><summary><code>404</code> No such pet</summary></details>');
    expect(r.headings).toEqual([{ id: 'update-a-pet', text: 'Update a <pet>', level: 2 }]);
    expect(out).not.toContain('<script>');
  });

  it('says plainly when an operation is not available (no spec, no such operation, a broken block)', () => {
    const r = new DocumentRenderer(links, { operations: () => null });
    const out = render(
      h(Fragment, null, r.render(doc(opBlock('gone', 'get', '/x'), block('openapi-operation', { ref: { kind: 'openapi' } })))),
    );
    expect(out).toContain('<div class="api-operation api-missing" role="note"><p>GET /x (gone) is not available.</p></div>');
    expect(out).toContain('<p>An API operation is not available.</p>');
  });

  it('shows a reusable content in place (and what it includes); one that is gone, or includes itself, says so', () => {
    const include = (id: string) =>
      block('reusable-content', { ref: { kind: 'reusable-content', reusableContent: id } }, [], { isVoid: true });
    const contents: Record<string, JsonDocument> = {
      backup: doc(block('paragraph', {}, [text('Copy the data folder.')]), include('footer')),
      footer: doc(block('paragraph', {}, [text('Questions? Ask us.')])),
      loop: doc(block('paragraph', {}, [text('Again:')]), include('loop')),
    };
    const r = new DocumentRenderer(links, { reusable: (id) => contents[id] ?? null });
    const out = render(h(Fragment, null, r.render(doc(include('backup'), include('gone'), include('loop')))));
    expect(out).toContain(
      '<div class="reusable-content"><p>Copy the data folder.</p><div class="reusable-content"><p>Questions? Ask us.</p></div></div>',
    );
    expect(out.match(/This reusable content is not available\./g)).toHaveLength(2);
    expect(out.match(/Again:/g)).toHaveLength(1);
  });
});

describe("GitBook's look (docs/gitbook-look.md)", () => {
  const inline = (type: string, data: Record<string, unknown>, nodes: DocBlock['nodes'] = [], extra: object = {}) =>
    ({ object: 'inline', type, key: type, data, nodes, ...extra }) as unknown as DocBlock;
  const cardsTable = (view: Record<string, unknown>, records: Record<string, unknown>[]) =>
    block('table', {
      view: {
        type: 'cards',
        columns: ['title', 'text', 'note'],
        cardSize: 'medium',
        targetDefinition: 'target',
        coverDefinition: 'cover',
        ...view,
      },
      definition: {
        title: { type: 'text', title: '' },
        text: { type: 'text', title: 'Summary' },
        note: { type: 'text', title: 'Note' },
        target: { type: 'content-ref', title: '' },
        cover: { type: 'image', title: 'Cover' },
      },
      records: Object.fromEntries(records.map((values, i) => [`r${i}`, { orderIndex: `a${i}`, values }])),
    });

  it('a hint whose first block is a heading shows it as its header row; the others are one tinted box, named by their style', () => {
    const { html: out, headings } = html(
      doc(
        block('hint', { style: 'warning' }, [
          block('heading-2', {}, [text('Before you start')]),
          block('paragraph', {}, [text('Back up.')]),
        ]),
        block('hint', { style: 'success' }, [block('paragraph', {}, [text('Done.')])]),
      ),
    );
    expect(out).toMatch(
      /<div class="hint hint-warning hint-headed" role="note" aria-label="Warning"><span class="hint-icon"><svg[^>]*>[\s\S]*?<\/svg><\/span><div class="hint-head"><h3 id="before-you-start">Before you start<a class="anchor"[^>]*>#<\/a><\/h3><\/div><div class="hint-body"><p>Back up.<\/p><\/div><\/div>/,
    );
    expect(out).toMatch(
      /<div class="hint hint-success" role="note" aria-label="Success"><span class="hint-icon">[\s\S]*?<div class="hint-body"><p>Done.<\/p><\/div>/,
    );
    expect(headings).toEqual([{ id: 'before-you-start', text: 'Before you start', level: 3 }]);
  });

  it('cards: a grid by default, titled values unless hideColumnTitle, empty values left out, the record’s objectFit and alt on its cover', () => {
    const { html: out } = html(
      doc(
        cardsTable({}, [
          {
            title: 'Quickstart',
            text: 'In five minutes.',
            note: '',
            target: { kind: 'page', page: 'quick' },
            cover: { ref: { kind: 'file', file: 'c1' }, objectFit: 'contain', alt: 'A rocket' },
          },
        ]),
      ),
    );
    expect(out).toContain('<div class="cards-frame"><ul class="cards cards-medium"><li class="card card-linked">');
    expect(out).toContain('<img class="card-cover fit-contain" src="/site/~files/c1" alt="A rocket" loading="lazy"/>');
    // The first value is the card's link; a column with a title shows it above its value, one without shows the value alone.
    expect(out).toContain('<div class="card-field"><a class="card-target" href="/site/quick">Quickstart</a></div>');
    expect(out).toMatch(
      /<div class="card-field"><div class="card-label" id="([^"]+)">Summary<\/div><div aria-labelledby="\1">In five minutes.<\/div><\/div>/,
    );
    expect(out).not.toContain('Note');
    const hidden = html(doc(cardsTable({ hideColumnTitle: true }, [{ title: 'A', text: 'B', target: { kind: 'page', page: 'a' } }]))).html;
    expect(hidden).not.toContain('card-label');
    expect(hidden).toContain('<div class="card-field">B</div>');
  });

  it('cards with wrap false are one row that scrolls sideways: a focusable, named region; large cards keep their size class', () => {
    const { html: out } = html(doc(cardsTable({ wrap: false, cardSize: 'large' }, [{ title: 'A', target: { kind: 'page', page: 'a' } }])));
    expect(out).toContain(
      '<div class="cards-frame cards-carousel" role="region" tabindex="0" aria-label="Cards (scroll sideways)"><ul class="cards cards-large">',
    );
    // An unknown objectFit is the default (cover), a cover that is a plain reference too.
    const plain = html(
      doc(
        cardsTable({}, [
          { title: 'A', cover: { ref: { kind: 'file', file: 'c' }, objectFit: 'stretch"' }, target: { kind: 'page', page: 'a' } },
        ]),
      ),
    ).html;
    expect(plain).toContain('<img class="card-cover" src="/site/~files/c" alt loading="lazy"/>');
  });

  it('buttons take their official size (large when unset) and kind; an icon its official colour, an unknown colour none', () => {
    const { html: out } = html(
      doc(
        block('paragraph', {}, [
          inline('button', { label: 'Start', kind: 'primary', ref: { kind: 'page', page: 'a' } }),
          inline('button', { label: 'More', kind: 'secondary', size: 'small', ref: { kind: 'page', page: 'b' } }),
          inline('button', { label: 'Odd', kind: 'secondary', size: 'huge"' }),
          inline('icon', { icon: 'rocket', color: 'green' }),
          inline('icon', { icon: 'rocket', color: 'red" onload="x' }),
        ]),
      ),
    );
    expect(out).toContain('<a class="button button-primary button-large" href="/site/a">');
    expect(out).toContain('<a class="button button-secondary button-small" href="/site/b">');
    expect(out).toContain('<span class="button button-secondary button-large">');
    expect(out).toMatch(/<span class="color tc-green"><svg class="icon"/);
    expect(out).not.toContain('onload');
    expect((out.match(/<svg class="icon"/g) ?? []).length).toBe(2);
  });

  it('a link that leads nowhere is its text for visitors, marked as broken (with what it named) in a member’s preview', () => {
    const d = doc(
      block('paragraph', {}, [
        inline('link', { ref: { kind: 'url', url: 'javascript:alert(1)' } }, [text('odd')]),
        inline('link', { ref: { kind: 'page', page: 'p1' } }, [text('fine')]),
      ]),
    );
    expect(html(d).html).toContain('<p><span>odd</span><a href="/site/p1">fine</a></p>');
    const r = new DocumentRenderer(links, { markBroken: true });
    expect(render(h(Fragment, null, r.render(d)))).toContain(
      '<p><span class="broken-link" title="Broken link: javascript:alert(1)">odd<span class="visually-hidden"> (broken link)</span></span><a href="/site/p1">fine</a></p>',
    );
  });

  it('an annotation is a focusable <dfn> whose note keeps its blocks (paragraphs, code) as blocks', () => {
    const { html: out } = html(
      doc(
        block('paragraph', {}, [
          inline('annotation', {}, [text('TTL')], {
            fragments: [
              {
                object: 'fragment',
                fragment: 'annotation-body',
                nodes: [block('paragraph', {}, [text('Time to live.')]), block('code', {}, [block('code-line', {}, [text('ttl: 60')])])],
              },
            ],
          }),
        ]),
      ),
    );
    expect(out).toMatch(
      /<span class="annotation"><dfn class="annotated" tabindex="0" aria-describedby="(annotation-1)">TTL<\/dfn><span class="annotation-body" role="tooltip" id="\1"><span class="annotation-block annotation-paragraph">Time to live.<\/span><span class="annotation-block annotation-code"><code>ttl: 60<\/code><\/span><\/span><\/span>/,
    );
  });
});
