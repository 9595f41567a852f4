import { DocBlock, documentText, JsonDocument } from './document';
import { evaluateConditions } from './document-queries';
import { slugify } from './tree';

/** PostgreSQL text search configuration per space language; `simple` where PostgreSQL has no stemmer. */
const CONFIGS: Record<string, string> = {
  en: 'english',
  fr: 'french',
  de: 'german',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  'pt-br': 'portuguese',
  ru: 'russian',
  nl: 'dutch',
  sv: 'swedish',
  no: 'norwegian',
  da: 'danish',
  fi: 'finnish',
  hu: 'hungarian',
  ro: 'romanian',
  tr: 'turkish',
  el: 'greek',
  id: 'indonesian',
  lt: 'lithuanian',
  hi: 'hindi',
  ar: 'arabic',
};

export function searchConfig(language: string | null): string {
  return (language && CONFIGS[language]) || 'english';
}

export const SEARCH_QUERY_MAX = 512;

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * PostgreSQL's parsers do not split Chinese, Japanese or Korean text into words. Runs of those
 * scripts are indexed (and queried) as overlapping character bigrams, so a query in Japanese or
 * Chinese finds the pages that contain it whatever the space's language.
 */
export function withCjkBigrams(text: string): string {
  return text.replace(CJK_RUN, (run) => {
    const chars = [...run];
    if (chars.length === 1) return ` ${run} `;
    const grams: string[] = [];
    for (let i = 0; i < chars.length - 1; i++) grams.push(chars[i] + chars[i + 1]);
    return ` ${grams.join(' ')} `;
  });
}

export interface Section {
  /** 0 for the text before the first heading. */
  index: number;
  title: string;
  anchor: string | null;
  body: string;
}

/** Splits a page at its headings: each heading starts a section (its title and anchor); conditional content left out. */
export function sections(pageTitle: string, doc: JsonDocument | null): Section[] {
  const out: Section[] = [{ index: 0, title: pageTitle, anchor: null, body: '' }];
  const buffers: DocBlock[][] = [[]];
  // Conditional content is not indexed: one index serves every visitor, and a hit would show what a claim hides.
  for (const block of (doc ? evaluateConditions(doc, () => false) : null)?.nodes ?? []) {
    if (/^heading-[1-3]$/.test(block.type)) {
      const title = documentText({ object: 'document', data: {}, nodes: [block] });
      out.push({ index: out.length, title, anchor: slugify(title, `section-${out.length}`), body: '' });
      buffers.push([]);
    } else buffers[buffers.length - 1].push(block);
  }
  out.forEach((s, i) => (s.body = documentText({ object: 'document', data: {}, nodes: buffers[i] })));
  return out.filter((s, i) => i === 0 || s.body || s.title);
}
