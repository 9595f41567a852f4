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
import { RevisionReader } from './http/revision-reader';
import { ContentService } from './application/content.service';
import { SearchService } from './application/search.service';
import { ContentSearch } from './application/content-search';
import { LinksService } from './application/links.service';
import { FilesService } from './application/files.service';
import { FileStorage } from './domain/content/files';
import { FileStorageDirectory, FileStorageSettings, LocalDiskFileStorage } from './infrastructure/local-file-storage';
import { S3FileStorage } from './infrastructure/s3-file-storage';
import { SqlSearchIndex } from './infrastructure/search-index.repository';
import { SearchIndex } from './domain/content/search-index';
import { RevisionRepository } from './domain/content/revision';
import { SqlRevisionRepository } from './infrastructure/revisions.repository';
import { CONTENT_ENTITIES } from './infrastructure/orm-entities';
import { TranslationEvents, TranslationsService } from './application/translations.service';
import { SpaceEvents } from './application/space-events';
import { TranslationSettings } from './application/translation-settings';
import { TranslationRepository } from './domain/translation';
import { FirstAvailableTranslator, Translator } from './domain/translator';
import { SqlTranslationRepository } from './infrastructure/translations.repository';
import { ApertiumTranslator } from './infrastructure/apertium-translator';
import { ChatCompletionsTranslator, LibreTranslateTranslator } from './infrastructure/http-translators';
import { TranslationsController } from './http/translations.controller';
import { CollectionPermissionsController, SpacePermissionsController } from './http/content-permissions.controller';
import { ContentPermissionsService } from './application/content-permissions.service';
import { ContentPermissionRepository } from './domain/permissions';
import { SqlContentPermissionRepository } from './infrastructure/content-permissions.repository';
import { GrantedTeamSpaces } from './infrastructure/team-spaces.adapter';

/** The translators the settings name, first preferred: LibreTranslate, a chat-completions model, then Apertium (the default). */
function translatorFrom(settings?: TranslationSettings): Translator {
  const s = settings ?? { apertium: true, libreTranslate: null, chatCompletions: null };
  const list: Translator[] = [];
  if (s.libreTranslate) list.push(new LibreTranslateTranslator(s.libreTranslate.url, s.libreTranslate.apiKey));
  if (s.chatCompletions) list.push(new ChatCompletionsTranslator(s.chatCompletions.url, s.chatCompletions.model, s.chatCompletions.apiKey));
  if (s.apertium) list.push(new ApertiumTranslator());
  return new FirstAvailableTranslator(list);
}
import { TypeOrmCollectionRepository, TypeOrmSpaceRepository } from './infrastructure/spaces-and-collections.repositories';

/** Collections and spaces (content comes with the content engine). Needs global `Clock` and `IdGenerator`. */
@Module({
  imports: [TypeOrmModule.forFeature(CONTENT_ENTITIES), OrganizationsAndTeamsModule],
  controllers: [
    SpacesController,
    CollectionsController,
    ContentController,
    SearchController,
    DownloadsController,
    TranslationsController,
    SpacePermissionsController,
    CollectionPermissionsController,
  ],
  providers: [
    SpacesService,
    CollectionsService,
    ContentAccess,
    ContentService,
    SearchService,
    ContentSearch,
    LinksService,
    FilesService,
    {
      provide: FileStorage,
      useFactory: (settings: FileStorageSettings, dir: FileStorageDirectory): FileStorage =>
        settings.s3 ? new S3FileStorage(settings.s3) : new LocalDiskFileStorage(dir),
      inject: [FileStorageSettings, FileStorageDirectory],
    },
    { provide: SearchIndex, useClass: SqlSearchIndex },
    RevisionReader,
    TranslationsService,
    TranslationEvents,
    SpaceEvents,
    ContentPermissionsService,
    GrantedTeamSpaces,
    { provide: ContentPermissionRepository, useClass: SqlContentPermissionRepository },
    { provide: TranslationRepository, useClass: SqlTranslationRepository },
    { provide: Translator, useFactory: translatorFrom, inject: [{ token: TranslationSettings, optional: true }] },
    { provide: RevisionRepository, useClass: SqlRevisionRepository },
    { provide: SpaceRepository, useClass: TypeOrmSpaceRepository },
    { provide: CollectionRepository, useClass: TypeOrmCollectionRepository },
  ],
  exports: [
    SpacesService,
    CollectionsService,
    ContentService,
    RevisionReader,
    LinksService,
    FilesService,
    TranslationsService,
    GrantedTeamSpaces,
    ContentAccess,
    ContentPermissionsService,
    SearchService,
  ],
})
export class SpacesAndContentModule {}
