import { chatCompletion } from '@app/shared-kernel';
import { SiteAnswerer, type AnswerSource } from '../application/site-answers';

/** What the model reads of one page at most, and of all of them. */
const SOURCE_MAX = 6_000;
const ALL_MAX = 24_000;

/**
 * An OpenAI-compatible chat completions API (`POST {baseUrl}/chat/completions`), configured by the operator
 * (QUIRE_LLM_URL, QUIRE_LLM_MODEL, optional QUIRE_LLM_API_KEY), asked to answer only from the numbered
 * sources it is given and to cite them.
 */
export class ChatCompletionsAnswerer extends SiteAnswerer {
  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey?: string,
    private readonly timeoutMs = 60_000,
  ) {
    super();
  }

  async answer(question: string, sources: AnswerSource[]): Promise<string> {
    let budget = ALL_MAX;
    const numbered = sources
      .map((s, i) => {
        const text = s.text.slice(0, Math.max(0, Math.min(SOURCE_MAX, budget)));
        budget -= text.length;
        return `[${i + 1}] ${s.title}\n${text}`;
      })
      .join('\n\n');
    const content = await chatCompletion(
      { url: this.baseUrl, model: this.model, apiKey: this.apiKey },
      [
        {
          role: 'system',
          content:
            'You answer questions about a documentation site using only the numbered sources given. Cite every ' +
            'statement with the number of its source in brackets, like [1]. If the sources do not answer the question, ' +
            'say that the documentation does not say, and nothing else. Never use knowledge from outside the sources.',
        },
        { role: 'user', content: `Sources:\n\n${numbered}\n\nQuestion: ${question}` },
      ],
      { timeoutMs: this.timeoutMs },
    );
    return content.trim();
  }
}
