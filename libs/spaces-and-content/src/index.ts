// The public surface of the spaces-and-content context. Other contexts import only this file.
export { SpacesAndContentModule } from './spaces-and-content.module';
export { SpacesService } from './application/spaces.service';
export type { SpaceView } from './application/spaces.service';
export { CollectionsService } from './application/collections.service';
export type { Space } from './domain/space';
export type { Collection } from './domain/collection';
export { SPACE_RETENTION_MS } from './domain/space';
export { CONTENT_ENTITIES } from './infrastructure/orm-entities';
