import { posix } from 'node:path';
import type { List, ListItem, PhrasingContent } from 'mdast';
import { parse as parseYaml } from 'yaml';
import type { ContentChange } from './changes';
import { frontMatterOf, parseMarkdown } from './markdown-read';
import { slugify, walk, type PageNode, type PageTree, type ReusableContent } from './tree';
import type { RepositorySources } from './repository-sources';

/**
 * GitBook's Git Sync layout read into a page tree (pure: the caller gives the files). GitBook documents it at
 * gitbook.com/docs (Git Sync, "Content configuration"):
 * - `.gitbook.yaml` at the project's root: `root` (the folder of the content, default `./`),
 *   `structure.readme` (the first page, default `README.md`) and `structure.summary` (default `SUMMARY.md`),
 *   both relative to `root`, and `redirects` (old path → file, relative to `root`);
 * - `SUMMARY.md`: the table of contents, nested bullet links; a `##` heading starts a group of pages (a
 *   level-1 heading is the summary's own title); a bullet without a link is a page without a file;
 * - without a summary, the tree follows the folders: `README.md` first, then the files and folders by name
 *   (a folder is a page when it holds a `README.md`, else its pages are listed in its place);
 * - `.gitbook/assets/` (beside the content, or at the project's or the repository's top) holds the files pages link to;
 * - a monorepo holds several projects: `projectDirectory` (the official `repoProjectDirectory`) names the
 *   folder of the one to read.
 * Files the summary names but the repository lacks are reported (`missing`), never fatal.
 */

/** The repository as the reader sees it: text of a file, or null when there is none. Paths are `/`-separated, relative. */
export interface RepositoryFiles {
  read(path: string): string | null;
  /** Every file path of the repository (for assets and for the tree without a summary). */
  paths(): readonly string[];
}

export interface RepositoryPage {
  kind: 'document' | 'group';
  title: string;
  /** The page's markdown file, relative to the repository (null: an entry without a file, or a group). */
  path: string | null;
  /** The file's markdown as it is in the repository (null when there is no file). */
  markdown: string | null;
  pages: RepositoryPage[];
}

export interface GitbookRepository {
  /** The project's folder (the official `repoProjectDirectory`), relative to the repository ('' for the top). */
  project: string;
  /** `.gitbook.yaml` as it is (null when the project has none). */
  config: string | null;
  /** The content's folder, relative to the repository ('' for the top). */
  root: string;
  readme: string;
  summary: string | null;
  /** The summary's markdown as it is. */
  summarySource: string | null;
  pages: RepositoryPage[];
  /** Redirects of `.gitbook.yaml`: a path of the old site → the file it now points to (relative to the repository). */
  redirects: { source: string; destination: string }[];
  /** Files under `.gitbook/assets/` (relative to the repository). */
  assets: string[];
  /** Reusable contents: the markdown files under `.gitbook/includes/` (relative to the repository). */
  includes: { path: string; title: string; markdown: string }[];
  /** The space's variables: `.gitbook/vars.yaml` (name → value), as read and as text. */
  variables: { path: string; text: string; values: Record<string, string> } | null;
  /** Files the summary or the redirects name that the repository does not hold. */
  missing: string[];
  /** What was read differently from how it was written (an invalid `.gitbook.yaml` …). */
  notes: string[];
}

const CONFIG = '.gitbook.yaml';
const ASSETS = '.gitbook/assets/';

/** A repository-relative path, normalized (`./a/../b.md` → `b.md`); null when it leaves the repository. */
function normal(path: string): string | null {
  const p = posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
  return p === '..' || p.startsWith('../') ? null : p === '.' ? '' : p;
}

const join = (...parts: string[]) => normal(posix.join(...parts.filter(Boolean))) ?? '';

function text(nodes: readonly PhrasingContent[]): string {
  return nodes.map((n) => ('value' in n ? n.value : 'children' in n ? text(n.children) : '')).join('');
}

function safeDecode(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/** Reads the project at `projectDirectory` (default: the repository's top). */
export function readGitbookRepository(files: RepositoryFiles, options: { projectDirectory?: string } = {}): GitbookRepository {
  const project = normal(options.projectDirectory ?? '') ?? '';
  const notes: string[] = [];
  const missing = new Set<string>();
  let config: { root?: unknown; structure?: { readme?: unknown; summary?: unknown }; redirects?: unknown } = {};
  const configText = files.read(join(project, CONFIG));
  if (configText !== null) {
    try {
      const parsed: unknown = parseYaml(configText);
      if (parsed && typeof parsed === 'object') config = parsed;
    } catch {
      notes.push(`${join(project, CONFIG)} is not valid YAML: the defaults apply`);
    }
  }
  const root = normal(join(project, typeof config.root === 'string' ? config.root : '')) ?? project;
  const structure = config.structure && typeof config.structure === 'object' ? config.structure : {};
  const readme = join(root, typeof structure.readme === 'string' ? structure.readme : 'README.md');
  const summaryPath = join(root, typeof structure.summary === 'string' ? structure.summary : 'SUMMARY.md');
  const summary = files.read(summaryPath);

  const page = (title: string, path: string | null): RepositoryPage => {
    const markdown = path === null ? null : files.read(path);
    if (path !== null && markdown === null) missing.add(path);
    return { kind: 'document', title, path, markdown, pages: [] };
  };

  let pages: RepositoryPage[];
  if (summary !== null) {
    pages = fromSummary(summary, posix.dirname(summaryPath) === '.' ? '' : posix.dirname(summaryPath), page);
  } else {
    pages = fromFolders(files, root, readme, page);
  }

  const redirects = redirectsOf(config.redirects, root);
  for (const { destination } of redirects) if (files.read(destination) === null) missing.add(destination);
  // `.gitbook/assets/` beside the content, or at the project's or the repository's top.
  const folders = [...new Set([join(root, ASSETS), join(project, ASSETS), join(ASSETS)])].map((f) => f + '/');
  const assets = files.paths().filter((p) => folders.some((f) => p.startsWith(f)));
  const includeFolders = folders.map((f) => f.replace(/assets\/$/, 'includes/'));
  const includes = [...new Set(files.paths().filter((p) => p.toLowerCase().endsWith('.md') && includeFolders.some((f) => p.startsWith(f))))]
    .sort()
    .flatMap((path) => {
      const markdown = files.read(path);
      return markdown === null ? [] : [{ path, title: includeTitle(path, markdown), markdown }];
    });
  let variables: GitbookRepository['variables'] = null;
  for (const folder of folders) {
    const path = folder.replace(/assets\/$/, 'vars.yaml');
    const text = files.read(path);
    if (text === null || variables) continue;
    try {
      const parsed: unknown = parseYaml(text);
      const values =
        parsed && typeof parsed === 'object' && !Array.isArray(parsed)
          ? Object.fromEntries(
              Object.entries(parsed as Record<string, unknown>)
                .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
                .map(([k, v]) => [k, String(v)]),
            )
          : {};
      variables = { path, text, values };
    } catch {
      notes.push(`${path} is not valid YAML: no variables read`);
    }
  }
  return {
    project,
    config: configText,
    root,
    readme,
    summary: summary === null ? null : summaryPath,
    summarySource: summary,
    pages,
    redirects,
    assets: [...new Set(assets)],
    includes,
    variables,
    missing: [...missing],
    notes,
  };
}

/** A reusable content's title: its front matter's `title`, else its leading heading, else its file's name. */
function includeTitle(path: string, markdown: string): string {
  const front = frontMatterOf(markdown);
  const title = front?.values.title;
  if (typeof title === 'string' && title.trim()) return title.trim();
  const heading = /^#\s+(.+)$/m.exec(front ? markdown.slice(front.end) : markdown);
  return heading ? heading[1].trim() : posix.basename(path, '.md').replace(/[-_]+/g, ' ');
}

/** A repository path relative to the repository's project folder (how an import keeps paths). */
export function projectPath(repo: Pick<GitbookRepository, 'project'>, path: string): string {
  return repo.project && path.startsWith(repo.project + '/') ? path.slice(repo.project.length + 1) : path;
}

/** A path kept relative to the project folder, relative to the repository again. */
export function repositoryPathOf(repo: Pick<GitbookRepository, 'project'>, path: string): string {
  return repo.project ? `${repo.project}/${path}` : path;
}

/** The `redirects` of a `.gitbook.yaml`: old path → the file it now points to (relative to `root`'s folder). */
function redirectsOf(value: unknown, root: string): GitbookRepository['redirects'] {
  const redirects: GitbookRepository['redirects'] = [];
  if (!value || typeof value !== 'object') return redirects;
  for (const [source, target] of Object.entries(value as Record<string, unknown>)) {
    if (typeof target !== 'string') continue;
    const destination = normal(posix.join(root || '.', target));
    if (destination !== null) redirects.push({ source: `/${source.replace(/^\/+/, '')}`, destination });
  }
  return redirects;
}

/**
 * The redirects of a kept `.gitbook.yaml` (see `RepositorySources`: `root` is relative to the project, and so
 * are the destinations); none when it does not parse.
 */
export function gitbookRedirects(config: string, root: string): GitbookRepository['redirects'] {
  try {
    const parsed: unknown = parseYaml(config);
    return parsed && typeof parsed === 'object' ? redirectsOf((parsed as { redirects?: unknown }).redirects, root) : [];
  } catch {
    return [];
  }
}

/** The summary's lists and group headings as a page tree. */
function fromSummary(summary: string, dir: string, page: (title: string, path: string | null) => RepositoryPage): RepositoryPage[] {
  const top: RepositoryPage[] = [];
  let into = top;
  const items = (list: List): RepositoryPage[] =>
    list.children.map((item: ListItem) => {
      const first = item.children.find((c) => c.type === 'paragraph');
      const link = first?.children.find((c) => c.type === 'link');
      const title = (link ? text(link.children) : first ? text(first.children) : '').trim();
      const target = link ? link.url.split('#')[0] : '';
      const path = target && !/^[a-z][a-z0-9+.-]*:/i.test(target) ? normal(posix.join(dir || '.', safeDecode(target))) : null;
      const p = page(title, path);
      for (const child of item.children) if (child.type === 'list') p.pages.push(...items(child));
      return p;
    });
  for (const node of parseMarkdown(summary).children) {
    if (node.type === 'heading' && node.depth >= 2) {
      const group: RepositoryPage = { kind: 'group', title: text(node.children).trim(), path: null, markdown: null, pages: [] };
      top.push(group);
      into = group.pages;
    } else if (node.type === 'list') into.push(...items(node));
  }
  return top;
}

/** Without a summary: the folders, README first, then by name; markdown files only, `.gitbook/` left out. */
function fromFolders(
  files: RepositoryFiles,
  root: string,
  readme: string,
  page: (title: string, path: string | null) => RepositoryPage,
): RepositoryPage[] {
  const under = (dir: string) =>
    files.paths().filter((p) => (dir ? p.startsWith(dir + '/') : true) && !p.split('/').some((s) => s.startsWith('.')));
  const titleOf = (path: string) => {
    const heading = /^#\s+(.+)$/m.exec(files.read(path) ?? '');
    return heading ? heading[1].trim() : posix.basename(path, '.md').replace(/[-_]+/g, ' ');
  };
  const level = (dir: string): RepositoryPage[] => {
    const entries = new Map<string, 'file' | 'dir'>();
    for (const p of under(dir)) {
      const rest = dir ? p.slice(dir.length + 1) : p;
      const [head, ...tail] = rest.split('/');
      if (tail.length) entries.set(head, 'dir');
      else if (head.toLowerCase().endsWith('.md') && !/^(readme|summary)\.md$/i.test(head)) entries.set(head, 'file');
    }
    const out: RepositoryPage[] = [];
    for (const [name, kind] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
      const path = join(dir, name);
      if (kind === 'file') out.push(page(titleOf(path), path));
      else {
        const folderReadme = join(path, 'README.md');
        const children = level(path);
        if (files.read(folderReadme) !== null) {
          const p = page(titleOf(folderReadme), folderReadme);
          p.pages = children;
          out.push(p);
        } else out.push(...children);
      }
    }
    return out;
  };
  const first = files.read(readme) !== null ? [page(titleOf(readme), readme)] : [];
  return [...first, ...level(root)];
}

/**
 * The changes that make a space's tree the repository's (content-engine changes, in tree order, each page with
 * its repository path so links between pages resolve): slugs from file names (a folder's README its folder's
 * name), unique among siblings; `##` groups are page groups. The caller adds the assets, with each file's ref its
 * repository path.
 *
 * Into a space that imported before (`current`: its tree and the sources kept then), pages are matched by their
 * file's path (groups and entries without a file by title under the same parent) and keep their ids: a page
 * whose file changed is updated (its markdown read again), one that moved is moved, a new file is a new page,
 * and a page the repository no longer has is deleted. Nothing is written for a page that did not change.
 */
export function repositoryPageChanges(
  repo: GitbookRepository,
  current?: { tree: PageTree; sources: RepositorySources | null; reusable?: ReusableContent[]; variables?: Record<string, string> },
): { changes: ContentChange[]; pages: number; notes: string[] } {
  const changes: ContentChange[] = [];
  const notes: string[] = [];
  const tree = current?.tree ?? [];
  const local = (path: string) => projectPath(repo, path);
  // The space's variables: as `.gitbook/vars.yaml` says (none when it is gone, if an import brought them).
  const variables = repo.variables?.values ?? (current?.sources?.variables ? {} : null);
  if (variables && JSON.stringify(variables) !== JSON.stringify(current?.variables ?? {}))
    changes.push({ operation: 'set_variables', variables });
  // Reusable contents first (pages include them): matched by their file's path, as pages are.
  const existing = new Set((current?.reusable ?? []).map((r) => r.id));
  const reusableByPath = new Map(
    [...(current?.sources?.reusable ?? [])].flatMap(([id, s]) =>
      s.path !== null && existing.has(id) ? [[s.path, id] as [string, string]] : [],
    ),
  );
  const keptReusable = new Set<string>();
  repo.includes.forEach((include, k) => {
    const id = reusableByPath.get(local(include.path));
    if (id) {
      keptReusable.add(id);
      if (current?.sources?.reusable.get(id)?.markdown !== include.markdown)
        changes.push({
          operation: 'update_reusable_content',
          reusableContent: id,
          path: include.path,
          title: include.title,
          document: { markdown: include.markdown },
        });
    } else
      changes.push({
        operation: 'insert_reusable_content',
        ref: `include-${k + 1}`,
        path: include.path,
        title: include.title,
        document: { markdown: include.markdown },
      });
  });
  for (const id of reusableByPath.values())
    if (!keptReusable.has(id)) changes.push({ operation: 'delete_reusable_content', reusableContent: id });
  const located = new Map<string, { parent: string | null; index: number; node: PageNode }>();
  walk(tree, (l) => located.set(l.node.id, { parent: l.parent?.id ?? null, index: l.index, node: l.node }));
  const byPath = new Map<string, string>();
  for (const [id, source] of current?.sources?.pages ?? []) if (source.path !== null && located.has(id)) byPath.set(source.path, id);
  const matched = new Set<string>();
  const sourced = new Set(byPath.values());
  // The children of each page (key '' the top) as the batch's changes leave them, so that a page is moved only
  // when it is not where the repository wants it yet (the engine moves the same way: out, then in at `at`).
  const children = new Map<string, string[]>([['', tree.map((p) => p.id)]]);
  const parentOf = new Map<string, string>();
  walk(tree, (l) => {
    children.set(
      l.node.id,
      l.node.pages.map((p) => p.id),
    );
    parentOf.set(l.node.id, l.parent?.id ?? '');
  });
  const place = (id: string, into: string | null, at: number): boolean => {
    const from = parentOf.get(id);
    const to = into ?? '';
    if (from === to && children.get(to)![at] === id) return false;
    if (from !== undefined) children.get(from)!.splice(children.get(from)!.indexOf(id), 1);
    if (!children.has(to)) children.set(to, []);
    children.get(to)!.splice(at, 0, id);
    parentOf.set(id, to);
    return true;
  };
  let n = 0;
  const add = (pages: RepositoryPage[], into: string | null, existingInto: boolean) => {
    const taken = new Set<string>();
    const siblings = existingInto || into === null ? (into === null ? tree : (located.get(into)?.node.pages ?? [])) : [];
    pages.forEach((page, at) => {
      // A page of the space this entry is: its file's page, else (a group, an entry without a file) by title.
      let id = page.path ? byPath.get(local(page.path)) : undefined;
      if (id && (!located.has(id) || matched.has(id))) id = undefined;
      if (!id && !page.path)
        id = siblings.find((s) => !matched.has(s.id) && s.title === page.title && s.type === page.kind && !sourced.has(s.id))?.id;
      if (id) {
        matched.add(id);
        const source = current?.sources?.pages.get(id);
        const moved = place(id, into, at);
        const changed = page.markdown !== null && page.markdown !== (source?.markdown ?? null);
        if (moved || changed)
          changes.push({
            operation: 'update_page',
            page: id,
            ...(moved ? { into, at } : {}),
            ...(changed ? { document: { markdown: page.markdown! }, ...(page.path ? { path: page.path } : {}) } : {}),
          });
        add(page.pages, id, true);
        return;
      }
      const ref = `import-${++n}`;
      if (current) place(ref, into, at);
      let slug = slugOf(page, ref);
      for (let i = 2; taken.has(slug) || siblings.some((s) => s.slug === slug); i++) slug = `${slugOf(page, ref)}-${i}`;
      taken.add(slug);
      changes.push({
        operation: 'insert_page',
        ...(page.kind === 'group' ? { type: 'group' as const } : {}),
        ref,
        ...(into ? { into } : {}),
        ...(current ? { at } : {}),
        title: page.title || 'Untitled',
        slug,
        ...(page.path ? { path: page.path } : {}),
        document: page.markdown === null ? {} : { markdown: page.markdown },
      });
      add(page.pages, ref, false);
    });
  };
  add(repo.pages, null, true);
  // What the repository no longer has: the topmost pages not matched, where the moves left them (their
  // sub-pages go with them, once the matched ones among them have moved out).
  walk(tree, (l) => {
    const parent = parentOf.get(l.node.id)!;
    if (!matched.has(l.node.id) && (parent === '' || matched.has(parent))) changes.push({ operation: 'delete_page', page: l.node.id });
  });
  return { changes, pages: n + matched.size, notes };
}

/** A page's slug from its file, as GitBook's URLs are: the file's name, a folder's README its folder's name. */
function slugOf(page: RepositoryPage, fallback: string): string {
  if (!page.path) return slugify(page.title, fallback);
  const base = posix.basename(page.path, '.md');
  const name = /^readme$/i.test(base) ? posix.basename(posix.dirname(page.path)) : base;
  return slugify(name && name !== '.' ? name : page.title, fallback);
}
