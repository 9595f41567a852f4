import { chatCompletion } from '@app/shared-kernel';
import { IssueWriter } from '../domain/issue-extraction';

/** What the language model reads of a conversation at most. */
const TEXT_MAX = 8_000;

/**
 * An OpenAI-compatible chat completions API (`POST {baseUrl}/chat/completions`, JSON answer mode) that
 * words an issue: `{"title": …, "summary": …}`. Configured by the operator (QUIRE_LLM_URL, QUIRE_LLM_MODEL,
 * optional QUIRE_LLM_API_KEY); never required.
 */
export class ChatCompletionsIssueWriter extends IssueWriter {
  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey?: string,
    private readonly timeoutMs = 30_000,
  ) {
    super();
  }

  async write(conversation: { subject: string; text: string }): Promise<unknown> {
    const content = await chatCompletion(
      { url: this.baseUrl, model: this.model, apiKey: this.apiKey },
      [
        {
          role: 'system',
          content:
            'You read a customer support conversation and name the problem the customer has. Answer only with a JSON object ' +
            '{"title": "<the problem in at most 10 words>", "summary": "<the problem in one or two sentences>"}.',
        },
        { role: 'user', content: `Subject: ${conversation.subject}\n\n${conversation.text.slice(0, TEXT_MAX)}` },
      ],
      { json: true, timeoutMs: this.timeoutMs },
    );
    try {
      return JSON.parse(content);
    } catch {
      throw new Error('the language model did not answer JSON');
    }
  }
}
