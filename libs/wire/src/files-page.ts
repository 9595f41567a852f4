import { listEnvelope, ListQueryDto } from '@app/http-kit';
import { pageInMemory } from '@app/shared-kernel';
import type { FileNode } from '@app/content-model';

/** A page of a revision's files, ordered by id (keyset cursor on the id). */
export function filesPage<T>(files: FileNode[], q: ListQueryDto, map: (f: FileNode) => T) {
  return listEnvelope(
    pageInMemory(files, (f) => f.id, q.toPageRequest()),
    map,
  );
}
