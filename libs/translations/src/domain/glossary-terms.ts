import { Parser } from 'htmlparser2';
import { escapeText } from 'entities';
import type { GlossaryTerm } from './glossary';

/** A translator lost or mangled a protected term: the page cannot be trusted to say it as the glossary does. */
export class GlossaryTermLostError extends Error {}

/** Fragments with the glossary's terms protected, and the way back once translated. */
export interface ProtectedFragments {
  fragments: string[];
  /** How many terms were protected (what a test and a run's log can count). */
  protectedTerms: number;
  /** Each translated fragment with its placeholders replaced by the target terms; GlossaryTermLostError when one is missing. */
  restore(translated: string[]): string[];
}

interface Edit {
  start: number;
  /** Inclusive, as htmlparser2 gives it. */
  end: number;
  text: string;
}

function applyEdits(source: string, edits: Edit[]): string {
  let out = source;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end + 1);
  return out;
}

const BOUNDARY_BEFORE = '(?<![\\p{L}\\p{N}_])';
const BOUNDARY_AFTER = '(?![\\p{L}\\p{N}_])';

/** Where a fragment's text may be changed: text outside inline code (`<code>` holds code, never translated). */
function textRanges(html: string, visit: (text: string, start: number) => void): void {
  let insideCode = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'code') insideCode++;
      },
      onclosetag(name) {
        if (name === 'code' && insideCode > 0) insideCode--;
      },
      ontext(text) {
        if (insideCode === 0) visit(text, parser.startIndex);
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
}

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').toLocaleLowerCase('und');
}

/**
 * Before translating, each occurrence of a glossary term in the fragments' text (a whole word or words, case
 * aside, the longest term first) becomes `<code data-g="n">term</code>`: every translator Quire has leaves inline
 * code as it is (Apertium's HTML format, LibreTranslate's, the model's instructions). After translating, each
 * placeholder becomes the term in the target language, capitalized where the source's was. Terms inside inline
 * code are code, and are left alone.
 */
export function protectTerms(fragments: string[], terms: GlossaryTerm[]): ProtectedFragments {
  if (terms.length === 0 || fragments.length === 0) return { fragments, protectedTerms: 0, restore: (translated) => translated };
  const targets = new Map<string, string>();
  // The longest first, so "pull request template" wins over "pull request".
  const sorted = [...terms].sort((a, b) => b.source.length - a.source.length);
  for (const t of sorted) {
    const key = normalized(escapeText(t.source));
    if (!targets.has(key)) targets.set(key, t.target);
  }
  const alternatives = [...targets.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  const pattern = new RegExp(`${BOUNDARY_BEFORE}(?:${alternatives.join('|')})${BOUNDARY_AFTER}`, 'giu');

  const placed: string[][] = [];
  let count = 0;
  const out = fragments.map((html, f) => {
    const edits: Edit[] = [];
    const mine: string[] = [];
    textRanges(html, (text, start) => {
      // Character references (`&amp;`, `&#39;`) are markup: a term never matches inside one.
      const entities = [...text.matchAll(/&[#A-Za-z0-9]+;/g)].map((e) => [e.index, e.index + e[0].length] as const);
      for (const m of text.matchAll(pattern)) {
        const end = m.index + m[0].length;
        if (entities.some(([a, b]) => m.index < b && end > a && !(m.index <= a && end >= b))) continue;
        // The pattern folds case as Unicode does; a match the table's folding does not name is left as it is.
        const found = targets.get(normalized(m[0]));
        if (found === undefined) continue;
        let target = found;
        const first = m[0].charAt(0);
        if (first !== first.toLocaleLowerCase() && target.charAt(0) === target.charAt(0).toLocaleLowerCase())
          target = target.charAt(0).toLocaleUpperCase() + target.slice(1);
        const n = mine.push(target) - 1;
        edits.push({ start: start + m.index, end: start + m.index + m[0].length - 1, text: `<code data-g="${n}">${m[0]}</code>` });
      }
    });
    placed[f] = mine;
    count += mine.length;
    return edits.length ? applyEdits(html, edits) : html;
  });

  return {
    fragments: out,
    protectedTerms: count,
    restore(translated: string[]): string[] {
      return translated.map((html, f) => {
        const mine = placed[f] ?? [];
        if (mine.length === 0) return html;
        const edits: Edit[] = [];
        const seen = new Set<number>();
        let open: { n: number; start: number; depth: number } | null = null;
        let depth = 0;
        const parser = new Parser(
          {
            onopentag(name, attribs) {
              if (name !== 'code') return;
              depth++;
              const raw = attribs['data-g'];
              if (open === null && raw !== undefined && /^\d+$/.test(raw)) open = { n: Number(raw), start: parser.startIndex, depth };
            },
            onclosetag(name, implied) {
              if (name !== 'code') return;
              // A placeholder the translator left unclosed may have swallowed the text after it.
              if (open !== null && open.depth === depth && implied)
                throw new GlossaryTermLostError('the translation broke a glossary term');
              if (open !== null && open.depth === depth) {
                const target = mine[open.n];
                if (target === undefined || seen.has(open.n))
                  throw new GlossaryTermLostError('the translation repeated or invented a glossary term');
                seen.add(open.n);
                edits.push({ start: open.start, end: parser.endIndex, text: escapeText(target) });
                open = null;
              }
              depth--;
            },
          },
          { decodeEntities: false },
        );
        parser.end(html);
        if (seen.size !== mine.length) throw new GlossaryTermLostError('the translation lost a glossary term');
        return applyEdits(html, edits);
      });
    },
  };
}
