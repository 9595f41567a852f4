import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, Max, Min } from 'class-validator';
import { Links, ListQueryDto, Optional, toStrictBool, toStrictInt } from '@app/http-kit';
import type { ContentRef, JsonDocument, ReusableContent } from '@app/content-model';
import { documentToMarkdown, refToUrl } from '@app/content-model';
import { PageNode, pathIndex, PageTree } from '@app/content-model';

/** One of the official boolean flags of a content read: exactly `true` or `false`, defaulting to `def`. */
const ContentFlag = (def: boolean): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ type: Boolean, default: def }), Optional(), Transform(toStrictBool), IsBoolean());

/** The official `metadata` and `computed` flags (spec part 1 §4.4: both default true). */
export class ContentQueryDto {
  /** If false, mutable git metadata is left out (faster lookups) */
  @ContentFlag(true) metadata?: boolean;
  /** If false, content is not computed */
  @ContentFlag(true) computed?: boolean;
}

/** A list of a revision's files: the page and limit of every list, and the official `metadata` and `computed` flags. */
export class ListContentQueryDto extends ListQueryDto {
  /** If false, mutable git metadata is left out (faster lookups) */
  @ContentFlag(true) metadata?: boolean;
  /** If false, content is not computed */
  @ContentFlag(true) computed?: boolean;
}

/** The official `evaluated`/`dereferenced` control: `true`, `false` or its one string value, default false. */
const EvaluationControl = (value: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: [value] }], default: false }),
    Optional(),
    Transform(toStrictBool),
    IsIn([true, false, value]),
  );

/**
 * The official `evaluated` and `dereferenced` controls of a document read (Quire's documents have nothing to
 * evaluate; reusable content is resolved when a page is read): validated, and every value gives the same document.
 */
export class DocumentQueryDto {
  @EvaluationControl('deterministic-only') evaluated?: boolean | 'deterministic-only';
  @EvaluationControl('reusable-contents') dereferenced?: boolean | 'reusable-contents';
}

export class ChangesQueryDto extends ContentQueryDto {
  /** How many changes to return (1 to 1,000; default 10); `more` says how many were left out */
  @ApiPropertyOptional({ type: Number, default: 10, minimum: 1, maximum: 1000 })
  @Optional()
  @Transform(toStrictInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

class ChangedPageDto {
  id: string;
  @ApiProperty({ enum: ['document', 'group'] }) type: string;
  title: string;
  path: string;
}

class ChangedFileDto {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
}

class BlockTextDto {
  before?: string;
  after?: string;
}

class BlockChangeDto {
  @ApiProperty({ enum: ['added', 'deleted', 'modified'] }) change: string;
  /** The block's key in the newer document (in the older one for a deleted block): what `revert_page` with `block` takes */
  key: string;
  /** The block type (paragraph, heading-1, code …) */
  type: string;
  /** The start of its text before and after (200 characters at most) */
  text: BlockTextDto;
}

class SemanticChangeDto {
  @ApiProperty({ enum: ['page_created', 'page_edited', 'page_deleted', 'page_moved', 'file_created', 'file_edited', 'file_deleted'] })
  type: string;
  @ApiPropertyOptional({ type: ChangedPageDto }) page?: ChangedPageDto;
  @ApiPropertyOptional({ type: ChangedFileDto }) file?: ChangedFileDto;
  /** page_edited, file_edited: `{field: {before, after}}` (`document`: the content hashes of the bodies) */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) attributes?: object;
  /** page_moved: the parent page before and after (absent: top level) */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) parent?: object;
  /** page_moved among the same siblings: its index before and after (a Quire extension) */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) position?: object;
  /** page_edited with a changed document: its top-level blocks added, deleted, modified (a Quire extension; the first 100 edited pages) */
  @ApiPropertyOptional({ type: [BlockChangeDto] }) blocks?: BlockChangeDto[];
}

export class RevisionSemanticChangesDto {
  @ApiProperty({ type: [SemanticChangeDto] }) changes: SemanticChangeDto[];
  /** How many changes were left out above `limit` */
  more?: number;
  /** The change request a merge revision merged */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) mergedFrom?: object;
}

class RevisionHistoryUrlsDto {
  location: string;
  app: string;
}

/** A revision in a space's history (Quire's own list: the official document has none). */
export class RevisionHistoryItemDto {
  @ApiProperty({ enum: ['revision-summary'] }) object: 'revision-summary';
  id: string;
  @ApiProperty({ enum: ['edits', 'merge', 'update', 'rollback'] }) type: string;
  parents: string[];
  createdAt: string;
  /** Who made it (for a merge revision: who merged); null for revisions made by the system */
  @ApiProperty({ type: 'string', nullable: true }) createdBy: string | null;
  /** The change request a merge revision merged */
  @ApiProperty({ type: 'string', nullable: true }) mergedFrom: string | null;
  urls: RevisionHistoryUrlsDto;
}

export class PageQueryDto extends ContentQueryDto {
  @ApiPropertyOptional({ enum: ['document', 'markdown'], default: 'document', description: 'Output format of the page body' })
  @Optional()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';

  @EvaluationControl('deterministic-only') evaluated?: boolean | 'deterministic-only';
  @EvaluationControl('reusable-contents') dereferenced?: boolean | 'reusable-contents';

  @ApiPropertyOptional({ name: 'format.markdown.refs', enum: ['relative', 'stable'], default: 'relative' })
  @Optional()
  @IsIn(['relative', 'stable'])
  'format.markdown.refs'?: 'relative' | 'stable';
}

/** A page read by path: the page read's parameters, and `cachedMetadata` (Quire serves Git metadata from its own rows either way). */
export class PageByPathQueryDto extends PageQueryDto {
  /** If true, mutable Git metadata may be served from a cache */
  @ContentFlag(false) cachedMetadata?: boolean;
}

export const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;

export class RevisionPageDto {
  id: string;
  title: string;
  @ApiProperty({ enum: ['sheet', 'group', 'link'], deprecated: true }) kind: 'sheet' | 'group' | 'link';
  @ApiProperty({ enum: ['document', 'group', 'link'] }) type: 'document' | 'group' | 'link';
  /** A link page's target: a page (with its anchor) or a URL */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) target?: object;
  /** A link page's target as a URL (a page's in the web app, or the URL) */
  href?: string;
  @ApiProperty({ type: 'object', properties: { app: { type: 'string', format: 'uri' } } }) urls: { app: string };
  slug: string;
  /** Complete path of the page in the revision */
  path: string;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Child pages' }) pages: RevisionPageDto[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The page layout: the defaults, with what the page sets' })
  layout: Record<keyof typeof DEFAULT_LAYOUT, string | boolean>;
  @ApiPropertyOptional({
    type: 'object',
    properties: { ref: { type: 'object', additionalProperties: true }, yPos: { type: 'number' } },
    description: 'The page cover image, when it has one',
  })
  cover?: { ref: object; yPos: number };
  @ApiProperty({ type: 'array', items: { type: 'object' } }) tags: unknown[];
  emoji?: string;
  /** The page's icon (an icon name) */
  icon?: string;
  description?: string;
  hidden?: boolean;
  /** The page's variables (name → value), when it has any */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) variables?: Record<string, string>;
  /** Adaptive-content condition controlling whether the page is shown to a visitor (only when set). */
  condition?: string;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
  /** Content address of the page body; absent for an empty page */
  documentId?: string;
  @ApiPropertyOptional({ description: 'The body as markdown (format=markdown)' }) markdown?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The body as a document (format=document)' })
  document?: JsonDocument;
}

export class RevisionDto {
  @ApiProperty({ enum: ['revision'] }) object: 'revision';
  id: string;
  parents: string[];
  @ApiProperty({ enum: ['edits', 'merge', 'update', 'rollback'] }) type: string;
  @ApiProperty({ type: [RevisionPageDto] }) pages: RevisionPageDto[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) files: unknown[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) reusableContents: unknown[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) tags: unknown[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) variables: Record<string, string>;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'object', properties: { app: { type: 'string', format: 'uri' } } }) urls: { app: string };
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'For merge revisions: the change request merged' })
  mergedFrom?: object;
  /** A revision a Git Sync import made: the commit it came from (official GitSyncCommit) */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) git?: object;
}

export class PagesDto {
  @ApiProperty({ type: [RevisionPageDto] }) pages: RevisionPageDto[];
}

/** Where a revision's pages live in the web app: `/s/<space>` (or `/s/<space>/~/changes/<n>`). */
export interface AppBase {
  app(path: string): string;
}

export function pageDto(node: PageNode, path: string, base: string, links: Links, paths?: Map<string, string>): RevisionPageDto {
  const type = node.type;
  const dto: RevisionPageDto = {
    id: node.id,
    title: node.title,
    kind: type === 'document' ? 'sheet' : type,
    type,
    urls: { app: links.app(`${base}/${path}`) },
    slug: node.slug,
    path,
    pages: node.pages.map((child) => pageDto(child, `${path}/${child.slug}`, base, links, paths)),
    layout: { ...DEFAULT_LAYOUT, ...node.layout },
    tags: [],
  };
  if (node.target) {
    dto.target = node.target;
    const t = node.target;
    const page = t.kind === 'page' ? paths?.get(t.page) : undefined;
    if (t.kind === 'url') dto.href = t.url;
    else if (page !== undefined) dto.href = `${links.app(`${base}/${page}`)}${t.anchor ? `#${t.anchor}` : ''}`;
  }
  if (node.cover) dto.cover = { ref: node.cover.ref, yPos: node.cover.yPos ?? 0 };
  if (node.emoji) dto.emoji = node.emoji;
  if (node.icon) dto.icon = node.icon;
  if (node.description) dto.description = node.description;
  if (node.hidden !== undefined) dto.hidden = node.hidden;
  if (node.variables) dto.variables = node.variables;
  if (node.condition !== undefined) dto.condition = node.condition;
  if (node.createdAt) dto.createdAt = node.createdAt;
  if (node.updatedAt) dto.updatedAt = node.updatedAt;
  if (node.document) dto.documentId = node.document;
  return dto;
}

export function pagesDto(tree: PageTree, base: string, links: Links): RevisionPageDto[] {
  const paths = new Map([...pathIndex(tree)].map(([path, id]) => [id, path]));
  return tree.map((n) => pageDto(n, n.slug, base, links, paths));
}

/** The official RevisionReusableContent: its id, title and the id (hash) of its document when it has one. */
export class RevisionReusableContentDto {
  id: string;
  title: string;
  /** The document's id; absent when the reusable content is empty */
  document?: string;
}

export function reusableContentDto(r: ReusableContent): RevisionReusableContentDto {
  return { id: r.id, title: r.title, ...(r.document ? { document: r.document } : {}) };
}

/** What the Revision object is made of (the content context's Revision has it). */
export interface RevisionShape {
  id: string;
  parents: string[];
  type: string;
  tree: PageTree;
  createdAt: Date;
  git?: object | null;
  reusableContents?: ReusableContent[];
  variables?: Record<string, string>;
}

export function revisionDto(rev: RevisionShape, base: string, links: Links, mergedFrom: object | null = null): RevisionDto {
  const dto: RevisionDto = {
    object: 'revision',
    id: rev.id,
    parents: rev.parents,
    type: rev.type,
    pages: pagesDto(rev.tree, base, links),
    files: [],
    reusableContents: (rev.reusableContents ?? []).map(reusableContentDto),
    tags: [],
    variables: rev.variables ?? {},
    createdAt: rev.createdAt.toISOString(),
    urls: { app: links.app(`${base}/~/revisions/${rev.id}`) },
  };
  if (mergedFrom) dto.mergedFrom = mergedFrom;
  if (rev.git) dto.git = rev.git;
  return dto;
}

/** Page references written as relative `.md` paths from the page (format.markdown.refs=relative). */
export function relativeRefs(tree: PageTree, fromPath: string): (ref: ContentRef) => string {
  const byId = new Map([...pathIndex(tree).entries()].map(([p, id]) => [id, p]));
  const fromDir = fromPath.split('/').slice(0, -1);
  return (ref) => {
    if (ref.kind !== 'page') return refToUrl(ref);
    const target = byId.get(ref.page);
    if (target === undefined) return refToUrl(ref);
    const to = target.split('/');
    let common = 0;
    while (common < fromDir.length && common < to.length && fromDir[common] === to[common]) common++;
    const rel = [...fromDir.slice(common).map(() => '..'), ...to.slice(common)].join('/');
    return `${rel.startsWith('.') ? rel : `./${rel}`}.md${ref.anchor ? `#${ref.anchor}` : ''}`;
  };
}

/** A page with its body in the requested format. */
export function pageWithBody(
  node: PageNode,
  path: string,
  base: string,
  links: Links,
  doc: JsonDocument | null,
  format: 'document' | 'markdown',
  refs: (ref: ContentRef) => string,
): RevisionPageDto {
  const dto = pageDto(node, path, base, links);
  if (format === 'markdown') dto.markdown = doc ? documentToMarkdown(doc, refs) : '';
  else if (doc) dto.document = doc;
  return dto;
}
