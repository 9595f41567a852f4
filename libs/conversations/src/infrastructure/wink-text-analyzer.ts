import { Injectable } from '@nestjs/common';
import type winkNLP from 'wink-nlp';
import { TextAnalyzer } from '../domain/conversation';

type Nlp = ReturnType<typeof winkNLP>;

/**
 * wink-nlp and its English model, loaded on the first text to analyze: the model holds ~16 MB of heap
 * (~50 MB resident), which a process that never ingests a conversation should not carry (idle memory,
 * issue #10). One load per process, shared by all callers.
 */
let loaded: Promise<Nlp> | null = null;
function nlp(): Promise<Nlp> {
  loaded ??= Promise.all([import('wink-nlp'), import('wink-eng-lite-web-model')]).then(([wink, model]) => wink.default(model.default));
  return loaded;
}

/** Terms with wink-nlp (English lite model): word tokens, stop words out, Porter stems, lowercase. */
@Injectable()
export class WinkTextAnalyzer extends TextAnalyzer {
  async terms(text: string): Promise<string[]> {
    const n = await nlp();
    // wink's `its` helpers are plain functions (they never use `this`).
    /* eslint-disable @typescript-eslint/unbound-method */
    const stem = n.its.stem as unknown as typeof n.its.value;
    return n
      .readDoc(text.slice(0, 50_000))
      .tokens()
      .filter((t) => t.out(n.its.type) === 'word' && !t.out(n.its.stopWordFlag))
      .out(stem)
      .map((s) => s.toLowerCase())
      .filter((s) => s.length > 1 && s.length <= 40);
    /* eslint-enable @typescript-eslint/unbound-method */
  }
}
