import { LanguagePair, PairUnavailableError, Translator } from '../domain/translator';

/** The official TranslationLanguage codes: what a language-model translator offers. */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const; // prettier-ignore

async function postJson(url: string, body: unknown, headers: Record<string, string>, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/**
 * A LibreTranslate-compatible API (`GET /languages`, `POST /translate` with `format: "html"` and an
 * array `q`), configured by the operator (QUIRE_LIBRETRANSLATE_URL, optional API key).
 */
export class LibreTranslateTranslator extends Translator {
  readonly name = 'libretranslate';

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey?: string,
    private readonly timeoutMs = 60_000,
  ) {
    super();
  }

  async pairs(): Promise<LanguagePair[]> {
    const res = await fetch(`${this.baseUrl}/languages`, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`${this.baseUrl}/languages answered ${res.status}`);
    const languages = (await res.json()) as { code: string; targets?: string[] }[];
    return languages.flatMap((l) => (l.targets ?? []).filter((t) => t !== l.code).map((target) => ({ source: l.code, target })));
  }

  async translate(fragments: string[], pair: LanguagePair): Promise<string[]> {
    if (fragments.length === 0) return [];
    await this.require(pair);
    const body: Record<string, unknown> = { q: fragments, source: pair.source, target: pair.target, format: 'html' };
    if (this.apiKey) body.api_key = this.apiKey;
    const answer = (await postJson(`${this.baseUrl}/translate`, body, {}, this.timeoutMs)) as { translatedText?: unknown };
    const out = answer.translatedText;
    if (!Array.isArray(out) || out.length !== fragments.length || !out.every((x) => typeof x === 'string'))
      throw new Error('The LibreTranslate server answered something else than one text per fragment');
    return out;
  }
}

/**
 * An OpenAI-compatible chat completions API (`POST {baseUrl}/chat/completions`), configured by the
 * operator (URL, model, optional API key): the fragments go as a JSON array and must come back as
 * `{"fragments": [...]}`, one per fragment, markup kept.
 */
export class ChatCompletionsTranslator extends Translator {
  readonly name = 'chat-completions';

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey?: string,
    private readonly timeoutMs = 120_000,
  ) {
    super();
  }

  pairs(): Promise<LanguagePair[]> {
    return Promise.resolve(
      TRANSLATION_LANGUAGES.flatMap((source) => TRANSLATION_LANGUAGES.filter((t) => t !== source).map((target) => ({ source, target }))),
    );
  }

  async translate(fragments: string[], pair: LanguagePair, instructions?: string): Promise<string[]> {
    if (fragments.length === 0) return [];
    const languages: readonly string[] = TRANSLATION_LANGUAGES;
    if (!languages.includes(pair.source) || !languages.includes(pair.target))
      throw new PairUnavailableError(pair, `Unknown language in ${pair.source} → ${pair.target}`);
    const system =
      `Translate each HTML fragment of the JSON array from the language "${pair.source}" to "${pair.target}". ` +
      'Keep every tag and attribute as it is, never translate the content of <code> elements or URLs, keep the order. ' +
      'Answer only with a JSON object {"fragments": [...]} holding one translated fragment per fragment.' +
      (instructions?.trim() ? `\nThe organization's instructions for its translations:\n${instructions.trim()}` : '');
    const answer = (await postJson(
      `${this.baseUrl}/chat/completions`,
      {
        model: this.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: JSON.stringify(fragments) },
        ],
      },
      this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
      this.timeoutMs,
    )) as { choices?: { message?: { content?: string } }[] };
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.choices?.[0]?.message?.content ?? '');
    } catch {
      throw new Error('The language model did not answer JSON');
    }
    const out = (parsed as { fragments?: unknown }).fragments;
    if (!Array.isArray(out) || out.length !== fragments.length || !out.every((x) => typeof x === 'string'))
      throw new Error('The language model answered something else than one fragment per fragment');
    return out;
  }
}
