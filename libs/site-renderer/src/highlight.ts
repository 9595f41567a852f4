import { bundledLanguages, createHighlighter, type BundledLanguage, type BundledTheme, type HighlighterGeneric } from 'shiki';

/** A highlighted piece of a code line: its text and its classes (colour in each theme, font style). */
export interface CodeToken {
  text: string;
  className?: string;
}

const THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/**
 * Hostile or minified code must not stall a render: a line longer than this stays plain (a 20,000-character
 * line took shiki 30 s), and a line's tokenizing stops after the time limit (ms; shiki's default: a grammar's first
 * lines compile its expressions, a tighter limit left them plain).
 */
const LIMITS = { tokenizeMaxLineLength: 1_000, tokenizeTimeLimit: 500 };

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

/** A colour as a class-name part: `#D73A49` → `d73a49` (hex digits only, so a class name stays safe). */
function colorKey(color: string | undefined): string | null {
  const hex = color?.replace(/^#/, '').toLowerCase();
  return hex && /^[0-9a-f]{3,8}$/.test(hex) ? hex : null;
}

/**
 * Syntax highlighting with shiki at render time, in classes rather than `style` attributes: the site's
 * Content-Security-Policy allows no inline style, so every colour either theme uses has a rule in the
 * site's stylesheet (`css()`), `hl-{hex}` for the light theme and `hd-{hex}` for the dark one.
 * Grammars come from the shiki package (nothing fetched); each language is loaded once, on first use.
 * Create it once per process (`CodeHighlighter.create()`), then `prepare` a page's languages before the
 * synchronous render.
 */
export class CodeHighlighter {
  private readonly loading = new Map<string, Promise<void>>();

  private constructor(private readonly shiki: HighlighterGeneric<BundledLanguage, BundledTheme>) {}

  static async create(): Promise<CodeHighlighter> {
    return new CodeHighlighter(await createHighlighter({ themes: Object.values(THEMES), langs: [] }));
  }

  /** The language shiki knows by this name or alias (`js`, `sh`, `yml` …), or null. */
  static language(syntax: string | undefined): BundledLanguage | null {
    const name = syntax?.toLowerCase();
    return name && Object.hasOwn(bundledLanguages, name) ? (name as BundledLanguage) : null;
  }

  /** Loads these languages' grammars (once each); unknown names are left alone (their code stays plain). */
  async prepare(syntaxes: Iterable<string>): Promise<void> {
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

  /** The code's lines as tokens, or null when its language is unknown or not prepared (render it plain). */
  tokens(code: string, syntax: string | undefined): CodeToken[][] | null {
    const lang = CodeHighlighter.language(syntax);
    if (!lang || !this.shiki.getLoadedLanguages().includes(lang)) return null;
    const lines = this.shiki.codeToTokensWithThemes(code, { lang, themes: THEMES, ...LIMITS });
    const plain = { light: colorKey(this.shiki.getTheme(THEMES.light).fg), dark: colorKey(this.shiki.getTheme(THEMES.dark).fg) };
    return lines.map((line) =>
      line.map((token) => {
        const light = token.variants.light;
        const dark = token.variants.dark;
        const classes: string[] = [];
        const l = colorKey(light?.color);
        const d = colorKey(dark?.color);
        if (l && l !== plain.light) classes.push(`hl-${l}`);
        if (d && d !== plain.dark) classes.push(`hd-${d}`);
        const style = light?.fontStyle ?? 0;
        if (style > 0 && style & 1) classes.push('hi');
        if (style > 0 && style & 2) classes.push('hb');
        return classes.length ? { text: token.content, className: classes.join(' ') } : { text: token.content };
      }),
    );
  }

  /** The rules for every colour of both themes: light by default, dark where the site is dark. */
  css(): string {
    const colors = (theme: string) => {
      const t = this.shiki.getTheme(theme);
      const out = new Set<string>();
      for (const s of t.settings) {
        const key = colorKey(s.settings?.foreground);
        if (key) out.add(key);
      }
      return [...out].sort();
    };
    const light = colors(THEMES.light)
      .map((c) => `.hl-${c}{color:${readable(c, CODE_BACKGROUND.light)}}`)
      .join('');
    // In the dark theme a token without a dark colour has the plain colour, whatever its light one.
    const dark = (scope: string) =>
      `${scope} [class*="hl-"]{color:inherit}` +
      colors(THEMES.dark)
        .map((c) => `${scope} .hd-${c}{color:${readable(c, CODE_BACKGROUND.dark)}}`)
        .join('');
    return (
      `${light}.hi{font-style:italic}.hb{font-weight:600}` +
      `@media (prefers-color-scheme:dark){${dark(':root:not(.theme-light)')}}${dark(':root.theme-dark')}`
    );
  }
}
