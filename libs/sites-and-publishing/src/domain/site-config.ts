import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { InvalidInputError, type Language } from '@app/shared-kernel';
import { SITE_CONFIG_DEFINITIONS } from './site-config-schema.generated';
import { checkPath, SITE_LIMITS, type SiteSpaceNode, type Structure, type TopItem } from './site';

/**
 * A whole site from one repository (#49 §5): the official GitSyncSiteConfig, the `gitbook-docs.yaml` (or
 * `docs.yaml`) at the root of the site's project directory. It names the site's sections, section groups and
 * spaces, each space's content directory and language. Read here, checked against the official schema and the
 * rules its description states (a violation names the node), and turned into the site's structure.
 */

/** The file names a site's configuration is read from, in this order (the official name first). */
export const SITE_CONFIG_FILES = ['gitbook-docs.yaml', 'docs.yaml'] as const;
const SITE_CONFIG_MAX = 256 * 1024;
/** The most spaces one file may name (a level holds at most SITE_LIMITS.siteSpacesPerLevel too). */
export const SITE_CONFIG_SPACES_MAX = SITE_LIMITS.siteSpacesPerLevel;

export interface ConfigSpace {
  key: string;
  title: string;
  path: string;
  default: boolean;
  condition?: string;
  /** The space's content directory relative to the repository's top ('' for the top), null: not from this repository. */
  directory: string | null;
  language?: Language;
}

export interface ConfigSection {
  kind: 'section';
  key: string;
  title: string;
  path: string;
  default: boolean;
  description?: string;
  icon?: string;
  condition?: string;
  spaces: ConfigSpace[];
}

export interface ConfigGroup {
  kind: 'group';
  key: string;
  title: string;
  icon?: string;
  children: ConfigItem[];
}

/** An external link (official GitSyncSiteStructureExternalLink): a leaf at the top or in a group. */
export interface ConfigLink {
  kind: 'external-link';
  key: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  condition?: string;
}

export type ConfigItem = ConfigSection | ConfigGroup | ConfigLink;

export interface SiteConfig {
  title: string;
  /** The spaces of a site without sections. */
  spaces: ConfigSpace[];
  /** The sections, section groups and external links of a site with sections. */
  items: ConfigItem[];
  /** What was read but is not kept (drafts, external links, localized titles …), one line each. */
  notes: string[];
}

let compiled: { config: ValidateFunction; kinds: Record<string, ValidateFunction> } | null = null;

/** The official schema's validators, compiled on first use (a site import is rare: no memory for them at start). */
function validators(): { config: ValidateFunction; kinds: Record<string, ValidateFunction> } {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('icon', true);
  ajv.addSchema({ $id: 'quire:site-config', definitions: SITE_CONFIG_DEFINITIONS });
  const of = (name: string) => ajv.compile({ $ref: `quire:site-config#/definitions/${name}` });
  compiled = {
    config: of('GitSyncSiteConfig'),
    kinds: {
      section: of('GitSyncSiteStructureSection'),
      'section-group': of('GitSyncSiteStructureSectionGroup'),
      space: of('GitSyncSiteStructureSpace'),
      'external-link': of('GitSyncSiteStructureExternalLink'),
    },
  };
  return compiled;
}

type RawNode = Record<string, unknown> & { type: string; key: string; title: string };

/**
 * The site's configuration from the file's text. `file`: its path in the repository (named in messages);
 * `projectDirectory`: the site's folder, which `content.directory` is resolved from (a leading slash: from the
 * repository's top). Throws an InvalidInputError naming the node at fault.
 */
export function readSiteConfig(text: string, file: string, projectDirectory: string): SiteConfig {
  if (Buffer.byteLength(text, 'utf8') > SITE_CONFIG_MAX) throw new InvalidInputError(`${file}: larger than ${SITE_CONFIG_MAX / 1024} kB`);
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (e) {
    throw new InvalidInputError(`${file} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  // PostgreSQL's text and jsonb hold no NUL: a key or title with one could never be kept.
  if (JSON.stringify(value ?? null).includes('\\u0000')) throw new InvalidInputError(`${file} holds a NUL character`);
  const { config: validate } = validators();
  if (!validate(value)) {
    const e = validate.errors?.[0];
    const structure = (value as { site?: { structure?: unknown } } | null)?.site?.structure;
    const inNode = Array.isArray(structure) ? structure.map((n, i) => nodeError(n, `/site/structure/${i}`)).find(Boolean) : undefined;
    throw new InvalidInputError(
      `${file}${inNode ?? `${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`} (the official GitSyncSiteConfig)`,
    );
  }
  const site = (value as { site: { title: string; structure: RawNode[] } }).site;
  const notes: string[] = [];
  const keys = new Set<string>();
  const named = (n: RawNode) => `${n.type} "${n.key}"`;
  const fail = (n: RawNode, why: string): never => {
    throw new InvalidInputError(`${file}: ${named(n)} ${why}`);
  };
  const seen = (n: RawNode) => {
    if (keys.has(n.key)) fail(n, 'reuses a key: every key is unique across the file');
    keys.add(n.key);
    for (const field of ['localizedTitle', 'localizedDescription'])
      if (n[field] !== undefined) notes.push(`${named(n)}: ${field} is not kept (Quire shows the title as written)`);
  };
  const live = (n: RawNode) => {
    if (n.draft !== true) return true;
    notes.push(`${named(n)} is a draft: left out of the site`);
    return false;
  };
  const languages = new Map<string, string | undefined>();
  const space = (n: RawNode): ConfigSpace => {
    seen(n);
    const content = n.content as { directory: string | null; language?: string };
    const directory =
      content.directory === null
        ? null
        : resolveDirectory(content.directory, projectDirectory, () =>
            fail(n, 'has a directory out of the repository ("..", ".git" or a backslash in it)'),
          );
    if (directory !== null) {
      if (languages.has(directory) && languages.get(directory) !== content.language)
        fail(n, `reads "${directory || '.'}" in another language than a space before it: one directory gives one language`);
      languages.set(directory, content.language);
    }
    if (n.hidden === true) notes.push(`${named(n)} is hidden: Quire lists every site space of a section (it is shown)`);
    return {
      key: n.key,
      title: n.title,
      path: checkedPath(n, file),
      default: n.default === true,
      ...(typeof n.condition === 'string' && n.condition ? { condition: n.condition } : {}),
      directory,
      ...(content.language ? { language: content.language as Language } : {}),
    };
  };
  const oneDefault = (parent: string, nodes: { default: boolean; key: string }[]) => {
    const defaults = nodes.filter((n) => n.default).length;
    if (nodes.length && defaults !== 1)
      throw new InvalidInputError(
        `${file}: ${parent} marks ${defaults} of its ${nodes.length} spaces or sections "default: true"; exactly one must be`,
      );
  };
  const section = (n: RawNode): ConfigSection => {
    seen(n);
    const children = ((n.children as RawNode[] | undefined) ?? []).filter(live).map(space);
    if (!children.length) fail(n, 'holds no space');
    oneDefault(named(n), children);
    return {
      kind: 'section',
      key: n.key,
      title: n.title,
      path: checkedPath(n, file),
      default: n.default === true,
      ...(typeof n.description === 'string' && n.description ? { description: n.description } : {}),
      ...(typeof n.icon === 'string' && n.icon ? { icon: n.icon } : {}),
      ...(typeof n.condition === 'string' && n.condition ? { condition: n.condition } : {}),
      spaces: children,
    };
  };
  const link = (n: RawNode): ConfigLink => {
    seen(n);
    if (typeof n.title !== 'string' || n.title.length < 2 || n.title.length > 128) fail(n, 'needs a title of 2 to 128 characters');
    if (typeof n.url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(n.url) || n.url.length > 2048 || !URL.canParse(n.url))
      fail(n, 'needs an absolute http or https url');
    return {
      kind: 'external-link',
      key: n.key,
      title: n.title,
      url: n.url as string,
      ...(typeof n.description === 'string' && n.description ? { description: n.description.slice(0, 256) } : {}),
      ...(typeof n.icon === 'string' && n.icon ? { icon: n.icon } : {}),
      ...(typeof n.condition === 'string' && n.condition ? { condition: n.condition } : {}),
    };
  };
  const group = (n: RawNode, depth: number): ConfigGroup => {
    seen(n);
    if (depth > 1) fail(n, 'nests section groups deeper than one level');
    const children: ConfigItem[] = [];
    for (const c of ((n.children as RawNode[] | undefined) ?? []).filter(live)) {
      if (c.type === 'section') children.push(section(c));
      else if (c.type === 'section-group') children.push(group(c, depth + 1));
      else children.push(link(c));
    }
    return { kind: 'group', key: n.key, title: n.title, ...(typeof n.icon === 'string' && n.icon ? { icon: n.icon } : {}), children };
  };

  const top = site.structure.filter(live);
  const hasSections = top.some((n) => n.type !== 'space');
  const spaces: ConfigSpace[] = [];
  const items: ConfigItem[] = [];
  for (const n of top) {
    if (n.type === 'space') {
      if (hasSections) fail(n, 'is at the top level of a site with sections: once a section exists, every space belongs inside one');
      spaces.push(space(n));
    } else if (n.type === 'section') items.push(section(n));
    else if (n.type === 'section-group') items.push(group(n, 0));
    else items.push(link(n));
  }
  const sections = flatSections(items);
  const links = (list: ConfigItem[]): number =>
    list.reduce((n, i) => n + (i.kind === 'external-link' ? 1 : i.kind === 'group' ? links(i.children) : 0), 0);
  if (links(items) > SITE_LIMITS.externalLinks)
    throw new InvalidInputError(`${file}: more than ${SITE_LIMITS.externalLinks} external links`);
  if (hasSections && !sections.length) throw new InvalidInputError(`${file}: a site with external links or section groups needs a section`);
  if (!hasSections && !spaces.length) throw new InvalidInputError(`${file}: the site has no space`);
  oneDefault('the site', hasSections ? sections : spaces);
  uniquePaths(file, 'the site', hasSections ? sections : spaces);
  for (const s of sections) uniquePaths(file, `section "${s.key}"`, s.spaces);
  if (sections.length > SITE_LIMITS.sections) throw new InvalidInputError(`${file}: more than ${SITE_LIMITS.sections} sections`);
  const groups = (items: ConfigItem[]): number => items.reduce((n, i) => (i.kind === 'group' ? n + 1 + groups(i.children) : n), 0);
  if (groups(items) > SITE_LIMITS.groups) throw new InvalidInputError(`${file}: more than ${SITE_LIMITS.groups} section groups`);
  const all = [...spaces, ...sections.flatMap((s) => s.spaces)];
  if (all.length > SITE_CONFIG_SPACES_MAX)
    throw new InvalidInputError(
      `${file}: more than ${SITE_CONFIG_SPACES_MAX} spaces (each is a space of the organization, imported from its folder)`,
    );
  return { title: site.title, spaces, items, notes };
}

/**
 * What is wrong with a node of the structure, checked against its own kind's schema (the structure's `oneOf`
 * would answer with every kind's complaint), its children first; null when it is right.
 */
function nodeError(node: unknown, at: string): string | null {
  const n = node as { type?: unknown; children?: unknown } | null;
  const { kinds } = validators();
  const check = n && typeof n === 'object' && typeof n.type === 'string' && Object.hasOwn(kinds, n.type) ? kinds[n.type] : null;
  if (!check) return `${at}/type must be one of ${Object.keys(kinds).join(', ')}`;
  if (Array.isArray(n!.children))
    for (const [i, child] of n!.children.entries()) {
      const inChild = nodeError(child, `${at}/children/${i}`);
      if (inChild) return inChild;
    }
  if (check(node)) return null;
  const e = check.errors?.[0];
  return `${at}${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`;
}

/** `./guides` under `docs` is `docs/guides`; `/guides` is `guides`; `..` is refused. */
function resolveDirectory(directory: string, projectDirectory: string, refuse: () => never): string {
  const segments = directory.split(/[\\/]/);
  if (segments.includes('..') || segments.includes('.git') || directory.includes('\\')) refuse();
  const joined = directory.startsWith('/') ? directory : posix.join(projectDirectory || '.', directory);
  const normal = posix.normalize(joined).replace(/^\/+|\/+$/g, '');
  return normal === '.' ? '' : normal;
}

function checkedPath(n: RawNode, file: string): string {
  try {
    return checkPath(String(n.path));
  } catch (e) {
    throw new InvalidInputError(`${file}: ${n.type} "${n.key}": ${(e as Error).message}`);
  }
}

function uniquePaths(file: string, where: string, nodes: { path: string; key: string }[]): void {
  const paths = new Map<string, string>();
  for (const n of nodes) {
    const other = paths.get(n.path);
    if (other !== undefined) throw new InvalidInputError(`${file}: "${other}" and "${n.key}" of ${where} have the same path "${n.path}"`);
    paths.set(n.path, n.key);
  }
}

export function flatSections(items: ConfigItem[]): ConfigSection[] {
  return items.flatMap((i) => (i.kind === 'section' ? [i] : i.kind === 'group' ? flatSections(i.children) : []));
}

/** Every space of the configuration, in the file's order. */
export function configSpaces(config: SiteConfig): ConfigSpace[] {
  return [...config.spaces, ...flatSections(config.items).flatMap((s) => s.spaces)];
}

/**
 * The site's structure the configuration describes. The ids of sections, groups and site spaces come from
 * `idOf` (the ones its keys had on the last import, or new ones); each space node's space from `spaceOf`.
 */
export function structureFromConfig(config: SiteConfig, idOf: (key: string) => string, spaceOf: (key: string) => string): Structure {
  const siteSpace = (s: ConfigSpace): SiteSpaceNode => ({
    id: idOf(s.key),
    spaceId: spaceOf(s.key),
    path: s.path,
    default: s.default,
    ...(s.condition ? { condition: s.condition } : {}),
  });
  const item = (i: ConfigItem): TopItem =>
    i.kind === 'external-link'
      ? {
          kind: 'external-link',
          id: idOf(i.key),
          title: i.title,
          url: i.url,
          ...(i.description ? { description: i.description } : {}),
          ...(i.icon ? { icon: i.icon } : {}),
          ...(i.condition ? { condition: i.condition } : {}),
        }
      : i.kind === 'section'
        ? {
            kind: 'section',
            id: idOf(i.key),
            title: i.title,
            path: i.path,
            ...(i.description ? { description: i.description } : {}),
            ...(i.icon ? { icon: i.icon } : {}),
            ...(i.condition ? { condition: i.condition } : {}),
            default: i.default,
            siteSpaces: i.spaces.map(siteSpace),
          }
        : { kind: 'group', id: idOf(i.key), title: i.title, ...(i.icon ? { icon: i.icon } : {}), children: i.children.map(item) };
  return { siteSpaces: config.spaces.map(siteSpace), items: config.items.map(item) };
}

/** A space of the site as the file names it: its title and language, and its folder in the repository (null: none). */
export interface WrittenSpace {
  title: string;
  language?: string;
  directory: string | null;
}

type Raw = Record<string, unknown>;

/**
 * The site's configuration file written back from its structure (the export): the file as it was read
 * (`original`, parsed; null when there is none) with each node the structure still has updated (title, path,
 * default, condition, icon, description; a space's directory and language), the nodes it no longer has gone,
 * new ones added with keys made from their titles, and what the structure cannot hold kept where it was (drafts,
 * external links, localized titles, any field Quire does not know). Answers the file's value and the key of
 * every node.
 */
export function writeSiteConfig(input: {
  original: unknown;
  title: string;
  structure: Structure;
  spaces: ReadonlyMap<string, WrittenSpace>;
  keyOf: (id: string) => string | undefined;
  projectDirectory: string;
}): { value: Raw; keys: Record<string, { id: string; spaceId?: string }> } {
  const original = (input.original && typeof input.original === 'object' ? input.original : {}) as Raw;
  const site = (original.site && typeof original.site === 'object' ? original.site : {}) as Raw;
  const rawByKey = new Map<string, Raw>();
  /** Nodes the structure cannot hold (drafts), by the key of the node they were in ('' at the top). */
  const kept = new Map<string, Raw[]>();
  const walk = (nodes: unknown, parent: string) => {
    if (!Array.isArray(nodes)) return;
    for (const n of nodes as Raw[]) {
      if (!n || typeof n !== 'object' || typeof n.key !== 'string') continue;
      rawByKey.set(n.key, n);
      if (n.draft === true) kept.set(parent, [...(kept.get(parent) ?? []), n]);
      walk(n.children, n.key);
    }
  };
  walk(site.structure, '');
  const keys: Record<string, { id: string; spaceId?: string }> = {};
  const used = new Set(rawByKey.keys());
  const keyFor = (id: string, type: string, title: string): string => {
    const known = input.keyOf(id);
    if (known !== undefined && !keys[known]) return known;
    const base = `${type}-${
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'untitled'
    }`;
    let key = base;
    for (let i = 2; used.has(key); i++) key = `${base}-${i}`;
    used.add(key);
    return key;
  };
  const set = (node: Raw, field: string, value: unknown) => {
    if (value === undefined || value === null || value === false || value === '') delete node[field];
    else node[field] = value;
  };
  const directoryOf = (directory: string): string => {
    const project = input.projectDirectory;
    if (directory === project) return '.';
    if (!project) return `./${directory}`;
    return directory.startsWith(`${project}/`) ? `./${directory.slice(project.length + 1)}` : `/${directory}`;
  };
  const space = (s: SiteSpaceNode): Raw => {
    const written = input.spaces.get(s.spaceId);
    const key = keyFor(s.id, 'space', written?.title ?? s.path);
    keys[key] = { id: s.id, spaceId: s.spaceId };
    const raw = rawByKey.get(key);
    const node: Raw = { ...(raw ?? {}), type: 'space', key, title: written?.title ?? s.path, path: s.path };
    set(node, 'default', s.default);
    set(node, 'condition', s.condition);
    const content = { ...((raw?.content as Raw | undefined) ?? {}) };
    content.directory =
      written?.directory !== null && written?.directory !== undefined ? directoryOf(written.directory) : (content.directory ?? null);
    set(content, 'language', written?.language ?? content.language);
    node.content = content;
    return node;
  };
  const extras = (parent: string) => kept.get(parent) ?? [];
  const item = (i: TopItem): Raw => {
    if (i.kind === 'external-link') {
      const key = keyFor(i.id, 'link', i.title);
      keys[key] = { id: i.id };
      const node: Raw = { ...(rawByKey.get(key) ?? {}), type: 'external-link', key, title: i.title, url: i.url };
      set(node, 'description', i.description);
      set(node, 'icon', i.icon);
      set(node, 'condition', i.condition);
      return node;
    }
    const key = keyFor(i.id, i.kind === 'section' ? 'section' : 'section-group', i.title);
    keys[key] = { id: i.id };
    const node: Raw = { ...(rawByKey.get(key) ?? {}), type: i.kind === 'section' ? 'section' : 'section-group', key, title: i.title };
    set(node, 'icon', i.icon);
    if (i.kind === 'section') {
      node.path = i.path;
      set(node, 'default', i.default);
      set(node, 'description', i.description);
      set(node, 'condition', i.condition);
      node.children = [...i.siteSpaces.map(space), ...extras(key)];
    } else node.children = [...i.children.map(item), ...extras(key)];
    return node;
  };
  const top = input.structure.items.length
    ? [...input.structure.items.map(item), ...extras('')]
    : [...input.structure.siteSpaces.map(space), ...extras('').filter((n) => n.type !== 'external-link')];
  return { value: { ...original, site: { ...site, title: input.title, structure: top } }, keys };
}
