import { cursorKey, toPage } from '@app/shared-kernel';
import { listEnvelope, ListQueryDto } from '@app/http-kit';
import type { FileNode } from '../domain/content/files';

/** A page of a revision's files, ordered by id (keyset cursor on the id). */
export function filesPage<T>(files: FileNode[], q: ListQueryDto, map: (f: FileNode) => T) {
  const request = q.toPageRequest();
  const sorted = [...files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const after = cursorKey(request, ['text'])?.[0];
  const rows = sorted.filter((f) => after === undefined || f.id > String(after)).slice(0, request.limit + 1);
  return listEnvelope(toPage(rows, request, files.length, (f) => [f.id]), map);
}
