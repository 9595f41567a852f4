import { Injectable } from '@nestjs/common';
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { TextAnalyzer } from '../domain/conversation';

const nlp = winkNLP(model);
// wink's `its` helpers are plain functions (they never use `this`).
/* eslint-disable @typescript-eslint/unbound-method */
const TYPE = nlp.its.type;
const STOP_WORD = nlp.its.stopWordFlag;
const STEM = nlp.its.stem as unknown as typeof nlp.its.value;
/* eslint-enable @typescript-eslint/unbound-method */

/** Terms with wink-nlp (English lite model): word tokens, stop words out, Porter stems, lowercase. */
@Injectable()
export class WinkTextAnalyzer extends TextAnalyzer {
  terms(text: string): string[] {
    return nlp
      .readDoc(text.slice(0, 50_000))
      .tokens()
      .filter((t) => t.out(TYPE) === 'word' && !t.out(STOP_WORD))
      .out(STEM)
      .map((s) => s.toLowerCase())
      .filter((s) => s.length > 1 && s.length <= 40);
  }
}
