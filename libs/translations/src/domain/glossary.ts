import { createHash } from 'node:crypto';
import { InvalidInputError, LANGUAGES, type Language } from '@app/shared-kernel';
import type { LanguagePair } from './translator';

/**
 * The organization's translation glossary (official listGlossaryEntries, updateGlossaryEntries, getGlossaryEntry):
 * each entry is one term in several languages (`{en: "change request", fr: "demande de modification"}`). A
 * translation run from one language to another renders every term of the source language the entry gives in the
 * target language (see glossary-terms.ts), whatever translator serves the pair.
 */
export interface GlossaryEntry {
  id: string;
  /** Its place in the order entries were made (given by the store on insert; a batch's inserts in their order). */
  seq?: number;
  organizationId: string;
  translations: Partial<Record<Language, string>>;
  createdAt: Date;
  updatedAt: Date;
}

/** Official GlossaryTranslations: 1 to 255 characters, no line break. */
export const TERM_MAX = 255;
/** What one organization's glossary holds, and what one batch may do (a run reads the whole glossary). */
export const GLOSSARY_ENTRIES_MAX = 2_000;
export const GLOSSARY_OPERATIONS_MAX = 500;

export type GlossaryOperation =
  | { type: 'insert'; translations: Record<string, unknown> }
  | { type: 'update'; id: string; translations: Record<string, unknown> }
  | { type: 'delete'; id: string };

/** Port: the glossary of an organization. `lock` serializes batches of one organization until the transaction ends. */
export abstract class GlossaryRepository {
  abstract lock(organizationId: string): Promise<void>;
  /** In the order they were made. */
  abstract all(organizationId: string): Promise<GlossaryEntry[]>;
  abstract find(organizationId: string, id: string): Promise<GlossaryEntry | null>;
  /**
   * Writes one batch's outcome: the entries removed, those changed, and the new ones (in this order, which their
   * list order follows); one statement each, whatever the batch's size.
   */
  abstract write(organizationId: string, batch: { deleted: string[]; updated: GlossaryEntry[]; inserted: GlossaryEntry[] }): Promise<void>;
}

const LANGUAGE_SET = new Set<string>(LANGUAGES);

/** A term as given, checked: a string of 1 to 255 characters, no line break, no control character, not blank. */
function checkTerm(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new InvalidInputError(`${where} must be a string`);
  if (value.length < 1 || value.length > TERM_MAX) throw new InvalidInputError(`${where} must be 1 to ${TERM_MAX} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new InvalidInputError(`${where} must not hold a line break or a control character`);
  if (value.trim() === '') throw new InvalidInputError(`${where} must not be blank`);
  return value;
}

/** An entry's translations as given, checked: official language codes, at least one term. */
export function checkTranslations(value: unknown, where: string): Partial<Record<Language, string>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidInputError(`${where}.translations must be an object of language codes to terms`);
  const out: Partial<Record<Language, string>> = {};
  for (const [language, term] of Object.entries(value)) {
    if (!LANGUAGE_SET.has(language)) throw new InvalidInputError(`${where}.translations: "${language}" is not a TranslationLanguage code`);
    out[language as Language] = checkTerm(term, `${where}.translations.${language}`);
  }
  if (Object.keys(out).length === 0) throw new InvalidInputError(`${where}.translations must give a term in one language at least`);
  return out;
}

/** The key two terms of one language are the same under: case and surrounding blanks aside. */
export function termKey(term: string): string {
  return term.trim().toLocaleLowerCase('und');
}

/**
 * A term of one language names one entry only, or a run could not tell which translation to use: the first
 * entry that repeats another's term (same language, case aside) is an error.
 */
export function checkUniqueTerms(entries: GlossaryEntry[]): void {
  const seen = new Map<string, string>();
  for (const entry of entries)
    for (const [language, term] of Object.entries(entry.translations)) {
      const key = `${language}\u0000${termKey(term)}`;
      const other = seen.get(key);
      if (other !== undefined && other !== entry.id)
        throw new InvalidInputError(`The ${language} term "${term}" is already the term of glossary entry "${other}"`);
      seen.set(key, entry.id);
    }
}

/** A source term and what it becomes in the target language. */
export interface GlossaryTerm {
  source: string;
  target: string;
}

/** The terms that apply to a pair: entries that give both languages. */
export function termsFor(entries: GlossaryEntry[], pair: LanguagePair): GlossaryTerm[] {
  const out: GlossaryTerm[] = [];
  for (const e of entries) {
    const source = e.translations[pair.source as Language];
    const target = e.translations[pair.target as Language];
    if (source !== undefined && target !== undefined) out.push({ source: source.trim(), target: target.trim() });
  }
  return out;
}

/** What a run records of the terms it applied: a run after the terms changed translates every page again. */
export function termsFingerprint(terms: GlossaryTerm[]): string {
  if (terms.length === 0) return '';
  const sorted = terms.map((t) => `${termKey(t.source)}\u0000${t.target}`).sort();
  return createHash('sha256').update(sorted.join('\u0001')).digest('hex');
}
