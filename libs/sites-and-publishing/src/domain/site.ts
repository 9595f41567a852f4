import { ConflictError, InvalidInputError, NotFoundError } from '@app/shared-kernel';

/** Official `SiteType` values; a new site is `basic` unless told otherwise. */
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];

export const SITE_TITLE = { min: 2, max: 128 };
export const SECTION_TITLE = { min: 2, max: 128 };
export const GROUP_TITLE = { min: 1, max: 100 };
export const PATH_MAX = 100;
export const CONDITION_MAX = 1024;
export const ICON_MAX = 50;
export const DESCRIPTION_MAX = 256;
export const BASENAME_MAX = 100;
/** Spec part 2 §2.1. */
export const HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
/** Official `SiteProxyOrigin`: a host followed by one or more path segments (company.com/docs). */
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** What one site may hold: the structure is one aggregate, loaded and written whole. */
export const SITE_LIMITS = { sections: 200, siteSpacesPerLevel: 200, groups: 100, groupDepth: 3, externalLinks: 100 };

export interface SiteSpaceNode {
  id: string;
  spaceId: string;
  path: string;
  condition?: string;
  default: boolean;
}

export interface SectionNode {
  kind: 'section';
  id: string;
  title: string;
  path: string;
  description?: string;
  icon?: string;
  condition?: string;
  default: boolean;
  siteSpaces: SiteSpaceNode[];
}

export interface GroupNode {
  kind: 'group';
  id: string;
  title: string;
  icon?: string;
  children: TopItem[];
}

/**
 * An external link (official SiteExternalLink): a leaf of a section-based structure, at the root or in a group
 * (never in a section), that leads away from the site to an absolute http(s) URL. Shown among the section tabs.
 */
export interface ExternalLinkNode {
  kind: 'external-link';
  id: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  condition?: string;
}

export type TopItem = SectionNode | GroupNode | ExternalLinkNode;

/**
 * The site's structure. A site without sections holds its site spaces at the root; once it has a
 * section, every site space lives in a section (the first section adopts the root site spaces).
 */
export interface Structure {
  siteSpaces: SiteSpaceNode[];
  items: TopItem[];
}

export interface Site {
  id: string;
  organizationId: string;
  type: SiteType;
  title: string;
  hostname: string | null;
  basename: string | null;
  proxy: string | null;
  visibility: SiteVisibility;
  published: boolean;
  adaptiveContent: boolean;
  agentsContext: AgentsContext;
  createdAt: Date;
  /** Moves on every change of the site, its structure, its share links, or a space it shows. */
  version: number;
  structure: Structure;
}

export const emptyStructure = (): Structure => ({ siteSpaces: [], items: [] });

// ---------------------------------------------------------------------------------------------
// Reading the structure

export function sections(structure: Structure): SectionNode[] {
  const out: SectionNode[] = [];
  const walk = (items: TopItem[]) => {
    for (const item of items) {
      if (item.kind === 'section') out.push(item);
      else if (item.kind === 'group') walk(item.children);
    }
  };
  walk(structure.items);
  return out;
}

export function externalLinks(structure: Structure): ExternalLinkNode[] {
  const out: ExternalLinkNode[] = [];
  const walk = (items: TopItem[]) => {
    for (const item of items) {
      if (item.kind === 'external-link') out.push(item);
      else if (item.kind === 'group') walk(item.children);
    }
  };
  walk(structure.items);
  return out;
}

export function findExternalLink(structure: Structure, id: string): ExternalLinkNode {
  const found = externalLinks(structure).find((l) => l.id === id);
  if (!found) throw new NotFoundError('Site external link', id);
  return found;
}

export function groups(structure: Structure): GroupNode[] {
  const out: GroupNode[] = [];
  const walk = (items: TopItem[]) => {
    for (const item of items)
      if (item.kind === 'group') {
        out.push(item);
        walk(item.children);
      }
  };
  walk(structure.items);
  return out;
}

/** Every site space with the section holding it (undefined at the root), in structure order. */
export function siteSpaces(structure: Structure): { node: SiteSpaceNode; section?: SectionNode }[] {
  return [
    ...structure.siteSpaces.map((node) => ({ node })),
    ...sections(structure).flatMap((section) => section.siteSpaces.map((node) => ({ node, section }))),
  ];
}

export function spaceIdsOf(structure: Structure): string[] {
  return [...new Set(siteSpaces(structure).map((s) => s.node.spaceId))];
}

export function findSection(structure: Structure, id: string): SectionNode {
  const found = sections(structure).find((s) => s.id === id);
  if (!found) throw new NotFoundError('Site section', id);
  return found;
}

export function findGroup(structure: Structure, id: string): GroupNode {
  const found = groups(structure).find((g) => g.id === id);
  if (!found) throw new NotFoundError('Site section group', id);
  return found;
}

export function findSiteSpace(structure: Structure, id: string): { node: SiteSpaceNode; section?: SectionNode } {
  const found = siteSpaces(structure).find((s) => s.node.id === id);
  if (!found) throw new NotFoundError('Site space', id);
  return found;
}

/** The group directly holding an item (undefined: the root). */
export function parentGroupOf(structure: Structure, id: string): GroupNode | undefined {
  return groups(structure).find((g) => g.children.some((c) => c.id === id));
}

function levelOf(structure: Structure, id: string): TopItem[] {
  return parentGroupOf(structure, id)?.children ?? structure.items;
}

function depthOf(structure: Structure, group: GroupNode | undefined): number {
  let depth = 0;
  for (let g = group; g; g = parentGroupOf(structure, g.id)) depth++;
  return depth;
}

// ---------------------------------------------------------------------------------------------
// Paths and defaults

/** A URL path segment from a title: lowercase ASCII letters, digits and dashes. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fallback;
}

function uniquePath(base: string, taken: string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, PATH_MAX - String(n).length - 1)}-${n}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/** Site paths: 1..100 characters, no slash, no surrounding blanks, no control characters. */
export function checkPath(path: string): string {
  if (path.length < 1 || path.length > PATH_MAX) throw new InvalidInputError(`path must be 1 to ${PATH_MAX} characters`);
  if (/[/\\?#\s\p{Cc}]/u.test(path)) throw new InvalidInputError('path must be one URL segment (no slash, "?", "#" or blanks)');
  return path;
}

function sectionPaths(structure: Structure, except?: string): string[] {
  return sections(structure)
    .filter((s) => s.id !== except)
    .map((s) => s.path);
}

function levelPaths(level: SiteSpaceNode[], except?: string): string[] {
  return level.filter((s) => s.id !== except).map((s) => s.path);
}

/** Exactly one default among the site spaces of one level when there are any. */
function keepOneDefault<T extends { default: boolean }>(level: T[]): void {
  if (level.length === 0) return;
  const first = level.findIndex((s) => s.default);
  level.forEach((s, i) => (s.default = i === (first === -1 ? 0 : first)));
}

function normalize(structure: Structure): void {
  keepOneDefault(structure.siteSpaces);
  const all = sections(structure);
  keepOneDefault(all);
  for (const section of all) keepOneDefault(section.siteSpaces);
}

function makeDefault<T extends { id: string; default: boolean }>(level: T[], id: string): void {
  for (const s of level) s.default = s.id === id;
}

// ---------------------------------------------------------------------------------------------
// Site spaces

/** The level a new site space goes to: the given section, else the default section, else the root. */
function targetLevel(structure: Structure, sectionId?: string): SiteSpaceNode[] {
  if (sectionId !== undefined) return findSection(structure, sectionId).siteSpaces;
  const all = sections(structure);
  return all.length > 0 ? (all.find((s) => s.default) ?? all[0]).siteSpaces : structure.siteSpaces;
}

export function addSiteSpace(
  structure: Structure,
  input: { id: string; spaceId: string; spaceTitle: string; sectionId?: string },
): SiteSpaceNode {
  const level = targetLevel(structure, input.sectionId);
  if (level.length >= SITE_LIMITS.siteSpacesPerLevel)
    throw new ConflictError(`A section holds at most ${SITE_LIMITS.siteSpacesPerLevel} site spaces`);
  const node: SiteSpaceNode = {
    id: input.id,
    spaceId: input.spaceId,
    path: uniquePath(slugify(input.spaceTitle, 'space'), levelPaths(level)),
    default: level.length === 0,
  };
  level.push(node);
  return node;
}

export interface SiteSpacePatch {
  path?: string;
  /** null removes the condition. */
  condition?: string | null;
  spaceId?: string;
}

export function updateSiteSpace(structure: Structure, id: string, patch: SiteSpacePatch): SiteSpaceNode {
  const { node, section } = findSiteSpace(structure, id);
  if (patch.path !== undefined) {
    const level = section?.siteSpaces ?? structure.siteSpaces;
    if (levelPaths(level, id).includes(checkPath(patch.path)))
      throw new ConflictError(`Another site space of this ${section ? 'section' : 'site'} has the path "${patch.path}"`);
    node.path = patch.path;
  }
  if (patch.condition !== undefined) setCondition(node, patch.condition);
  if (patch.spaceId !== undefined) node.spaceId = patch.spaceId;
  return node;
}

export function deleteSiteSpace(structure: Structure, id: string): boolean {
  const found = siteSpaces(structure).find((s) => s.node.id === id);
  if (!found) return false;
  const level = found.section?.siteSpaces ?? structure.siteSpaces;
  level.splice(level.indexOf(found.node), 1);
  normalize(structure);
  return true;
}

/** Takes every site space of these spaces off the site (the spaces were deleted or left the organization). */
export function removeSpaces(structure: Structure, spaceIds: Set<string>): number {
  let removed = 0;
  const prune = (level: SiteSpaceNode[]) => {
    for (let i = level.length - 1; i >= 0; i--)
      if (spaceIds.has(level[i].spaceId)) {
        level.splice(i, 1);
        removed++;
      }
  };
  prune(structure.siteSpaces);
  for (const section of sections(structure)) prune(section.siteSpaces);
  normalize(structure);
  return removed;
}

/** PATCH site `defaultSiteSpace`: the default at the root, or in the default section when there are sections. */
export function setDefaultSiteSpace(structure: Structure, siteSpaceId: string, sectionId?: string): void {
  const { section } = findSiteSpace(structure, siteSpaceId);
  const all = sections(structure);
  const expected = sectionId !== undefined ? findSection(structure, sectionId) : all.find((s) => s.default);
  if ((expected?.id ?? null) !== (section?.id ?? null))
    throw new InvalidInputError(
      sectionId !== undefined
        ? `Site space "${siteSpaceId}" is not in section "${sectionId}"`
        : `Site space "${siteSpaceId}" is not in the site's default ${expected ? 'section' : 'level'}`,
    );
  makeDefault(section?.siteSpaces ?? structure.siteSpaces, siteSpaceId);
}

export function setDefaultSection(structure: Structure, sectionId: string): void {
  findSection(structure, sectionId);
  for (const s of sections(structure)) s.default = s.id === sectionId;
}

// ---------------------------------------------------------------------------------------------
// Sections

export function addSection(
  structure: Structure,
  input: { id: string; title: string; icon?: string; siteSpace: { id: string; spaceId: string; spaceTitle: string } },
): SectionNode {
  const all = sections(structure);
  if (all.length >= SITE_LIMITS.sections) throw new ConflictError(`A site holds at most ${SITE_LIMITS.sections} sections`);
  const section: SectionNode = {
    kind: 'section',
    id: input.id,
    title: input.title,
    path: uniquePath(slugify(input.title, 'section'), sectionPaths(structure)),
    default: all.length === 0,
    siteSpaces: [],
  };
  if (input.icon !== undefined) section.icon = input.icon;
  if (all.length === 0) {
    // The first section adopts the site spaces held at the root, so nothing leaves the site.
    section.siteSpaces = structure.siteSpaces;
    structure.siteSpaces = [];
  }
  structure.items.push(section);
  addSiteSpace(structure, { ...input.siteSpace, sectionId: section.id });
  return section;
}

// ---------------------------------------------------------------------------------------------
// External links

/** An external link's destination: an absolute http or https URL of at most 2,048 characters. */
export function checkExternalUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError('url must be an absolute http or https URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || url.length > 2048)
    throw new InvalidInputError('url must be an absolute http or https URL');
  return url;
}

export interface ExternalLinkInput {
  title: string;
  url: string;
  description?: string | null;
  icon?: string | null;
  condition?: string | null;
  /** The section group it is in; null or absent: the root. */
  parent?: string | null;
}

/** The level an external link goes to: a group, or the root; the site must have sections (400 otherwise). */
function linkLevel(structure: Structure, parent: string | null | undefined): TopItem[] {
  if (sections(structure).length === 0)
    throw new InvalidInputError('External links need a site with sections: this site holds its site spaces at the root');
  if (parent === null || parent === undefined) return structure.items;
  const group = groups(structure).find((g) => g.id === parent);
  if (!group) throw new InvalidInputError(`parent: the site has no section group "${parent}"`);
  return group.children;
}

export function addExternalLink(structure: Structure, id: string, input: ExternalLinkInput): ExternalLinkNode {
  const level = linkLevel(structure, input.parent);
  if (externalLinks(structure).length >= SITE_LIMITS.externalLinks)
    throw new ConflictError(`A site holds at most ${SITE_LIMITS.externalLinks} external links`);
  const node: ExternalLinkNode = { kind: 'external-link', id, title: input.title, url: checkExternalUrl(input.url) };
  if (input.description) node.description = input.description;
  if (input.icon) node.icon = input.icon;
  if (input.condition) setCondition(node, input.condition);
  level.push(node);
  return node;
}

export function updateExternalLink(structure: Structure, id: string, patch: Partial<ExternalLinkInput>): ExternalLinkNode {
  const node = findExternalLink(structure, id);
  if (patch.title !== undefined) node.title = patch.title;
  if (patch.url !== undefined) node.url = checkExternalUrl(patch.url);
  if (patch.description !== undefined) setOptional(node, 'description', patch.description || null);
  if (patch.icon !== undefined) setOptional(node, 'icon', patch.icon);
  if (patch.condition !== undefined) setCondition(node, patch.condition);
  if (patch.parent !== undefined) {
    const to = linkLevel(structure, patch.parent);
    const from = levelOf(structure, id);
    if (to !== from) {
      from.splice(from.indexOf(node), 1);
      to.push(node);
    }
  }
  return node;
}

export function deleteExternalLink(structure: Structure, id: string): boolean {
  if (!externalLinks(structure).some((l) => l.id === id)) return false;
  const level = levelOf(structure, id);
  level.splice(
    level.findIndex((i) => i.id === id),
    1,
  );
  return true;
}

/**
 * Official duplicateSiteSpace: the copy of a site space's space joins the site beside it. A site space that is
 * the only one of its section gets a new section right after that section (same group, same icon, titled after
 * the copy); otherwise the copy is a new variant right after it, in the same level (a section, or the root).
 * Paths are made unique where they land; the copy is never the default.
 */
export function duplicateSiteSpace(
  structure: Structure,
  siteSpaceId: string,
  copy: { siteSpaceId: string; sectionId: string; spaceId: string; spaceTitle: string; sectionTitle: string },
): SiteSpaceNode {
  const { node, section } = findSiteSpace(structure, siteSpaceId);
  if (section && section.siteSpaces.length === 1) {
    if (sections(structure).length >= SITE_LIMITS.sections)
      throw new ConflictError(`A site holds at most ${SITE_LIMITS.sections} sections`);
    const level = levelOf(structure, section.id);
    const sibling: SectionNode = {
      kind: 'section',
      id: copy.sectionId,
      title: copy.sectionTitle,
      path: uniquePath(slugify(copy.sectionTitle, 'section'), sectionPaths(structure)),
      default: false,
      siteSpaces: [{ id: copy.siteSpaceId, spaceId: copy.spaceId, path: node.path, default: true }],
    };
    if (section.icon !== undefined) sibling.icon = section.icon;
    place(level, sibling, section, false);
    return sibling.siteSpaces[0];
  }
  const level = section?.siteSpaces ?? structure.siteSpaces;
  if (level.length >= SITE_LIMITS.siteSpacesPerLevel)
    throw new ConflictError(`A section holds at most ${SITE_LIMITS.siteSpacesPerLevel} site spaces`);
  const variant: SiteSpaceNode = {
    id: copy.siteSpaceId,
    spaceId: copy.spaceId,
    path: uniquePath(slugify(copy.spaceTitle, 'space'), levelPaths(level)),
    default: false,
  };
  place(level, variant, node, false);
  return variant;
}

export interface SectionPatch {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
}

export function updateSection(structure: Structure, id: string, patch: SectionPatch): SectionNode {
  const section = findSection(structure, id);
  if (patch.title !== undefined) section.title = patch.title;
  if (patch.path !== undefined) {
    if (sectionPaths(structure, id).includes(checkPath(patch.path)))
      throw new ConflictError(`Another section of this site has the path "${patch.path}"`);
    section.path = patch.path;
  }
  if (patch.defaultSiteSpace !== undefined) {
    if (!section.siteSpaces.some((s) => s.id === patch.defaultSiteSpace))
      throw new InvalidInputError(`Site space "${patch.defaultSiteSpace}" is not in section "${id}"`);
    makeDefault(section.siteSpaces, patch.defaultSiteSpace);
  }
  if (patch.condition !== undefined) setCondition(section, patch.condition);
  if (patch.icon !== undefined) setOptional(section, 'icon', patch.icon);
  if (patch.description !== undefined) setOptional(section, 'description', patch.description);
  return section;
}

/** Deletes the section and its site spaces; false when there was none. */
export function deleteSection(structure: Structure, id: string): boolean {
  const all = sections(structure);
  const found = all.find((s) => s.id === id);
  if (!found) return false;
  // External links live only in a site with sections: they would be left in a structure that cannot hold them.
  if (all.length === 1 && externalLinks(structure).length > 0)
    throw new ConflictError('This is the site’s last section and the site has external links: delete the links first');
  const level = levelOf(structure, id);
  level.splice(level.indexOf(found), 1);
  normalize(structure);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Section groups

export function addGroup(
  structure: Structure,
  input: { id: string; title: string; icon?: string; sectionIds: string[]; parentId?: string },
): GroupNode {
  if (groups(structure).length >= SITE_LIMITS.groups) throw new ConflictError(`A site holds at most ${SITE_LIMITS.groups} section groups`);
  const parent = input.parentId !== undefined ? findGroup(structure, input.parentId) : undefined;
  if (depthOf(structure, parent) >= SITE_LIMITS.groupDepth)
    throw new InvalidInputError(`Section groups nest at most ${SITE_LIMITS.groupDepth} deep`);
  const members = [...new Set(input.sectionIds)].map((id) => findSection(structure, id));
  const group: GroupNode = { kind: 'group', id: input.id, title: input.title, children: [] };
  if (input.icon !== undefined) group.icon = input.icon;
  (parent?.children ?? structure.items).push(group);
  for (const section of members) moveInto(structure, section, group);
  return group;
}

export function updateGroup(structure: Structure, id: string, patch: { title?: string; icon?: string | null }): GroupNode {
  const group = findGroup(structure, id);
  if (patch.title !== undefined) group.title = patch.title;
  if (patch.icon !== undefined) setOptional(group, 'icon', patch.icon);
  return group;
}

/** Deletes the group; what it held takes its place in its parent level (no section is lost). */
export function deleteGroup(structure: Structure, id: string): boolean {
  const group = groups(structure).find((g) => g.id === id);
  if (!group) return false;
  const level = levelOf(structure, id);
  level.splice(level.indexOf(group), 1, ...group.children);
  return true;
}

export function addSectionToGroup(structure: Structure, groupId: string, sectionId: string): GroupNode {
  const group = findGroup(structure, groupId);
  moveInto(structure, findSection(structure, sectionId), group);
  return group;
}

/** Takes the section out of the group, right after the group in its parent level; false when it was not in it. */
export function removeSectionFromGroup(structure: Structure, groupId: string, sectionId: string): boolean {
  const group = findGroup(structure, groupId);
  const index = group.children.findIndex((c) => c.kind === 'section' && c.id === sectionId);
  if (index === -1) return false;
  const [section] = group.children.splice(index, 1);
  const level = levelOf(structure, groupId);
  level.splice(level.indexOf(group) + 1, 0, section);
  return true;
}

function moveInto(structure: Structure, item: TopItem, group: GroupNode): void {
  const level = levelOf(structure, item.id);
  level.splice(level.indexOf(item), 1);
  group.children.push(item);
}

// ---------------------------------------------------------------------------------------------
// Sorting (official sortSiteStructure; the deprecated moves delegate to it)

export type StructureItemType = 'site-space' | 'site-section' | 'site-section-group';
export interface StructurePointer {
  type: StructureItemType | 'site-external-link';
  id: string;
}

/**
 * Moves an item before or after a sibling. Site spaces move among site spaces (into the target's section
 * when it is another one); sections and groups among sections and groups (into the target's group). No
 * position: the end of the item's own level.
 */
export function sortStructure(
  structure: Structure,
  item: StructurePointer,
  position: { before?: StructurePointer; after?: StructurePointer },
): void {
  if (position.before && position.after) throw new InvalidInputError('position takes "before" or "after", not both');
  const target = position.before ?? position.after;
  if (target && target.id === item.id) throw new InvalidInputError('An item cannot be moved relative to itself');
  if (item.type === 'site-space') {
    const { node, section } = findSiteSpace(structure, item.id);
    if (target && target.type !== 'site-space') throw new InvalidInputError('A site space moves among site spaces');
    const from = section?.siteSpaces ?? structure.siteSpaces;
    const to = target ? (findSiteSpace(structure, target.id).section?.siteSpaces ?? structure.siteSpaces) : from;
    if (to !== from && to.length >= SITE_LIMITS.siteSpacesPerLevel)
      throw new ConflictError(`A section holds at most ${SITE_LIMITS.siteSpacesPerLevel} site spaces`);
    if (to !== from && levelPaths(to).includes(node.path))
      throw new ConflictError(`The target section already has a site space with the path "${node.path}"`);
    from.splice(from.indexOf(node), 1);
    if (to !== from) node.default = false;
    place(to, node, target, position.before !== undefined);
    normalize(structure);
    return;
  }
  if (target && target.type === 'site-space') throw new InvalidInputError('Sections, groups and external links move among themselves');
  const find = (p: StructurePointer): TopItem =>
    p.type === 'site-section'
      ? findSection(structure, p.id)
      : p.type === 'site-external-link'
        ? findExternalLink(structure, p.id)
        : findGroup(structure, p.id);
  const moving = find(item);
  const targetItem = target ? find(target) : undefined;
  if (moving.kind === 'group' && targetItem && (moving.id === targetItem.id || containsItem(moving, targetItem.id)))
    throw new InvalidInputError('A group cannot move into itself');
  const from = levelOf(structure, moving.id);
  const toGroup = targetItem ? parentGroupOf(structure, targetItem.id) : parentGroupOf(structure, moving.id);
  if (moving.kind === 'group' && depthOf(structure, toGroup) + groupHeight(moving) > SITE_LIMITS.groupDepth)
    throw new InvalidInputError(`Section groups nest at most ${SITE_LIMITS.groupDepth} deep`);
  from.splice(from.indexOf(moving), 1);
  place(toGroup?.children ?? structure.items, moving, targetItem, position.before !== undefined);
}

function place<T extends { id: string }>(level: T[], node: T, target: { id: string } | undefined, before: boolean): void {
  if (!target) {
    level.push(node);
    return;
  }
  const index = level.findIndex((n) => n.id === target.id);
  level.splice(before ? index : index + 1, 0, node);
}

function containsItem(group: GroupNode, id: string): boolean {
  return group.children.some((c) => c.id === id || (c.kind === 'group' && containsItem(c, id)));
}

function groupHeight(group: GroupNode): number {
  return 1 + Math.max(0, ...group.children.map((c) => (c.kind === 'group' ? groupHeight(c) : 0)));
}

// ---------------------------------------------------------------------------------------------

function setCondition(node: { condition?: string }, condition: string | null): void {
  if (condition === null || condition.trim() === '') delete node.condition;
  else node.condition = condition;
}

function setOptional<T extends object, K extends keyof T>(node: T, key: K, value: T[K] | null): void {
  if (value === null) delete node[key];
  else node[key] = value;
}

/** A deep copy to change: the loaded structure stays what was read until the write succeeds. */
export function cloneStructure(structure: Structure): Structure {
  return structuredClone(structure);
}

export function checkSiteTitle(title: string): string {
  if (title.trim().length < SITE_TITLE.min || title.length > SITE_TITLE.max)
    throw new InvalidInputError(`title must be ${SITE_TITLE.min} to ${SITE_TITLE.max} characters`);
  return title;
}

/**
 * The structure a visitor sees: items whose condition `shows` refuses are left out (a section with its
 * site spaces), and each level keeps exactly one default among what is left.
 */
export function visibleStructure(structure: Structure, shows: (condition: string) => boolean): Structure {
  const visible = (node: TopItem | SiteSpaceNode) => !('condition' in node) || node.condition === undefined || shows(node.condition);
  const level = (items: TopItem[]): TopItem[] =>
    items
      .filter(visible)
      .map((item) =>
        item.kind === 'group'
          ? { ...item, children: level(item.children) }
          : item.kind === 'external-link'
            ? { ...item }
            : { ...item, siteSpaces: item.siteSpaces.filter(visible).map((s) => ({ ...s })) },
      );
  const out: Structure = { siteSpaces: structure.siteSpaces.filter(visible).map((s) => ({ ...s })), items: level(structure.items) };
  normalize(out);
  return out;
}

/** Every condition of the structure, in structure order (the published cache keys on their outcomes). */
export function conditionsOf(structure: Structure): string[] {
  const out: string[] = [];
  for (const s of structure.siteSpaces) if (s.condition !== undefined) out.push(s.condition);
  const walk = (items: TopItem[]) => {
    for (const item of items) {
      if (item.kind === 'group') walk(item.children);
      else if (item.kind === 'external-link') {
        if (item.condition !== undefined) out.push(item.condition);
      } else {
        if (item.condition !== undefined) out.push(item.condition);
        for (const s of item.siteSpaces) if (s.condition !== undefined) out.push(s.condition);
      }
    }
  };
  walk(structure.items);
  return out;
}

/** The default site space of the site: the default of the root, or of the default section. */
export function isSiteDefault(nodeDefault: boolean, sectionDefault: boolean | undefined): boolean {
  return nodeDefault && sectionDefault !== false;
}
