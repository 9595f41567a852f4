import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const CORPUS = join(process.cwd(), 'libs/content-model/src/test/fixtures/real-markdown');

/**
 * A corpus of real-world markdown: 150 README, CHANGELOG and docs files of varied npm packages (badges,
 * reference links, raw HTML, tables, nested and task lists, front matter, footnotes, code), copied into
 * the repository (fixtures/real-markdown, see SOURCES.txt) so it stays the same when dependencies change.
 */
export function realMarkdownCorpus(): { name: string; markdown: string }[] {
  return readdirSync(CORPUS)
    .filter((f) => f.endsWith('.md') || f.endsWith('.markdown') || f.endsWith('.MD'))
    .sort()
    .map((name) => ({ name, markdown: readFileSync(join(CORPUS, name), 'utf8') }));
}
