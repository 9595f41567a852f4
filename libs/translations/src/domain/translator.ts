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
  /**
   * One translated fragment per fragment, in order; a PairUnavailableError when the pair is not served.
   * `instructions` (the translation's, as text) guide the translators that take guidance (language models).
   */
  abstract translate(fragments: string[], pair: LanguagePair, instructions?: string): Promise<string[]>;

  /** The name of the translator that serves the pair (what a run records). */
  nameFor(pair: LanguagePair): Promise<string | null> {
    void pair;
    return Promise.resolve(this.name);
  }

  /** Resolves when the pair is served now; a PairUnavailableError saying what to install or configure otherwise. */
  async require(pair: LanguagePair): Promise<void> {
    if (!(await this.pairs()).some((p) => p.source === pair.source && p.target === pair.target)) throw this.unavailable(pair);
  }

  protected unavailable(pair: LanguagePair): PairUnavailableError {
    return new PairUnavailableError(pair, `${this.name} does not translate ${pair.source} → ${pair.target}`);
  }
}

/**
 * The translators the operator configured, in order of preference: a pair is served by the first that
 * serves it. A translator that cannot answer which pairs it serves (a service down) serves none.
 */
export class FirstAvailableTranslator extends Translator {
  readonly name: string;

  constructor(private readonly translators: Translator[]) {
    super();
    this.name = translators.map((t) => t.name).join(', ') || 'none';
  }

  private async servedBy(pair: LanguagePair): Promise<Translator | null> {
    for (const t of this.translators) {
      const pairs = await t.pairs().catch(() => []);
      if (pairs.some((p) => p.source === pair.source && p.target === pair.target)) return t;
    }
    return null;
  }

  async pairs(): Promise<LanguagePair[]> {
    const all = await Promise.all(this.translators.map((t) => t.pairs().catch(() => [])));
    const seen = new Set<string>();
    return all.flat().filter((p) => !seen.has(`${p.source}>${p.target}`) && seen.add(`${p.source}>${p.target}`));
  }

  override async nameFor(pair: LanguagePair): Promise<string | null> {
    return (await this.servedBy(pair))?.name ?? null;
  }

  async translate(fragments: string[], pair: LanguagePair, instructions?: string): Promise<string[]> {
    const t = await this.servedBy(pair);
    if (!t) throw await this.explain(pair);
    return t.translate(fragments, pair, instructions);
  }

  override async require(pair: LanguagePair): Promise<void> {
    if (!(await this.servedBy(pair))) throw await this.explain(pair);
  }

  private async explain(pair: LanguagePair): Promise<PairUnavailableError> {
    if (this.translators.length === 0) return new PairUnavailableError(pair, 'No translator is configured');
    const reasons = await Promise.all(
      this.translators.map((t) =>
        t.require(pair).then(
          () => `${t.name} serves it`,
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        ),
      ),
    );
    return new PairUnavailableError(pair, `No translator serves ${pair.source} → ${pair.target}: ${reasons.join('; ')}`);
  }
}
