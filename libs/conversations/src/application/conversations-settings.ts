/** Optional services of the conversations context (set from the environment by the app). */
export abstract class ConversationsSettings {
  /** An OpenAI-compatible chat completions API that words issue titles and summaries; null: the extractor's words. */
  abstract llm: { url: string; model: string; apiKey?: string } | null;
}
