/** Which translators serve translation runs, in order of preference (set from the environment by the app). */
export abstract class TranslationSettings {
  /** Apertium on this machine (default on). */
  abstract apertium: boolean;
  /** A LibreTranslate-compatible API. */
  abstract libreTranslate: { url: string; apiKey?: string } | null;
  /** An OpenAI-compatible chat completions API. */
  abstract chatCompletions: { url: string; model: string; apiKey?: string } | null;
}
