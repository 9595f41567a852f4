import { createHash } from 'node:crypto';
import { BoundedMap } from '@app/shared-kernel';
import {
  bundledLanguages,
  createCssVariablesTheme,
  createHighlighter,
  type BundledLanguage,
  type BundledTheme,
  type HighlighterGeneric,
} from 'shiki';

/** A highlighted piece of a code line: its text and its classes (colour in each theme, font style). */
export interface CodeToken {
  text: string;
  className?: string;
}

/**
 * Hostile or minified code must not stall a render: a line longer than this stays plain (a 20,000-character
 * line took shiki 30 s), and a line's tokenizing stops after the time limit (ms; shiki's default: a grammar's first
 * lines compile its expressions, a tighter limit left them plain).
 */
const LIMITS = { tokenizeMaxLineLength: 1_000, tokenizeTimeLimit: 500 };

/**
 * Tokens are remembered by language and code (a merge re-renders mostly the same blocks; variants and
 * translations share code): this many blocks of at most `MEMO_MAX_CODE` characters each (~40 MB at worst).
 */
const MEMO_ENTRIES = 4_000;
const MEMO_MAX_CODE = 4_000;

/** The code blocks' backgrounds in the site's stylesheet (`--code-bg`, light and dark). */
const CODE_BACKGROUND = { light: 'f6f8fa', dark: '161b22' } as const;

function channels(hex: string): [number, number, number] {
  const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * The theme's colour, moved toward black (on a light background) or white (on a dark one) just enough
 * for the WCAG AA contrast of normal text (4.5:1): a theme's comment grey is often a little short of it.
 */
export function readable(hex: string, background: string): string {
  const bg = luminance(channels(background));
  const lightBackground = bg > 0.5;
  let rgb = channels(hex);
  const contrast = (c: [number, number, number]) => {
    const [a, b] = [luminance(c), bg].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  };
  for (let i = 0; i < 40 && contrast(rgb) < 4.5; i++)
    rgb = rgb.map((c) => Math.round(lightBackground ? c * 0.95 : c + (255 - c) * 0.05)) as [number, number, number];
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The kinds of token the highlighter tells apart (shiki's CSS-variables theme), with their colours in the
 * light and dark code blocks (GitHub's palettes; nudged to WCAG AA by `readable`).
 */
const PALETTE: Record<string, { light: string; dark: string }> = {
  keyword: { light: 'cf222e', dark: 'ff7b72' },
  constant: { light: '0550ae', dark: '79c0ff' },
  string: { light: '0a3069', dark: 'a5d6ff' },
  'string-expression': { light: '0a3069', dark: 'a5d6ff' },
  comment: { light: '59636e', dark: '9198a1' },
  function: { light: '8250df', dark: 'd2a8ff' },
  parameter: { light: '953800', dark: 'ffa657' },
  punctuation: { light: '1f2328', dark: 'e6edf3' },
  link: { light: '0a3069', dark: 'a5d6ff' },
  inserted: { light: '116329', dark: '7ee787' },
  deleted: { light: '82071e', dark: 'ffa198' },
  changed: { light: '953800', dark: 'ffa657' },
};
const VARIABLE_PREFIX = '--hl-';
const THEME = createCssVariablesTheme({ name: 'quire', variablePrefix: VARIABLE_PREFIX });

/**
 * Languages most pages use, each with a little code in the shapes documentation shows most (imports,
 * functions, objects, strings, comments, commands): the background warm-up tokenizes it once, so the
 * expressions of those grammar rules are compiled before a visitor's first page needs them.
 */
const COMMON: Record<string, string> = {
  javascript: `import { readFile } from 'node:fs/promises';
const config = { name: 'docs', retries: 3, enabled: true, tags: ['a', "b"] };
export async function load(path, options = {}) {
  // Read and parse the file
  const text = await readFile(path, 'utf8');
  if (!text) throw new Error(\`empty \${path}\`);
  return JSON.parse(text).items.map((item) => ({ ...item, id: item.id ?? null }));
}
module.exports = class Client extends Base { constructor() { super(); this.x = /^[a-z]+$/i; } };
console.log(await load('./a.json'), 1e3, 0x1f);`,
  typescript: `import type { Request } from 'express';
interface Options<T = string> { readonly name: T; retries?: number }
export enum Mode { On = 'on', Off = 'off' }
export async function handler<T>(req: Request, opts: Options<T>): Promise<Record<string, unknown>> {
  const value = (req.body as { id: string }).id satisfies string;
  return { value, mode: Mode.On, at: new Date() };
}
@Injectable() export class Service { constructor(private readonly repo: Repo) {} }`,
  json: `{ "name": "docs", "version": "1.0.0", "private": true, "items": [1, 2.5, null, false], "nested": { "a": "b" } }`,
  bash: `#!/usr/bin/env bash
set -euo pipefail
export NODE_ENV=production
npm install --save-dev @scope/pkg # install
if [ -f "$HOME/.env" ]; then source "$HOME/.env"; fi
for f in *.md; do echo "\${f%.md}" | tr a-z A-Z > out.txt; done
curl -sSL https://example.com/install.sh | sh -s -- --yes`,
  shell: `$ npm run build && docker compose up -d\n$ git clone https://example.com/repo.git`,
  yaml: `name: ci
on: { push: { branches: [main] } }
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      TOKEN: \${{ secrets.TOKEN }}
    steps:
      - uses: actions/checkout@v4
      - run: npm test # run the tests
        timeout-minutes: 10`,
  html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="a.css"><script src="a.js" defer></script></head>
<body><!-- comment --><div class="box" id="x" data-x='1'><a href="/docs">Docs &amp; more</a></div></body></html>`,
  css: `:root { --primary: #346ddb; }
.box > a:hover, #x::before { color: var(--primary); margin: 0 auto 1.5rem; font: 16px/1.6 system-ui, sans-serif; }
@media (max-width: 40rem) { .box { display: none !important; } }`,
  python: `import os
from typing import Optional

class Client:
    """A client."""
    def __init__(self, token: Optional[str] = None) -> None:
        self.token = token or os.environ["TOKEN"]  # comment

    async def get(self, path: str, **kwargs) -> dict:
        return {"path": f"/v1/{path}", "retries": 3, "ok": True}

if __name__ == "__main__":
    print(Client().token, [x * 2 for x in range(10)])`,
  go: `package main

import (
\t"fmt"
\t"net/http"
)

type Server struct{ Addr string }

func (s *Server) Start() error {
\thttp.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "ok %d", 1) })
\treturn http.ListenAndServe(s.Addr, nil) // listen
}`,
  java: `package com.example;
import java.util.List;
/** A service. */
public class Service<T> implements Runnable {
  private final List<String> names = List.of("a", "b");
  @Override public void run() { for (String n : names) System.out.println(n + 1); }
}`,
  markdown: `# Title
Some *text* with **bold**, \`code\` and a [link](https://example.com).
- item
> quote`,
  jsx: `export function App({ items }) { return <ul className="list">{items.map((i) => <li key={i.id}>{i.name}</li>)}</ul>; }`,
  tsx: `export const App: React.FC<{ items: Item[] }> = ({ items }) => <ul>{items.map((i) => <li key={i.id}>{i.name}</li>)}</ul>;`,
};

/**
 * Syntax highlighting with shiki at render time, in classes rather than `style` attributes: the site's
 * Content-Security-Policy allows no inline style. One pass over the code with shiki's CSS-variables theme
 * gives each token its kind (`hl-keyword`, `hl-string` …); the site's stylesheet (`css()`) colours each
 * kind for light and dark (tokenizing once for two themes took twice as long).
 * Grammars come from the shiki package (nothing fetched); each language is loaded once, on first use, and
 * the common ones are loaded and compiled in the background as soon as a process renders its first page.
 * Create it once per process (`CodeHighlighter.create()`), then `prepare` a page's languages before the
 * synchronous render.
 */
export class CodeHighlighter {
  private readonly loading = new Map<string, Promise<void>>();
  private warming: Promise<void> | null = null;
  private readonly memo = new BoundedMap<string, CodeToken[][]>(MEMO_ENTRIES);
  private readonly queue: { code: string; syntax: string }[] = [];
  private draining: Promise<void> | null = null;
  private stopped = false;

  private constructor(private readonly shiki: HighlighterGeneric<BundledLanguage, BundledTheme>) {}

  static async create(): Promise<CodeHighlighter> {
    return new CodeHighlighter(await createHighlighter({ themes: [THEME], langs: [] }));
  }

  /** The language shiki knows by this name or alias (`js`, `sh`, `yml` …), or null. */
  static language(syntax: string | undefined): BundledLanguage | null {
    const name = syntax?.toLowerCase();
    return name && Object.hasOwn(bundledLanguages, name) ? (name as BundledLanguage) : null;
  }

  /** Loads these languages' grammars (once each); unknown names are left alone (their code stays plain). */
  async prepare(syntaxes: Iterable<string>): Promise<void> {
    this.warming ??= this.warm();
    const waits: Promise<void>[] = [];
    for (const syntax of syntaxes) {
      const lang = CodeHighlighter.language(syntax);
      if (!lang) continue;
      let wait = this.loading.get(lang);
      if (!wait) {
        wait = this.shiki.loadLanguage(lang);
        this.loading.set(lang, wait);
      }
      waits.push(wait);
    }
    await Promise.all(waits);
  }

  /** Loads the common grammars and runs each once (the first lines a grammar reads compile its expressions). */
  private async warm(): Promise<void> {
    for (const [lang, sample] of Object.entries(COMMON)) {
      await new Promise((r) => setImmediate(r)); // one language at a time, between requests
      if (this.stopped) return;
      try {
        await this.prepare([lang]);
        this.tokens(sample, lang);
      } catch {
        // a grammar that fails to load is loaded again when a page asks for it
        this.loading.delete(lang);
      }
    }
  }

  /**
   * Tokenizes these blocks in the background, one at a time between requests, so that a page's first render
   * finds its code's tokens remembered (the first use of a grammar's rules compiles their expressions:
   * several milliseconds per block on a fresh process). At most `MEMO_ENTRIES` blocks wait; more are dropped.
   * Resolves when the queue is empty (nobody needs to wait for it).
   */
  ahead(blocks: Iterable<{ code: string; syntax: string }>): Promise<void> {
    for (const block of blocks) {
      if (this.stopped || this.queue.length >= MEMO_ENTRIES) break;
      if (block.code.length <= MEMO_MAX_CODE && CodeHighlighter.language(block.syntax)) this.queue.push(block);
    }
    if (this.draining) return this.draining;
    if (this.queue.length === 0) return Promise.resolve();
    this.draining = (async () => {
      try {
        for (let block = this.queue.shift(); block; block = this.queue.shift()) {
          await new Promise((r) => setImmediate(r));
          try {
            await this.prepare([block.syntax]);
            this.tokens(block.code, block.syntax);
          } catch {
            // a grammar that fails here fails again, visibly, in the render that needs it
          }
        }
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  /** Ends the background work (the warm-up, the blocks waiting): when the process shuts down. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.warming;
    await this.draining;
  }

  /**
   * The code's lines as tokens, or null when its language is unknown or not prepared (render it plain).
   * Remembered tokens are shared: read them, never change them.
   */
  tokens(code: string, syntax: string | undefined): CodeToken[][] | null {
    const lang = CodeHighlighter.language(syntax);
    if (!lang || !this.shiki.getLoadedLanguages().includes(lang)) return null;
    if (code.length > MEMO_MAX_CODE) return this.tokenize(code, lang).tokens;
    const key = `${lang} ${createHash('sha1').update(code).digest('base64')}`;
    let tokens = this.memo.get(key);
    if (!tokens) {
      const result = this.tokenize(code, lang);
      tokens = result.tokens;
      // Tokens a time limit may have cut are not remembered: the next render tries again.
      if (!result.maybeCut) this.memo.set(key, tokens);
    }
    return tokens;
  }

  /**
   * The code's tokens, and whether a line may have been cut by the time limit (shiki does not say; the whole
   * block took that long). A grammar's first lines compile its expressions inside that limit, which a loaded
   * machine can exceed (the rest of the line, and the lines after, then came out as one token): then the block
   * is tokenized once more, its expressions compiled.
   */
  private tokenize(code: string, lang: BundledLanguage): { tokens: CodeToken[][]; maybeCut: boolean } {
    const timed = () => {
      const started = performance.now();
      const lines = this.shiki.codeToTokensBase(code, { lang, theme: THEME, ...LIMITS });
      return { lines, maybeCut: performance.now() - started >= LIMITS.tokenizeTimeLimit };
    };
    let result = timed();
    if (result.maybeCut) result = timed();
    return { tokens: result.lines.map((line) => this.classes(line)), maybeCut: result.maybeCut };
  }

  /** A line's shiki tokens as spans of colour classes. */
  private classes(line: { content: string; color?: string }[]): CodeToken[] {
    const out: CodeToken[] = [];
    for (const token of line) {
      const kind = token.color?.startsWith(`var(${VARIABLE_PREFIX}token-`)
        ? token.color.slice(`var(${VARIABLE_PREFIX}token-`.length, -1)
        : '';
      const className = Object.hasOwn(PALETTE, kind) ? `hl-${kind}` : undefined;
      const last = out.at(-1);
      // Neighbours of one kind are one span.
      if (last && last.className === className) last.text += token.content;
      else out.push(className ? { text: token.content, className } : { text: token.content });
    }
    return out;
  }

  /** The colour of each kind of token: light by default, dark where the site is dark. */
  css(): string {
    const rules = (theme: 'light' | 'dark', scope: string) =>
      Object.entries(PALETTE)
        .map(([kind, colors]) => `${scope}.hl-${kind}{color:${readable(colors[theme], CODE_BACKGROUND[theme])}}`)
        .join('');
    return (
      `${rules('light', '')}.hl-comment{font-style:italic}` +
      `@media (prefers-color-scheme:dark){${rules('dark', ':root:not(.theme-light) ')}}${rules('dark', ':root.theme-dark ')}`
    );
  }
}
