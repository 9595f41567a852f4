// The public surface of the spaces-and-content context. Other contexts import only this file.
export { SpacesAndContentModule } from './spaces-and-content.module';
export { SpacesService } from './application/spaces.service';
export { SPACE_EVENT_TYPES } from './application/space-events';
export type { SpaceView } from './application/spaces.service';
export { CollectionsService } from './application/collections.service';
export type { Space, Language } from './domain/space';
export { isGone, LANGUAGES } from './domain/space';
// Ports themselves, for tests that intercept a write (other contexts use SpacesService and ContentService).
export { SpaceRepository } from './domain/space';
export { RevisionRepository } from './domain/content/revision';
export type { Collection } from './domain/collection';
export { SPACE_RETENTION_MS } from './domain/space';
export { CONTENT_ENTITIES } from './infrastructure/orm-entities';
export { ContentService } from './application/content.service';
export type { MergeOutcome, CommitResult } from './application/content.service';
export type { Revision } from './domain/content/revision';
export {
  ChangesQueryDto,
  RevisionSemanticChangesDto,
  ContentQueryDto,
  PageQueryDto,
  PagesDto,
  RevisionDto,
  RevisionPageDto,
  pagesDto,
  revisionDto,
  pageWithBody,
  relativeRefs,
} from './http/revision.dto';
export { SpaceDto, toSpaceDto } from './http/content-response.dto';
export { spacePermissions } from './domain/access';
export { MergeOrigins } from './application/merge-origins';
export { SpaceLifecycle, SpaceLifecycles } from './application/space-lifecycle';
export { RevisionReader } from './http/revision-reader';
export type { RevisionScope } from './http/revision-reader';
export { LinksService } from './application/links.service';
export { linksResponse, backlinksResponse, LinksQueryDto, LinksResponseDto, ContentLocationDto } from './http/links.dto';
export type { LocationContext } from './http/links.dto';
export type { ContentChangeInput } from './application/content.service';
export { FilesService, FilesSettings } from './application/files.service';
export { FileStorageDirectory, FileStorageSettings } from './infrastructure/local-file-storage';
export { S3FileStorage } from './infrastructure/s3-file-storage';
export type { S3StorageOptions } from './infrastructure/s3-file-storage';
export { FileStorage } from './domain/content/files';
export { fileDto, RevisionFileDto } from './http/files.dto';
export { filesPage } from './http/files-page';
export { SearchIndex } from './domain/content/search-index';
export { SearchService, SearchSettings } from './application/search.service';
export { GrantedTeamSpaces } from './infrastructure/team-spaces.adapter';
export { ContentAccess, requireRole } from './application/content-access';
export { ContentPermissionsService } from './application/content-permissions.service';
export type { ContentRef } from './application/content-permissions.service';
export { SiteDirectory } from './application/site-directory';
export {
  InviteUsersAndTeamsDto,
  UpdateContentPermissionDto,
  UserContentPermissionDto,
  TeamContentPermissionDto,
} from './http/content-permissions.controller';
