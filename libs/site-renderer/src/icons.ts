import { h, type ComponentChild } from 'preact';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Font Awesome Free's icons (the npm package's SVG files, served inside the page: no CDN, no font), by the name
 * GitBook gives them (`rocket`, `github`): the solid style first, then regular, then brands. Each is drawn with
 * `currentColor`, so it takes the colour of the text around it (the site's, in a button its tint).
 */
const FAMILIES = ['solid', 'regular', 'brands'];
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Names looked up, kept (Font Awesome Free has some 2,000 icons; names that are none are kept too, up to this many). */
const KEPT_MAX = 4096;

export interface IconSvg {
  viewBox: string;
  /** The SVG's inner markup (its paths), from the package's file. */
  paths: string;
}

let root: string | null | undefined;
const cache = new Map<string, IconSvg | null>();

function svgRoot(): string | null {
  if (root === undefined) {
    try {
      // The build's own `require` (CommonJS); under an ES module loader (the tests), one from the working directory.
      const resolve = typeof require === 'function' ? require.resolve : createRequire(join(process.cwd(), 'index.js')).resolve;
      root = join(dirname(resolve('@fortawesome/fontawesome-free/package.json')), 'svgs');
    } catch {
      root = null;
    }
  }
  return root;
}

/** The icon of that name, or null when Font Awesome Free has none (or the name is not a plain icon name). */
export function iconSvg(name: string): IconSvg | null {
  const key = name.trim().toLowerCase().replace(/^fa-/, '');
  if (cache.has(key)) return cache.get(key)!;
  let found: IconSvg | null = null;
  const dir = svgRoot();
  if (dir && NAME.test(key) && key.length <= 80)
    for (const family of FAMILIES) {
      let svg: string;
      try {
        svg = readFileSync(join(dir, family, `${key}.svg`), 'utf8');
      } catch {
        continue;
      }
      const viewBox = /viewBox="([\d.\s-]+)"/.exec(svg)?.[1];
      const paths = svg
        .replace(/^[\s\S]*?<svg[^>]*>/, '')
        .replace(/<\/svg>\s*$/, '')
        .replace(/<!--[\s\S]*?-->/g, '');
      if (viewBox && /^<path [^<>]*\/>(?:<path [^<>]*\/>)*$/.test(paths.trim())) found = { viewBox, paths: paths.trim() };
      break;
    }
  if (cache.size < KEPT_MAX) cache.set(key, found);
  return found;
}

/** A Font Awesome icon, drawn in the colour of the text around it; decorative (the text beside it says what it means). */
export function iconElement(name: string): ComponentChild {
  const svg = iconSvg(name);
  return svg
    ? h('svg', {
        class: 'icon',
        viewBox: svg.viewBox,
        'aria-hidden': 'true',
        focusable: 'false',
        dangerouslySetInnerHTML: { __html: svg.paths },
      })
    : null;
}
