// Rendering cost per size class on real markdown (the fidelity test's corpus of npm READMEs): markdown → document
// (import) and document → markdown (format=markdown reads), after a warm-up. Prints a table; no target
// is asserted here (targets live in docs/benchmarks.md): document → markdown ≤ 2 ms, markdown → document ≤ 5 ms at 15 kB.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { markdownToDocument, documentToMarkdown, defaultLinkResolver } = require('../dist/libs/content-model/src/index.js');

function readmes() {
  // The real-markdown corpus of the fidelity test (150 files of npm packages, see its SOURCES.txt).
  const dir = 'libs/content-model/src/test/fixtures/real-markdown';
  return readdirSync(dir)
    .filter((f) => /\.(md|markdown)$/i.test(f))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

const classes = [
  ['< 2 kB', 0, 2_000],
  ['2-8 kB', 2_000, 8_000],
  ['8-20 kB', 8_000, 20_000],
  ['20-60 kB', 20_000, 60_000],
];
const corpus = readmes();
const time = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
console.log(`render: ${corpus.length} real markdown files (fixtures/real-markdown)`);
console.log('| size | files | markdown → document p50 (ms) | document → markdown p50 (ms) | per 15 kB: import / render (ms) |');
console.log('|---|---|---|---|---|');
for (const [label, lo, hi] of classes) {
  const files = corpus.filter((m) => m.length >= lo && m.length < hi).slice(0, 40);
  if (!files.length) continue;
  const docs = files.map((m) => markdownToDocument(m, defaultLinkResolver, { titleFromHeading: false }).document);
  for (const d of docs) documentToMarkdown(d); // warm-up
  const imp = [];
  const ren = [];
  const perKbImp = [];
  const perKbRen = [];
  for (let round = 0; round < 3; round++) {
    files.forEach((m, i) => {
      const a = time(() => markdownToDocument(m, defaultLinkResolver, { titleFromHeading: false }));
      const b = time(() => documentToMarkdown(docs[i]));
      imp.push(a);
      ren.push(b);
      perKbImp.push((a / m.length) * 15_000);
      perKbRen.push((b / m.length) * 15_000);
    });
  }
  const p50 = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)].toFixed(2);
  console.log(`| ${label} | ${files.length} | ${p50(imp)} | ${p50(ren)} | ${p50(perKbImp)} / ${p50(perKbRen)} |`);
}
