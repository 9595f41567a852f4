import { InvalidInputError } from '@app/shared-kernel';

/** A page in a revision's tree. Bodies are referenced by the hash of their document (content-addressed). */
export interface PageNode {
  id: string;
  /** `link`: the official link page, an entry of the table of contents that goes to `target` (a page's heading, a URL). */
  type: 'document' | 'group' | 'link';
  /** A link page's target: a page (with its anchor) or a URL. */
  target?: { kind: 'page'; page: string; anchor?: string } | { kind: 'url'; url: string };
  title: string;
  slug: string;
  emoji?: string;
  /** The official page `icon`: an icon's name (GitBook's front matter `icon: rocket`). */
  icon?: string;
  description?: string;
  hidden?: boolean;
  /** Adaptive content: the expression on the visitor's claims that shows the page (official `condition`). */
  condition?: string;
  /** The page's variables (the official page `variables`: name → value), from a repository's front matter `vars:`. */
  variables?: Record<string, string>;
  /** The official page `layout` (what the published page shows), from a repository's front matter `layout:`. */
  layout?: PageLayout;
  /** The official page `cover` image, from a repository's front matter `cover:` and `coverY:`. */
  cover?: PageCover;
  /** Hash of the page's document in the documents store; null for an empty page. */
  document: string | null;
  createdAt?: string;
  updatedAt?: string;
  pages: PageNode[];
}

export type PageTree = PageNode[];

/** The official page layout (spec: `width`, `coverSize` strings; the rest booleans: shown or not). */
export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
}

/** The parts of a page a layout shows or hides (GitBook's front matter `layout: {title: {visible: true}}`). */
export const LAYOUT_PARTS = ['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const;

/** The official page cover: an image (a file of the space or a URL) and its vertical position. */
export interface PageCover {
  ref: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos?: number;
}

/**
 * A reusable content of a space (the official RevisionReusableContent): a document that pages include with a
 * `reusable-content` block, kept in the revision beside the page tree (a Git repository's `.gitbook/includes/`).
 */
export interface ReusableContent {
  id: string;
  title: string;
  /** Hash of its document in the documents store; null when empty. */
  document: string | null;
  /** Its file in the repository it was imported from (the official `git.path`). */
  path?: string;
}

export const SLUG_MAX = 100;

/** A page's slug from its title: lowercase letters and digits (any script) joined by hyphens. */
export function slugify(title: string, fallback: string): string {
  const s = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return s || fallback.toLowerCase();
}

export interface Located {
  node: PageNode;
  parent: PageNode | null;
  siblings: PageNode[];
  index: number;
  path: string;
}

export function walk(tree: PageTree, fn: (l: Located) => void, parent: PageNode | null = null, prefix = ''): void {
  tree.forEach((node, index) => {
    const path = prefix ? `${prefix}/${node.slug}` : node.slug;
    fn({ node, parent, siblings: tree, index, path });
    walk(node.pages, fn, node, path);
  });
}

export function locate(tree: PageTree, id: string): Located | null {
  let found: Located | null = null;
  walk(tree, (l) => {
    if (!found && l.node.id === id) found = l;
  });
  return found;
}

/** The page at `path` (its slugs joined by `/`, as `Located.path`), if any. */
export function locateByPath(tree: PageTree, path: string): Located | null {
  const slugs = path.split('/');
  let level = tree;
  let parent: PageNode | null = null;
  let found: Located | null = null;
  let prefix = '';
  for (const slug of slugs) {
    const index = level.findIndex((n) => n.slug === slug);
    if (index < 0) return null;
    const node: PageNode = level[index];
    prefix = prefix ? `${prefix}/${slug}` : slug;
    found = { node, parent, siblings: level, index, path: prefix };
    parent = node;
    level = node.pages;
  }
  return found;
}

export function countPages(tree: PageTree): number {
  let n = 0;
  walk(tree, () => (n += 1));
  return n;
}

/** A deep copy (page nodes are small; bodies are not copied, only their hashes). */
export function cloneTree(tree: PageTree): PageTree {
  return tree.map((n) => ({ ...n, pages: cloneTree(n.pages) }));
}

export function isInside(tree: PageTree, id: string, ancestorId: string): boolean {
  const anc = locate(tree, ancestorId);
  if (!anc) return false;
  let inside = false;
  walk(anc.node.pages, (l) => {
    if (l.node.id === id) inside = true;
  });
  return inside || id === ancestorId;
}

/** Children of `parentId` (roots when null); throws when the parent does not exist. */
export function childrenOf(tree: PageTree, parentId: string | null, what = 'into'): PageNode[] {
  if (parentId === null) return tree;
  const parent = locate(tree, parentId);
  if (!parent) throw new InvalidInputError(`${what}: page "${parentId}" does not exist`);
  if (parent.node.type === 'link') throw new InvalidInputError(`${what}: page "${parentId}" is a link page, which holds no pages`);
  return parent.node.pages;
}

export function checkSlugFree(siblings: PageNode[], slug: string, exceptId?: string): void {
  if (siblings.some((s) => s.slug === slug && s.id !== exceptId))
    throw new InvalidInputError(`slug "${slug}" is already used by a sibling page`);
}

/** A slug derived from a title, made unique among siblings with -2, -3, … */
export function uniqueSlug(siblings: PageNode[], base: string, exceptId?: string): string {
  let slug = base;
  for (let i = 2; siblings.some((s) => s.slug === slug && s.id !== exceptId); i++) slug = `${base.slice(0, SLUG_MAX - 4)}-${i}`;
  return slug;
}

export function insertAt<T>(list: T[], item: T, at: number | undefined): void {
  if (at === undefined || at >= list.length) list.push(item);
  else list.splice(Math.max(0, at), 0, item);
}

/** Maps every page path (slug path) to its id. */
export function pathIndex(tree: PageTree): Map<string, string> {
  const m = new Map<string, string>();
  walk(tree, (l) => m.set(l.path, l.node.id));
  return m;
}

export function pathOf(tree: PageTree, id: string): string | null {
  return locate(tree, id)?.path ?? null;
}
