/** A page a question is answered from: its title, URL on the site, and text (markdown). */
export interface AnswerSource {
  title: string;
  url: string;
  text: string;
}

/** The language model behind a site's answers (port): absent when none is configured. */
export abstract class SiteAnswerer {
  /** The model's answer from these sources only, citing them as [1], [2] … (numbers into `sources`). */
  abstract answer(question: string, sources: AnswerSource[]): Promise<string>;
}

/** Where the answerer's model is (the operator's QUIRE_LLM_URL; null: answers are off). */
export abstract class SiteAnswerSettings {
  abstract readonly llm: { url: string; model: string; apiKey?: string } | null;
}

/** The numbers an answer cites (`[1]`, `[2, 3]`), each once, in order, among 1..count. */
export function citedNumbers(answer: string, count: number): number[] {
  const out: number[] = [];
  for (const m of answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g))
    for (const n of m[1].split(',').map((x) => Number(x.trim())))
      if (Number.isInteger(n) && n >= 1 && n <= count && !out.includes(n)) out.push(n);
  return out;
}
