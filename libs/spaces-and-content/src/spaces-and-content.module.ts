import { EmbedsService } from './application/embeds.service';
import { EmbedsController } from './http/embeds.controller';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsAndTeamsModule } from '@app/organizations-and-teams';
import { CollectionsService } from './application/collections.service';
import { ContentAccess } from './application/content-access';
import { SpacesService } from './application/spaces.service';
import { CollectionRepository } from './domain/collection';
import { SpaceRepository } from './domain/space';
import { CollectionsController } from './http/collections.controller';
import { SpacesController } from './http/spaces.controller';
import { ContentController } from './http/content.controller';
import { SearchController } from './http/search.controller';
import { DownloadsController } from './http/downloads.controller';
import { RevisionPresenter } from './http/revision-presenter';
import { RevisionChanges } from './application/revision-changes';
import { ContentService } from './application/content.service';
import { SearchService } from './application/search.service';
import { ContentSearch } from './application/content-search';
import { LinksService } from './application/links.service';
import { FilesService } from './application/files.service';
import { FileStorage, UnreferencedContent } from './domain/content/files';
import { Collector } from './application/collector';
import { SqlUnreferencedContent } from './infrastructure/unreferenced-content.repository';
import { LocalDiskFileStorage } from './infrastructure/local-file-storage';
import { S3FileStorage } from './infrastructure/s3-file-storage';
import { SqlSearchIndex } from './infrastructure/search-index.repository';
import { SearchIndex } from './domain/content/search-index';
import { RevisionRepository } from './domain/content/revision';
import { SqlRevisionRepository } from './infrastructure/revisions.repository';
import { CONTENT_ENTITIES } from './infrastructure/orm-entities';
import { SpaceEvents } from './application/space-events';
import { CollectionPermissionsController, SpacePermissionsController } from './http/content-permissions.controller';
import { ContentPermissionsService } from './application/content-permissions.service';

import { TypeOrmCollectionRepository, TypeOrmSpaceRepository } from './infrastructure/spaces-and-collections.repositories';
import { FileStorageDirectory, FileStorageSettings } from './application/file-storage-settings';
import { Access, AccessModule } from '@app/access';

/** The file storage the settings choose: S3-compatible object storage when set, else local disk. */
export function fileStorageFor(settings: FileStorageSettings, dir: FileStorageDirectory): FileStorage {
  return settings.s3 ? new S3FileStorage(settings.s3) : new LocalDiskFileStorage(dir);
}

/** Collections and spaces (content comes with the content engine). Needs global `Clock` and `IdGenerator`. */
@Module({
  imports: [AccessModule, TypeOrmModule.forFeature(CONTENT_ENTITIES), OrganizationsAndTeamsModule],
  controllers: [
    EmbedsController,
    SpacesController,
    CollectionsController,
    ContentController,
    SearchController,
    DownloadsController,
    SpacePermissionsController,
    CollectionPermissionsController,
  ],
  providers: [
    EmbedsService,
    SpacesService,
    CollectionsService,
    ContentAccess,
    ContentService,
    SearchService,
    ContentSearch,
    LinksService,
    FilesService,
    Collector,
    { provide: UnreferencedContent, useClass: SqlUnreferencedContent },
    {
      provide: FileStorage,
      useFactory: (settings: FileStorageSettings, dir: FileStorageDirectory): FileStorage => fileStorageFor(settings, dir),
      inject: [FileStorageSettings, FileStorageDirectory],
    },
    { provide: SearchIndex, useClass: SqlSearchIndex },
    RevisionPresenter,
    RevisionChanges,
    SpaceEvents,
    ContentPermissionsService,
    { provide: RevisionRepository, useClass: SqlRevisionRepository },
    { provide: SpaceRepository, useClass: TypeOrmSpaceRepository },
    { provide: CollectionRepository, useClass: TypeOrmCollectionRepository },
  ],
  exports: [
    SpacesService,
    CollectionsService,
    ContentService,
    RevisionPresenter,
    LinksService,
    FilesService,
    Collector,
    ContentAccess,
    ContentPermissionsService,
    SearchService,
    ContentSearch,
  ],
})
export class SpacesAndContentModule {
  /** Access asks this context which spaces a caller may read (team `spaces` counts), through its port. */
  constructor(access: Access, content: ContentAccess) {
    access.provideReadableSpaces({ readable: async (organizationId, actor) => (await content.narrowing(organizationId, actor)).spaces });
  }
}
