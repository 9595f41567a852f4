import { documentCss, siteCss } from '../assets';

describe('documentCss: the published page stylesheet kept inside one element (the web app, #50)', () => {
  const css = documentCss('.document-preview', '.hl-keyword{color:red}');

  it('wraps every site rule in one @scope block, with the code colours inside it', () => {
    expect(css.startsWith('@scope (.document-preview) {\n')).toBe(true);
    expect(css.trimEnd().endsWith('}')).toBe(true);
    expect(css).toContain('.hint{');
    expect(css).toContain('.hl-keyword{color:red}');
    // One block: the only top-level "@scope" is the first.
    expect(css.indexOf('@scope', 1)).toBe(-1);
  });

  it('takes the document root out: no :root, no html rule; the scope root holds the variables and the dark palette', () => {
    expect(css).not.toMatch(/:root/);
    expect(css).not.toMatch(/(^|[}\n])html\{/);
    expect(css).toContain(':scope{--primary:#346ddb;');
    expect(css).toMatch(/@media \(prefers-color-scheme:dark\)\{:scope:not\(\.theme-light\)\{[^}]*--bg:#0d1117/);
    // The root paints no background of its own (a change's tint shows through), and keeps colour and font.
    expect(css).toMatch(/:scope\{color:var\(--fg\);font:16px/);
    expect(css).not.toMatch(/:scope\{background/);
  });

  it('keeps every rule of the site (but the root background): the same text once the root is renamed', () => {
    const site = siteCss(undefined, '.hl-keyword{color:red}');
    const back = css
      .slice('@scope (.document-preview) {\n'.length, -'\n}\n'.length)
      .replace(/:scope\{color:var\(--fg\);font:16px/, 'html{background:var(--bg);color:var(--fg);font:16px');
    expect(back.replace(/:scope/g, ':root')).toBe(site);
  });

  it('refuses a root that is not a simple selector (it is written into CSS)', () => {
    for (const bad of ['', '.a{} b', '.a,.b', 'x) {', '.a .b']) expect(() => documentCss(bad)).toThrow(/simple selector/);
  });
});

describe('siteCss: the site font', () => {
  const face = (url: string, format: 'woff2' | 'woff' = 'woff2', weight = 400) => ({ weight, sources: [{ url, format }] });

  it('declares an uploaded family’s faces and sets it on the page; an official name is used as the reader has it', () => {
    const css = siteCss(undefined, '', {
      family: "Noto Sans d'Été",
      faces: [
        face('https://api.example/v1/storage/files/o/1/a.woff2'),
        face('https://api.example/v1/storage/files/o/2/b.woff', 'woff', 700),
      ],
    });
    expect(css).toContain(
      '@font-face{font-family:"Noto Sans d\'Été";src:url("https://api.example/v1/storage/files/o/1/a.woff2") format("woff2");font-weight:400;font-style:normal;font-display:swap}',
    );
    expect(css).toContain('src:url("https://api.example/v1/storage/files/o/2/b.woff") format("woff");font-weight:700;');
    expect(css).toContain('html{font-family:"Noto Sans d\'Été",system-ui');
    expect(siteCss(undefined, '', 'SourceSansPro')).toContain('html{font-family:"Source Sans Pro",system-ui');
  });

  it('writes nothing that could leave a CSS string, and no family without a face', () => {
    const hostile = [
      { family: 'A"}html{color:red', faces: [face('https://x/a.woff2')] },
      { family: 'Fine', faces: [face('https://x/a".woff2'), face('https://x/b);}body{x:y', 'woff2', 700)] },
      { family: 'Fine', faces: [face('https://x/a\n.woff2')] },
      { family: 'Fine', faces: [{ weight: 400, sources: [{ url: 'https://x/a.woff2', format: 'ttf' as 'woff2' }] }] },
      { family: 'Fine', faces: [face('https://x/a.woff2', 'woff2', 0), face('https://x/a.woff2', 'woff2', 400.5)] },
      { family: 'Fine', faces: [] },
    ];
    const plain = siteCss(undefined, '');
    for (const font of hostile) expect(siteCss(undefined, '', font)).toBe(plain);
  });
});
