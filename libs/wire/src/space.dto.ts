import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Role, EDIT_MODES, LANGUAGES, SPACE_VISIBILITIES } from '@app/shared-kernel';
import { Links } from '@app/http-kit';
import { DEFAULT_LEVELS, DefaultLevel } from '@app/access';
import { CollectionPermissions, collectionPermissions, SpacePermissions, spacePermissions } from '@app/access';

export class SpacePermissionsDto implements SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

export class SpaceUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
}

export class SpaceDto {
  @ApiProperty({ enum: ['space'] }) object: 'space';
  id: string;
  title: string;
  /** Emoji of the space; empty when none is set */
  emoji: string;
  @ApiProperty({ enum: SPACE_VISIBILITIES }) visibility: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Set while the space is deleted (restorable for 7 days)' }) deletedAt?: string;
  @ApiProperty({ enum: EDIT_MODES }) editMode: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Merge rules; {"type":"inherit"} by default' })
  mergeRules: object;
  urls: SpaceUrlsDto;
  /** ID of the organization owning this space */
  organization: string;
  /** ID of the parent collection */
  parent?: string;
  @ApiPropertyOptional({ enum: LANGUAGES }) language?: string;
  /** ID of the active revision */
  revision: string;
  @ApiProperty({ enum: DEFAULT_LEVELS, nullable: true }) defaultLevel: DefaultLevel;
  /** Count of open comments */
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions: SpacePermissionsDto;
}

/**
 * The permissions object of each role, built once: a list of 100 spaces shares a handful of them instead of
 * allocating 100 (they are frozen, so no caller can change another answer's).
 */
const PERMISSIONS = new Map<Role | null, SpacePermissions>();
function permissionsOf(role: Role | null): SpacePermissions {
  let permissions = PERMISSIONS.get(role);
  if (!permissions) PERMISSIONS.set(role, (permissions = Object.freeze(spacePermissions(role))));
  return permissions;
}

/** What the Space object is made of (the content context's Space has it). */
export interface SpaceShape {
  id: string;
  organizationId: string;
  title: string;
  emoji: string;
  visibility: string;
  editMode: string;
  mergeRules: object;
  language: string | null;
  parentId: string | null;
  defaultLevel: DefaultLevel;
  revision: string;
  counters: { comments: number; changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number };
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** What the Collection object is made of (the content context's Collection has it). */
export interface CollectionShape {
  id: string;
  organizationId: string;
  title: string;
  description: string | null;
  parentId: string | null;
  defaultLevel: DefaultLevel;
}

export function toSpaceDto(space: SpaceShape, role: Role | null, links: Links): SpaceDto {
  const { counters } = space;
  const dto: SpaceDto = {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt.toISOString(),
    updatedAt: space.updatedAt.toISOString(),
    editMode: space.editMode,
    mergeRules: space.mergeRules,
    urls: { location: links.api(`/spaces/${space.id}`), app: links.app(`/s/${space.id}`) },
    organization: space.organizationId,
    revision: space.revision,
    defaultLevel: space.defaultLevel,
    comments: counters.comments,
    changeRequests: counters.changeRequests,
    changeRequestsOpen: counters.changeRequestsOpen,
    changeRequestsDraft: counters.changeRequestsDraft,
    permissions: permissionsOf(role),
  };
  if (space.deletedAt) dto.deletedAt = space.deletedAt.toISOString();
  if (space.parentId) dto.parent = space.parentId;
  if (space.language) dto.language = space.language;
  return dto;
}

/**
 * A space as a site's visitor reads it with the token the site's URL gave them (docs/published-sites.md): what the
 * site shows, none of its team's work. The official schema requires the counts and the merge rules: they answer
 * none and the default; the collection it sits in is left out.
 */
export function visitorSpaceDto(dto: SpaceDto): SpaceDto {
  const { parent: _parent, ...shown } = dto;
  return { ...shown, mergeRules: { type: 'inherit' }, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };
}

export class CollectionPermissionsDto implements CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}

export class CollectionUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
  @ApiProperty({ format: 'uri' }) app: string;
}

export class CollectionDto {
  @ApiProperty({ enum: ['collection'] }) object: 'collection';
  id: string;
  title: string;
  description?: string;
  /** ID of the organization owning this collection */
  organization: string;
  /** ID of the parent collection, if any */
  parent?: string;
  @ApiProperty({ enum: DEFAULT_LEVELS, nullable: true }) defaultLevel: DefaultLevel;
  urls: CollectionUrlsDto;
  permissions: CollectionPermissionsDto;
}

export function toCollectionDto(c: CollectionShape, role: Role | null, links: Links): CollectionDto {
  const dto: CollectionDto = {
    object: 'collection',
    id: c.id,
    title: c.title,
    organization: c.organizationId,
    defaultLevel: c.defaultLevel,
    urls: { location: links.api(`/collections/${c.id}`), app: links.app(`/c/${c.id}`) },
    permissions: collectionPermissions(role),
  };
  if (c.description !== null) dto.description = c.description;
  if (c.parentId) dto.parent = c.parentId;
  return dto;
}

export class MemberContentPermissionDto {
  @ApiProperty({ enum: ['admin', 'create', 'review', 'edit', 'comment', 'read'], description: "The member's role on the space" })
  permission: Role;
  space: SpaceDto;
}
