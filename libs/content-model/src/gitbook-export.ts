import { posix } from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { ContentRef, JsonDocument } from './document';
import type { FileNode } from './files';
import { contentHash } from './hash';
import { extractLinks } from './links';
import { layoutOf, markdownToDocument } from './markdown';
import { documentToMarkdown } from './document-to-markdown';
import { frontMatterOf, markdownStyleOf } from './markdown-read';
import { QUIRE_STYLE, writePhrasing, type MarkdownStyle } from './markdown-write';
import type { ContentChange } from './changes';
import { projectPath, type GitbookRepository } from './gitbook-repository';
import type { RepositorySources } from './repository-sources';
import { LAYOUT_PARTS, slugify, walk, type PageLayout, type PageNode, type PageTree, type ReusableContent } from './tree';

/**
 * A space's content written as GitBook's Git Sync layout (the reverse of `readGitbookRepository`): one markdown
 * file per page — a page with sub-pages is `<folder>/README.md`, a page without is `<slug>.md`, the first
 * top-level page the repository's `README.md` — its front matter (`description`, `hidden`, `emoji`), its title as
 * the leading heading and its document in GitBook's markdown; `SUMMARY.md` with the tree (groups as `##`
 * headings); `.gitbook.yaml`; and the files under `.gitbook/assets/`. Links between pages and to files are
 * written as relative paths, as GitBook writes them. Pure: the caller reads bodies and writes the files.
 *
 * With the sources a repository import kept (`RepositorySources`), nothing the space did not change moves: a page
 * whose title, metadata and document are as they were imported is written as exactly the file it was read from,
 * at its path; a changed page is written at its old path, in the repository's own style (list and emphasis
 * markers) and with the front matter Quire does not model (`icon`, `layout`, `cover` …) kept; the summary and
 * `.gitbook.yaml` are written as they were while the tree is; new pages go beside their parent, under the
 * configured root; assets keep their paths.
 */
export interface ExportedRepository {
  /** Text files by repository path: pages, `SUMMARY.md`, `.gitbook.yaml`. */
  text: Map<string, string>;
  /** Files to copy: repository path → the space's file. */
  assets: Map<string, FileNode>;
  /** Pages written as exactly the source they were imported from. */
  verbatim: number;
  /** What this export wrote, as an import would have kept it (Git Sync keeps it once the commit is pushed). */
  written: RepositorySources;
}

/** What of a page its file holds: title, metadata and document. A change to any makes the file written anew. */
export function pageDigest(page: PageNode): string {
  return contentHash([
    page.type,
    page.title,
    page.description ?? '',
    page.emoji ?? '',
    page.hidden === true,
    page.document,
    page.variables ?? {},
    page.icon ?? '',
    page.layout ?? null,
    page.cover ?? null,
    ...(page.target ? [page.target] : []),
  ]);
}

/** What of a reusable content its file holds: its title and document. */
export function reusableDigest(content: ReusableContent): string {
  return contentHash(['reusable', content.title, content.document]);
}

/** What of the tree the summary holds: the pages, their order and nesting, titles and kinds. */
export function treeDigest(tree: PageTree): string {
  const shape = (pages: PageNode[]): unknown[] =>
    pages.map((p) => [p.id, p.type, p.title, shape(p.pages), ...(p.target ? [p.target] : [])]);
  return contentHash(shape(tree));
}

/**
 * What an import keeps (see `writeGitbookRepository`), from what it read and what it became, added to what the
 * space kept before (`previous`): each page's file and markdown with the page's digest as imported (`pageIds`: the
 * import's page refs → page ids; an updated page is its own id), the files' paths (`fileIds`: asset path → file
 * id), `.gitbook.yaml`, and the summary with the digest of the tree it gave — only when every page of the tree
 * came from the repository (a summary does not name pages the space has besides). Paths are relative to the
 * project's folder. A text Postgres cannot hold (a NUL) is not kept.
 */
export function repositorySources(
  repo: GitbookRepository,
  changes: ContentChange[],
  tree: PageTree,
  pageIds: Map<string, string>,
  fileIds: Map<string, string>,
  previous: RepositorySources | null = null,
  reusable: ReusableContent[] = [],
): RepositorySources {
  const local = (path: string) => projectPath(repo, path);
  const text = (value: string | null) => (value === null || value.includes('\0') ? null : value);
  const nodes = new Map<string, PageNode>();
  walk(tree, (l) => nodes.set(l.node.id, l.node));
  const sources: RepositorySources = {
    pages: new Map([...(previous?.pages ?? [])].filter(([id]) => nodes.has(id))),
    reusable: new Map(),
    files: new Map([...(previous?.files ?? []), ...[...fileIds].map(([path, id]): [string, string] => [id, local(path)])]),
    summary: null,
    config: text(repo.config),
    root: repo.root === repo.project ? '' : local(repo.root),
  };
  for (const change of changes) {
    if (change.operation !== 'insert_page' && change.operation !== 'update_page') continue;
    if (change.operation === 'update_page' && !change.document) continue;
    const id = change.operation === 'update_page' ? change.page : pageIds.get(change.ref ?? '');
    const node = nodes.get(id ?? '');
    if (!node || !change.document) continue;
    const markdown = 'markdown' in change.document ? text(change.document.markdown) : null;
    sources.pages.set(node.id, { path: change.path ? local(change.path) : null, markdown, digest: pageDigest(node) });
  }
  if (repo.variables && !repo.variables.text.includes('\0'))
    sources.variables = { path: local(repo.variables.path), text: repo.variables.text, digest: contentHash(repo.variables.values) };
  // Reusable contents: each as its include file is now (the import read every one).
  const includes = new Map(repo.includes.map((i) => [i.path, i.markdown]));
  for (const content of reusable) {
    const markdown = content.path === undefined ? undefined : includes.get(content.path);
    if (markdown !== undefined)
      sources.reusable.set(content.id, { path: local(content.path!), markdown: text(markdown), digest: reusableDigest(content) });
  }
  const summary = text(repo.summarySource);
  if ([...nodes.keys()].every((id) => sources.pages.has(id)) && repo.summary && summary !== null)
    sources.summary = { path: local(repo.summary), markdown: summary, digest: treeDigest(tree) };
  return sources;
}

const ASSETS = '.gitbook/assets';
const INCLUDES = '.gitbook/includes';

/** The reusable contents a document includes. */
function includedBy(doc: JsonDocument): string[] {
  const out: string[] = [];
  const visit = (nodes: readonly unknown[]) => {
    for (const n of nodes as { type?: string; data?: { ref?: ContentRef }; nodes?: unknown[]; fragments?: { nodes: unknown[] }[] }[]) {
      if (n.type === 'reusable-content' && n.data?.ref?.kind === 'reusable-content') out.push(n.data.ref.reusableContent);
      if (n.nodes) visit(n.nodes);
      for (const f of n.fragments ?? []) visit(f.nodes);
    }
  };
  visit(doc.nodes);
  return out;
}
/**
 * A page layout as GitBook's front matter writes it (`width: wide`, `cover: {visible, size}`, `title: {visible}` …),
 * over the imported one so that what Quire does not model in it stays.
 */
function frontLayout(layout: PageLayout, imported: unknown): unknown {
  if (imported !== undefined && JSON.stringify(layoutOf(imported)) === JSON.stringify(layout)) return imported;
  const out: Record<string, unknown> = imported && typeof imported === 'object' && !Array.isArray(imported) ? { ...imported } : {};
  if (layout.width) out.width = layout.width;
  for (const part of LAYOUT_PARTS) {
    if (layout[part] === undefined && !(part === 'cover' && layout.coverSize)) continue;
    const was = out[part] && typeof out[part] === 'object' ? (out[part] as Record<string, unknown>) : {};
    out[part] = {
      ...was,
      ...(layout[part] !== undefined ? { visible: layout[part] } : {}),
      ...(part === 'cover' && layout.coverSize ? { size: layout.coverSize } : {}),
    };
  }
  return out;
}

/**
 * A page's document in the repository's style. Wrapped text is checked: read again, it must be the document the
 * unwrapped text is, else the page is written unwrapped (a break the wrapper thought safe was not).
 */
function pageMarkdown(doc: JsonDocument, refUrl: (ref: ContentRef) => string, style: MarkdownStyle): string {
  const written = documentToMarkdown(doc, refUrl, style);
  if (!style.wrap) return written;
  const flat = documentToMarkdown(doc, refUrl, { ...style, wrap: undefined });
  const keyless = (markdown: string) =>
    JSON.stringify(markdownToDocument(markdown).document, (k, v: unknown) => (k === 'key' ? undefined : v));
  return written === flat || keyless(written) === keyless(flat) ? written : flat;
}

/** Front matter keys Quire models (written from the page); any other key of an imported page's front matter is kept. */
const MODELLED = new Set(['title', 'description', 'emoji', 'icon', 'hidden', 'vars', 'cover', 'coverY', 'layout']);
/** How many page sources are read to learn a repository's style. */
const STYLE_SAMPLE = 60;

export function writeGitbookRepository(
  tree: PageTree,
  documentOf: (hash: string) => JsonDocument | null,
  files: FileNode[],
  sources?: RepositorySources,
  reusable: ReusableContent[] = [],
  variables: Record<string, string> = {},
): ExportedRepository {
  const root = sources?.root ?? '';
  const pathOf = new Map<string, string>();
  const assets = new Map<string, FileNode>();
  const assetPath = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of files) {
    const kept = sources?.files.get(file.id);
    if (kept && !taken.has(kept)) {
      taken.add(kept);
      assets.set(kept, file);
      assetPath.set(file.id, kept);
    }
  }
  for (const file of files) {
    if (assetPath.has(file.id)) continue;
    const base = file.name.replace(/[/\\]/g, '_') || file.id;
    const folder = posix.join(root, ASSETS);
    let path = `${folder}/${base}`;
    for (let i = 2; taken.has(path); i++) path = `${folder}/${posix.basename(base, posix.extname(base))}-${i}${posix.extname(base)}`;
    taken.add(path);
    assets.set(path, file);
    assetPath.set(file.id, path);
  }
  // Reusable contents: at their kept file, else `.gitbook/includes/<title>.md` under the root.
  const includePath = new Map<string, string>();
  for (const content of reusable) {
    const kept = sources?.reusable.get(content.id)?.path;
    if (kept && !taken.has(kept)) {
      taken.add(kept);
      includePath.set(content.id, kept);
    }
  }
  for (const content of reusable) {
    if (includePath.has(content.id)) continue;
    const base = posix.join(root, INCLUDES, slugify(content.title, content.id));
    let path = `${base}.md`;
    for (let i = 2; taken.has(path); i++) path = `${base}-${i}.md`;
    taken.add(path);
    includePath.set(content.id, path);
  }
  // Paths first: links may point forward. Kept paths first of all, so that a new page never takes one.
  const unchanged = (page: PageNode) => {
    const source = sources?.pages.get(page.id);
    return source !== undefined && source.digest === pageDigest(page) ? source : null;
  };
  const walkAll = (pages: PageNode[], f: (p: PageNode) => void) =>
    pages.forEach((p) => {
      f(p);
      walkAll(p.pages, f);
    });
  walkAll(tree, (page) => {
    const kept = sources?.pages.get(page.id)?.path;
    if (page.type !== 'group' && kept && !taken.has(kept)) {
      taken.add(kept);
      pathOf.set(page.id, kept);
    }
  });
  /** A page without a file of its own that nothing changed stays without one (a summary entry without a link). */
  const fileless = (page: PageNode) => {
    const source = unchanged(page);
    return source !== null && source.path === null;
  };
  const place = (pages: PageNode[], dir: string, top: boolean) => {
    pages.forEach((page, i) => {
      if (page.type === 'link') {
        place(page.pages, dir, false); // an entry of the summary, without a file (pages under it, which the API refuses, beside it)
        return;
      }
      if (page.type === 'group') {
        place(page.pages, posix.join(dir, page.slug), false);
        return;
      }
      let folder = posix.join(dir, page.slug);
      const kept = pathOf.get(page.id);
      if (kept) folder = /(^|\/)readme\.md$/i.test(kept) ? posix.dirname(kept) : kept.replace(/\.md$/i, '');
      else if (!fileless(page)) {
        const wanted =
          top && i === 0 && !page.pages.length ? posix.join(root, 'README.md') : page.pages.length ? `${folder}/README.md` : `${folder}.md`;
        let path = wanted;
        for (let n = 2; taken.has(path); n++) path = wanted.replace(/(\/README)?\.md$/, (m) => `-${n}${m}`);
        taken.add(path);
        pathOf.set(page.id, path);
      }
      place(page.pages, folder, false);
    });
  };
  place(tree, root, true);

  let style: MarkdownStyle | null = null;
  const repositoryStyle = () =>
    (style ??= sources
      ? markdownStyleOf(
          [...sources.pages.values()]
            .map((p) => p.markdown)
            .filter((m): m is string => m !== null)
            .slice(0, STYLE_SAMPLE),
        )
      : QUIRE_STYLE);

  /** Links written from a file at `path`: relative paths to the pages, files and includes of the export. */
  const refsFrom = (path: string) => {
    const from = posix.dirname(path);
    const relativeTo = (target: string) => posix.relative(from, target) || posix.basename(target);
    return (ref: ContentRef): string => {
      if (ref.kind === 'page') {
        const target = pathOf.get(ref.page);
        const url = target ? relativeTo(target) : '';
        return `${url}${ref.anchor ? `#${ref.anchor}` : ''}`;
      }
      if (ref.kind === 'file') {
        const target = assetPath.get(ref.file);
        return target ? encodeURI(relativeTo(target)) : '';
      }
      if (ref.kind === 'reusable-content') {
        const target = includePath.get(ref.reusableContent);
        return target ? relativeTo(target) : '';
      }
      if (ref.kind === 'anchor') return `#${ref.anchor}`;
      if (ref.kind === 'url') return ref.url;
      return '';
    };
  };
  /** Do the pages, files and includes a document links to still sit where its kept source says? */
  const linksKept = (doc: JsonDocument | null) =>
    doc === null ||
    (extractLinks(doc).every((l) =>
      l.kind === 'page'
        ? sources?.pages.get(l.target)?.path === pathOf.get(l.target) && pathOf.has(l.target)
        : l.kind !== 'file' || sources?.files.get(l.target) === assetPath.get(l.target),
    ) &&
      includedBy(doc).every((id) => includePath.has(id) && sources?.reusable.get(id)?.path === includePath.get(id)));

  const text = new Map<string, string>();
  const written: RepositorySources = {
    pages: new Map(),
    reusable: new Map(),
    files: new Map([...assetPath]),
    summary: null,
    config: null,
    root,
  };
  const keep = (page: PageNode, path: string | null, markdown: string | null) =>
    written.pages.set(page.id, { path, markdown, digest: pageDigest(page) });
  let verbatim = 0;
  walkAll(tree, (page) => {
    const path = pathOf.get(page.id);
    if (page.type !== 'document' || !path) {
      keep(page, null, null);
      return;
    }
    const doc = page.document ? documentOf(page.document) : null;
    const source = unchanged(page);
    if (source && source.markdown !== null && source.path === path && linksKept(doc)) {
      text.set(path, source.markdown);
      keep(page, path, source.markdown);
      verbatim += 1;
      return;
    }
    const refUrl = refsFrom(path);
    // The imported front matter, in its order: the keys Quire models take the page's values (or go), the
    // others (`layout`, `cover` …) stay as they were.
    const front: Record<string, unknown> = { ...sourceFrontMatter(sources?.pages.get(page.id)?.markdown ?? null) };
    const modelled: Record<string, unknown> = {
      description: page.description || undefined,
      icon: page.icon || undefined,
      emoji: page.emoji || undefined, // Quire's page emoji (GitBook's `icon` names an icon)
      hidden: page.hidden ? true : undefined,
      vars: page.variables && Object.keys(page.variables).length ? page.variables : undefined,
      cover: page.cover ? refUrl(page.cover.ref) : undefined,
      coverY: page.cover ? (page.cover.yPos ?? 0) : undefined,
      layout: page.layout ? frontLayout(page.layout, front.layout) : undefined,
    };
    for (const k of MODELLED) {
      if (k === 'title') delete front[k];
      // A layout Quire does not model (a preset name such as `landing`) stays as it was.
      else if (modelled[k] === undefined) {
        if (k !== 'layout' || layoutOf(front[k]) !== null) delete front[k];
      } else front[k] = modelled[k];
    }
    const body = doc ? pageMarkdown(doc, refUrl, sources ? repositoryStyle() : QUIRE_STYLE) : '';
    const head = Object.keys(front).length ? `---\n${toYaml(front)}---\n\n` : '';
    const markdown = `${head}# ${writePhrasing([{ type: 'text', value: page.title }], true)}\n${body ? `\n${body}` : ''}`;
    text.set(path, markdown);
    keep(page, path, markdown);
  });

  // The includes: as they were read while unchanged, else their title as front matter and their document.
  for (const content of reusable) {
    const path = includePath.get(content.id)!;
    const source = sources?.reusable.get(content.id);
    const doc = content.document ? documentOf(content.document) : null;
    let markdown: string;
    if (source && source.markdown !== null && source.path === path && source.digest === reusableDigest(content) && linksKept(doc))
      markdown = source.markdown;
    else {
      const body = doc ? documentToMarkdown(doc, refsFrom(path), sources ? repositoryStyle() : QUIRE_STYLE) : '';
      markdown = `---\n${toYaml({ title: content.title })}---\n${body ? `\n${body}` : ''}`;
    }
    text.set(path, markdown);
    written.reusable.set(content.id, { path, markdown, digest: reusableDigest(content) });
  }

  // The space's variables: `.gitbook/vars.yaml` as it was read while they are unchanged.
  if (Object.keys(variables).length || sources?.variables) {
    const path = sources?.variables?.path ?? posix.join(root, '.gitbook/vars.yaml');
    const kept = sources?.variables;
    const yaml = kept && kept.digest === contentHash(variables) ? kept.text : Object.keys(variables).length ? toYaml(variables) : '';
    if (yaml) {
      text.set(path, yaml);
      written.variables = { path, text: yaml, digest: contentHash(variables) };
    }
  }

  const summaryPath = sources?.summary?.path ?? posix.join(root, 'SUMMARY.md');
  if (
    sources?.summary &&
    sources.summary.digest === treeDigest(tree) &&
    [...pathOf].every(([id, p]) => sources.pages.get(id)?.path === p)
  ) {
    text.set(summaryPath, sources.summary.markdown);
  } else text.set(summaryPath, writeSummary(tree, pathOf, posix.dirname(summaryPath), sources ? repositoryStyle().bullet : '*'));
  const config = sources?.config ?? 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n';
  text.set('.gitbook.yaml', config);
  written.config = config;
  written.summary = { path: summaryPath, markdown: text.get(summaryPath)!, digest: treeDigest(tree) };
  return { text, assets, verbatim, written };
}

/** The front matter of an imported page, every key in its order (the page is written anew from it). */
function sourceFrontMatter(markdown: string | null): Record<string, unknown> {
  return (markdown === null ? null : frontMatterOf(markdown))?.values ?? {};
}

/**
 * SUMMARY.md for the tree: nested bullet links, groups as `##` headings, an entry without a file as plain text, a
 * link page as a link to its target (a page's file with the anchor, or the URL).
 */
function writeSummary(tree: PageTree, pathOf: Map<string, string>, dir: string, bullet: string): string {
  const lines: string[] = ['# Table of contents', ''];
  const entries = (pages: PageNode[], depth: number) => {
    for (const page of pages) {
      if (page.type === 'group') continue;
      const title = page.title.replace(/([\\[\]])/g, '\\$1');
      const path = pathOf.get(page.id);
      const from = dir === '.' ? '' : dir;
      const target = page.target;
      const linked = target?.kind === 'page' ? pathOf.get(target.page) : undefined;
      const url =
        target?.kind === 'url'
          ? target.url
          : linked !== undefined
            ? `${encodeURI(posix.relative(from, linked))}${target?.kind === 'page' && target.anchor ? `#${target.anchor}` : ''}`
            : path === undefined
              ? null
              : encodeURI(posix.relative(from, path));
      lines.push(`${'  '.repeat(depth)}${bullet} ${url === null ? title : `[${title}](${url})`}`);
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
  return lines.join('\n') + '\n';
}
