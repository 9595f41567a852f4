/** An OpenAI-compatible chat completions API the operator configured (QUIRE_LLM_URL, QUIRE_LLM_MODEL, QUIRE_LLM_API_KEY). */
export interface ChatModel {
  url: string;
  model: string;
  apiKey?: string;
}

/**
 * One chat completion (`POST {url}/chat/completions`, temperature 0, JSON answer mode when `json`): the text the
 * model answered. The URL is the operator's, never a user's, so it goes out directly (not through safeGet).
 */
export async function chatCompletion(
  model: ChatModel,
  messages: { role: 'system' | 'user'; content: string }[],
  options: { json?: boolean; timeoutMs: number },
): Promise<string> {
  const res = await fetch(`${model.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}) },
    body: JSON.stringify({
      model: model.model,
      temperature: 0,
      ...(options.json ? { response_format: { type: 'json_object' } } : {}),
      messages,
    }),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!res.ok) throw new Error(`${model.url}/chat/completions answered ${res.status}`);
  const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('the language model answered no text');
  return content;
}
