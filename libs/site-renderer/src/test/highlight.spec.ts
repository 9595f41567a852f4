import { jest } from '@jest/globals';
import { Fragment, h } from 'preact';
import { render } from 'preact-render-to-string';
import { codeBlocks, codeSyntaxes, type DocBlock, type JsonDocument } from '@app/content-model';
import { DocumentRenderer } from '../document';
import { CodeHighlighter, readable } from '../highlight';
import { siteCss } from '../assets';

const text = (t: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: [] }] });
const code = (syntax: string, ...lines: string[]): DocBlock => ({
  object: 'block',
  type: 'code',
  key: 'c',
  data: { syntax },
  nodes: lines.map((l) => ({ object: 'block' as const, type: 'code-line', key: 'l', data: {}, nodes: [text(l)] })),
});
const doc = (...nodes: DocBlock[]): JsonDocument => ({ object: 'document', data: {}, nodes });
const links = { href: () => null };

describe('CodeHighlighter: shiki at render time, in classes (no style attribute)', () => {
  let highlighter: CodeHighlighter;
  beforeAll(async () => {
    highlighter = await CodeHighlighter.create();
  });
  afterAll(() => highlighter.stop());

  const renderWith = (d: JsonDocument) => render(h(Fragment, null, new DocumentRenderer(links, { highlighter }).render(d)));

  it('collects the languages of every code block, nested ones included', () => {
    const tabs: DocBlock = { object: 'block', type: 'tabs', key: 't', data: {}, nodes: [code('python', 'x = 1')] };
    expect([...codeSyntaxes(doc(code('ts', 'a'), tabs, code('ts', 'b')))]).toEqual(['ts', 'python']);
  });

  it('highlights a prepared language with colour classes for both themes, text escaped', async () => {
    await highlighter.prepare(['ts']);
    const out = renderWith(doc(code('ts', 'const a = "<b>";', '// done')));
    expect(out).toContain('<span class="hl-keyword">const</span>');
    expect(out).toContain('<span class="hl-comment">// done</span>');
    expect(out).toContain('&lt;b>');
    expect(out).not.toContain('<b>');
    expect(out).not.toContain('style=');
    expect(out.match(/class="line"/g)).toHaveLength(2);
    // Every class the tokens use has a rule in the site's stylesheet.
    const css = siteCss(undefined, highlighter.css());
    const used = [...out.matchAll(/class="(hl-[a-z-]+)"/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(2);
    for (const cls of used) {
      expect(css).toContain(`.${cls}{`);
      expect(css).toContain(`:root.theme-dark .${cls}{`);
    }
  });

  it('renders an unknown, hostile or unprepared language as plain lines', async () => {
    const plain = renderWith(doc(code('no-such-lang', 'x < 1'), code('ts"><script>', 'y')));
    expect(plain).toContain('<span class="line">x &lt; 1\n</span>');
    expect(plain).not.toContain('<script>');
    await highlighter.prepare(['no-such-lang', 'constructor', '__proto__']);
    expect(highlighter.tokens('a', 'constructor')).toBeNull();
    expect(highlighter.tokens('a', 'rust')).toBeNull(); // known but never prepared
  });

  it('remembers tokens by language and code, and tokenizes blocks ahead in the background', async () => {
    await highlighter.prepare(['ts']);
    const once = highlighter.tokens('let x = 1;', 'ts');
    expect(highlighter.tokens('let x = 1;', 'ts')).toBe(once); // remembered
    expect(highlighter.tokens('let x = 2;', 'ts')).not.toBe(once);
    expect(highlighter.tokens('let x = 1;', 'js')).not.toBe(once); // another language, other tokens
    // The blocks a document holds, as the render reads them; ahead() loads their languages and tokenizes them.
    const blocks = codeBlocks(doc(code('haskell', 'main = putStrLn "hi"'), code('nope', 'x'), code('ocaml', 'let () = ()')));
    expect(blocks).toEqual([
      { code: 'main = putStrLn "hi"', syntax: 'haskell' },
      { code: 'x', syntax: 'nope' },
      { code: 'let () = ()', syntax: 'ocaml' },
    ]);
    expect(highlighter.tokens(blocks[0].code, 'haskell')).toBeNull(); // not prepared yet
    await highlighter.ahead(blocks);
    expect(highlighter.tokens(blocks[0].code, 'haskell')).not.toBeNull();
    expect(highlighter.tokens(blocks[2].code, 'ocaml')).not.toBeNull();
    // Code too long to remember is left to the render.
    await highlighter.ahead([{ code: 'y'.repeat(5_000), syntax: 'fortran' }]);
    expect(highlighter.tokens('y', 'fortran')).toBeNull();
  });

  it('a block that took the time limit (a line may be cut) is tokenized once more and not remembered', async () => {
    await highlighter.prepare(['python']);
    const shiki = (highlighter as unknown as { shiki: { codeToTokensBase: (...args: unknown[]) => unknown } }).shiki;
    const calls = jest.spyOn(shiki, 'codeToTokensBase');
    // At normal speed (the clock stands still here: a loaded machine cannot make it slow): tokenized once, then remembered.
    const standing = jest.spyOn(performance, 'now').mockImplementation(() => 0);
    try {
      highlighter.tokens('fast = 1', 'python');
      highlighter.tokens('fast = 1', 'python');
      expect(calls).toHaveBeenCalledTimes(1);
    } finally {
      standing.mockRestore();
    }
    // Every tokenizing takes 600 ms (as a grammar's first use can on a loaded machine): twice, and not remembered.
    let clock = 0;
    const now = jest.spyOn(performance, 'now').mockImplementation(() => (clock += 600));
    try {
      expect(
        highlighter
          .tokens('slow = 1', 'python')
          ?.flat()
          .map((t) => t.text)
          .join(''),
      ).toBe('slow = 1');
      expect(calls).toHaveBeenCalledTimes(3);
      highlighter.tokens('slow = 1', 'python');
      expect(calls).toHaveBeenCalledTimes(5);
    } finally {
      now.mockRestore();
    }
    // Once a tokenizing is quick again (the clock stands still: a loaded machine cannot make it slow), its
    // tokens are remembered.
    const still = jest.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      highlighter.tokens('slow = 1', 'python');
      highlighter.tokens('slow = 1', 'python');
      expect(calls).toHaveBeenCalledTimes(6);
    } finally {
      still.mockRestore();
    }
    calls.mockRestore();
  });

  it('knows aliases (sh, yml, js) and keeps a long line in one piece', async () => {
    await highlighter.prepare(['sh', 'yml', 'js']);
    expect(highlighter.tokens('echo hi', 'sh')).not.toBeNull();
    expect(highlighter.tokens('a: 1', 'YML')).not.toBeNull();
    const long = 'x'.repeat(20_000);
    const tokens = highlighter.tokens(`const s = "${long}";`, 'js')!;
    expect(
      tokens
        .flat()
        .map((t) => t.text)
        .join(''),
    ).toBe(`const s = "${long}";`);
  });
});

describe('readable: theme colours meet WCAG AA on the code background', () => {
  it('darkens a grey that is short of 4.5:1 on light, lightens one on dark, keeps one that passes', () => {
    expect(readable('6e7781', 'f6f8fa')).not.toBe('#6e7781');
    expect(readable('6e7781', 'f6f8fa')).toMatch(/^#[0-9a-f]{6}$/);
    expect(readable('484f58', '161b22')).not.toBe('#484f58');
    expect(readable('24292f', 'f6f8fa')).toBe('#24292f');
  });
});
