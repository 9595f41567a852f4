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
