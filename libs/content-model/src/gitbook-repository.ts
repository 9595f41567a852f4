import { posix } from 'node:path';
import { isTag, type ChildNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { Heading, ListItem, PhrasingContent } from 'mdast';
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
 * Files the summary names but the repository lacks are reported (`missing`), never fatal. No entry of a summary
 * refuses the repository: an entry that points at a heading of a page listed elsewhere (`page.md#heading`), that
 * lists a file a second time, or that is an external link becomes a link page (the official `link` page) to
 * that place; an entry without a link is a page without a file; a group heading's inline HTML
 * (`## Get started <a href="#start" id="start"></a>`) is left out of its title and its `id` is its slug. Each is
 * said in `notes`.
 */

/** The repository as the reader sees it: text of a file, or null when there is none. Paths are `/`-separated, relative. */
export interface RepositoryFiles {
  read(path: string): string | null;
  /** Every file path of the repository (for assets and for the tree without a summary). */
  paths(): readonly string[];
}

export interface RepositoryPage {
  kind: 'document' | 'group' | 'link';
  title: string;
  /** The page's markdown file, relative to the repository (null: an entry without a file, or a group). */
  path: string | null;
  /** The file's markdown as it is in the repository (null when there is no file). */
  markdown: string | null;
  pages: RepositoryPage[];
  /**
   * A link page's target as a link of the repository's top writes it: `/guide/setup.md#step-2` (a repository
   * path, URI-encoded, with its anchor) or an external URL.
   */
  link?: string;
  /** The slug the summary asks for (a group heading's `id`). */
  slug?: string;
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

/** The text of inline content; inline HTML is left out (`<a id="x"></a>` is an anchor, not a title). */
function text(nodes: readonly PhrasingContent[]): string {
  return nodes.map((n) => (n.type === 'html' ? '' : 'value' in n ? n.value : 'children' in n ? text(n.children) : '')).join('');
}

/** The first `id` an element of a heading's inline HTML carries (GitBook's `<a href="#x" id="x"></a>`). */
function htmlId(nodes: readonly PhrasingContent[]): string | undefined {
  const find = (children: ChildNode[]): string | undefined => {
    for (const c of children) {
      if (!isTag(c)) continue;
      if (c.attribs.id?.trim()) return c.attribs.id.trim();
      const inner = find(c.children);
      if (inner) return inner;
    }
    return undefined;
  };
  for (const n of nodes) {
    const id = n.type === 'html' ? find(parseDocument(n.value).children) : 'children' in n ? htmlId(n.children) : undefined;
    if (id) return id;
  }
  return undefined;
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
    pages = fromSummary(summary, posix.dirname(summaryPath) === '.' ? '' : posix.dirname(summaryPath), page, (n) =>
      notes.push(`${summaryPath}: ${n}`),
    );
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

/** The summary's lists and group headings as a page tree (see `readGitbookRepository` for what each entry becomes). */
function fromSummary(
  summary: string,
  dir: string,
  page: (title: string, path: string | null) => RepositoryPage,
  note: (what: string) => void,
): RepositoryPage[] {
  interface Entry {
    title: string;
    target: string;
    path: string | null;
    anchor: string;
    external: boolean;
    children: Entry[];
  }
  const entry = (item: ListItem): Entry => {
    const first = item.children.find((c) => c.type === 'paragraph');
    const link = first?.children.find((c) => c.type === 'link');
    const title = (link ? text(link.children) : first ? text(first.children) : '').replace(/\s+/g, ' ').trim();
    const target = link?.url.trim() ?? '';
    const hash = target.indexOf('#');
    const file = hash < 0 ? target : target.slice(0, hash);
    const external = /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
    const path = file && !external ? normal(posix.join(dir || '.', safeDecode(file))) : null;
    const children = item.children.flatMap((c) => (c.type === 'list' ? c.children.map(entry) : []));
    return { title, target, path, anchor: hash < 0 ? '' : target.slice(hash + 1), external, children };
  };
  const top: { heading: Heading | null; entries: Entry[] }[] = [{ heading: null, entries: [] }];
  for (const node of parseMarkdown(summary).children) {
    if (node.type === 'heading' && node.depth >= 2) top.push({ heading: node, entries: [] });
    else if (node.type === 'list') top[top.length - 1].entries.push(...node.children.map(entry));
  }
  // A file is the page of its first entry without an anchor (else of its first entry); any other entry naming it links there.
  const owner = new Map<string, Entry>();
  const visit = (entries: Entry[], f: (e: Entry) => void) => entries.forEach((e) => (f(e), visit(e.children, f)));
  for (const part of top) visit(part.entries, (e) => e.path && !e.anchor && !owner.has(e.path) && owner.set(e.path, e));
  for (const part of top) visit(part.entries, (e) => e.path && !owner.has(e.path) && owner.set(e.path, e));
  const linkPage = (e: Entry, link: string): RepositoryPage => ({
    kind: 'link',
    title: e.title || link,
    path: null,
    markdown: null,
    pages: [],
    link,
  });
  const items = (entries: Entry[]): RepositoryPage[] =>
    entries.flatMap((e) => {
      let p: RepositoryPage;
      if (e.external) {
        note(`"${e.title}" links to ${e.target}: a link page`);
        p = linkPage(e, e.target);
      } else if (e.path !== null && owner.get(e.path) !== e) {
        note(
          e.anchor
            ? `"${e.title}" points at a heading of ${e.path}: a link page to it`
            : `"${e.title}" lists ${e.path} a second time: a link page to its first entry`,
        );
        p = linkPage(e, `/${encodeURI(e.path)}${e.anchor ? `#${e.anchor}` : ''}`);
      } else {
        if (e.path === null)
          note(
            e.target
              ? `"${e.title}" links to ${e.target}, outside the repository: a page without a file`
              : `"${e.title}" has no link: a page without a file`,
          );
        p = page(e.title, e.path);
        p.pages = items(e.children);
        return [p];
      }
      // A link page holds no pages: the entries under it follow it.
      if (e.children.length) note(`the entries under "${e.title}" follow it (a link page holds no pages)`);
      return [p, ...items(e.children)];
    });
  const out: RepositoryPage[] = items(top[0].entries);
  for (const { heading, entries } of top.slice(1)) {
    const group: RepositoryPage = {
      kind: 'group',
      title: text(heading!.children).replace(/\s+/g, ' ').trim(),
      path: null,
      markdown: null,
      pages: items(entries),
    };
    const id = htmlId(heading!.children);
    if (id) group.slug = id;
    if (heading!.children.some((c) => c.type === 'html'))
      note(`the HTML in the heading "${group.title}" is left out of its title${id ? `; its id "${id}" is its slug` : ''}`);
    out.push(group);
  }
  return out;
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
  // A link page's target as the summary writes it (see RepositoryPage.link), to tell whether it changed.
  const pathById = new Map([...byPath].map(([path, id]) => [id, path]));
  const linkOf = (target: PageNode['target']): string | undefined => {
    if (target?.kind === 'url') return target.url;
    if (target?.kind !== 'page') return undefined;
    const path = pathById.get(target.page);
    return path === undefined ? undefined : `/${encodeURI(repositoryPathOf(repo, path))}${target.anchor ? `#${target.anchor}` : ''}`;
  };
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
        const relinked = page.link !== undefined && page.link !== linkOf(located.get(id)!.node.target);
        if (moved || changed || relinked)
          changes.push({
            operation: 'update_page',
            page: id,
            ...(moved ? { into, at } : {}),
            ...(changed ? { document: { markdown: page.markdown! }, ...(page.path ? { path: page.path } : {}) } : {}),
            ...(relinked ? { link: page.link } : {}),
          });
        add(page.pages, id, true);
        return;
      }
      const ref = `import-${++n}`;
      if (current) place(ref, into, at);
      let slug = slugOf(page, ref, repo.root);
      for (let i = 2; taken.has(slug) || siblings.some((s) => s.slug === slug); i++) slug = `${slugOf(page, ref, repo.root)}-${i}`;
      taken.add(slug);
      changes.push({
        operation: 'insert_page',
        ...(page.kind !== 'document' ? { type: page.kind } : {}),
        ...(page.link !== undefined ? { link: page.link } : {}),
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

/**
 * A page's slug from its file, as GitBook's URLs are: the file's name, a folder's README its folder's name; the
 * README of the content's root folder (`root`: the project's folder, or the `.gitbook.yaml` root in it) its title.
 */
function slugOf(page: RepositoryPage, fallback: string, root: string): string {
  if (page.slug) return slugify(page.slug, fallback);
  if (!page.path) return slugify(page.title, fallback);
  const base = posix.basename(page.path, '.md');
  const folder = posix.dirname(page.path);
  const name = /^readme$/i.test(base) ? (folder === (root || '.') ? '' : posix.basename(folder)) : base;
  return slugify(name && name !== '.' ? name : page.title, fallback);
}
