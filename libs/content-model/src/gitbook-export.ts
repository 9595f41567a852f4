import { posix } from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { ContentRef, JsonDocument } from './document';
import type { FileNode } from './files';
import { documentToMarkdown } from './markdown';
import type { PageNode, PageTree } from './tree';

/**
 * A space's content written as GitBook's Git Sync layout (the reverse of `readGitbookRepository`): one markdown
 * file per page — a page with sub-pages is `<folder>/README.md`, a page without is `<slug>.md`, the first
 * top-level page the repository's `README.md` — its front matter (`description`, `hidden`, `emoji`), its title as
 * the leading heading and its document in GitBook's markdown; `SUMMARY.md` with the tree (groups as `##`
 * headings); `.gitbook.yaml`; and the files under `.gitbook/assets/`. Links between pages and to files are
 * written as relative paths, as GitBook writes them. Pure: the caller reads bodies and writes the files.
 */
export interface ExportedRepository {
  /** Text files by repository path: pages, `SUMMARY.md`, `.gitbook.yaml`. */
  text: Map<string, string>;
  /** Files to copy: repository path → the space's file. */
  assets: Map<string, FileNode>;
}

const ASSETS = '.gitbook/assets';

export function writeGitbookRepository(
  tree: PageTree,
  documentOf: (hash: string) => JsonDocument | null,
  files: FileNode[],
): ExportedRepository {
  const pathOf = new Map<string, string>();
  const assets = new Map<string, FileNode>();
  const assetPath = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of files) {
    const base = file.name.replace(/[/\\]/g, '_') || file.id;
    let path = `${ASSETS}/${base}`;
    for (let i = 2; taken.has(path); i++) path = `${ASSETS}/${posix.basename(base, posix.extname(base))}-${i}${posix.extname(base)}`;
    taken.add(path);
    assets.set(path, file);
    assetPath.set(file.id, path);
  }
  // Paths first: links may point forward.
  const place = (pages: PageNode[], dir: string, top: boolean) => {
    pages.forEach((page, i) => {
      if (page.type === 'group') {
        place(page.pages, posix.join(dir, page.slug), false);
        return;
      }
      const folder = posix.join(dir, page.slug);
      const path = top && i === 0 && !page.pages.length ? 'README.md' : page.pages.length ? `${folder}/README.md` : `${folder}.md`;
      pathOf.set(page.id, path);
      place(page.pages, folder, false);
    });
  };
  place(tree, '', true);

  const text = new Map<string, string>();
  const write = (pages: PageNode[]) => {
    for (const page of pages) {
      if (page.type !== 'group') {
        const path = pathOf.get(page.id)!;
        const from = posix.dirname(path);
        const relativeTo = (target: string) => {
          const rel = posix.relative(from, target);
          return rel || posix.basename(target);
        };
        const refUrl = (ref: ContentRef): string => {
          if (ref.kind === 'page') {
            const target = pathOf.get(ref.page);
            const url = target ? relativeTo(target) : '';
            return `${url}${ref.anchor ? `#${ref.anchor}` : ''}`;
          }
          if (ref.kind === 'file') {
            const target = assetPath.get(ref.file);
            return target ? encodeURI(relativeTo(target)) : '';
          }
          if (ref.kind === 'anchor') return `#${ref.anchor}`;
          if (ref.kind === 'url') return ref.url;
          return '';
        };
        const front: Record<string, unknown> = {};
        if (page.description) front.description = page.description;
        if (page.emoji) front.emoji = page.emoji; // Quire's page emoji (GitBook's `icon` names an icon font glyph)
        if (page.hidden) front.hidden = true;
        const doc = page.document ? documentOf(page.document) : null;
        const body = doc ? documentToMarkdown(doc, refUrl) : '';
        const head = Object.keys(front).length ? `---\n${toYaml(front)}---\n\n` : '';
        text.set(path, `${head}# ${page.title}\n${body ? `\n${body}` : ''}`);
      }
      write(page.pages);
    }
  };
  write(tree);

  const lines: string[] = ['# Table of contents', ''];
  const entries = (pages: PageNode[], depth: number) => {
    for (const page of pages) {
      if (page.type === 'group') continue;
      lines.push(`${'  '.repeat(depth)}* [${page.title.replace(/([\\[\]])/g, '\\$1')}](${encodeURI(pathOf.get(page.id)!)})`);
      entries(page.pages, depth + 1);
    }
  };
  let inGroup = false;
  for (const page of tree) {
    if (page.type === 'group') {
      lines.push('', `## ${page.title}`, '');
      entries(page.pages, 0);
      inGroup = true;
    } else {
      if (inGroup) lines.push('');
      inGroup = false;
      entries([page], 0);
    }
  }
  text.set('SUMMARY.md', lines.join('\n') + '\n');
  text.set('.gitbook.yaml', 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n');
  return { text, assets };
}
