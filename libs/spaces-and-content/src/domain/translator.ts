/** A language pair in the official `TranslationLanguage` codes (`en`, `es`, `pt-br` …). */
export interface LanguagePair {
  source: string;
  target: string;
}

/** No adapter serves the pair: the message says what to install or configure. */
export class PairUnavailableError extends Error {
  constructor(
    readonly pair: LanguagePair,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Port: machine translation of HTML fragments (one per block of a page: text with `<code>`, `<a>`,
 * `<strong>` … inside). Markup, code and link targets come back untouched; only the text changes.
 * Adapters: Apertium (local, the default), LibreTranslate- and OpenAI-compatible HTTP APIs.
 */
export abstract class Translator {
  abstract readonly name: string;
  /** The pairs this translator can serve now. */
  abstract pairs(): Promise<LanguagePair[]>;
  /** One translated fragment per fragment, in order; a PairUnavailableError when the pair is not served. */
  abstract translate(fragments: string[], pair: LanguagePair): Promise<string[]>;
}
