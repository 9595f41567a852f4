import type { Actor } from '@app/shared-kernel';
import type { JsonDocument, PageTree, ReusableContent } from '@app/content-model';
import type { FileNode } from '../domain/content/files';
import type { Space } from '../domain/space';

/**
 * Computed content (the official `getComputedDocument`, `getComputedRevision`): the shapes a built-in source's
 * computation takes and gives. The contexts that own a source compute it (`builtin:openapi`: openapi-specs;
 * `builtin:translation`: translations); the app's controller, which depends on them all, dispatches by type.
 */
export interface ComputedSource {
  type: string;
  props: Record<string, unknown>;
  dependencies: Record<string, unknown>;
}

/** What a computation knows of its request: who asks, in which space (one they read), the seed of its ids, how the API is addressed. */
export interface ComputedContext {
  actor: Actor;
  space: Space;
  seed: string;
  /** An absolute URL of this API (for links a computation writes). */
  api: (path: string) => string;
}

/** A computed revision: its pages (their bodies inline, by page id), files and reusable contents. */
export interface ComputedRevision {
  /** The space the pages are in, when they are a space's (a translation's target); else the space asked about. */
  spaceId?: string;
  tree: PageTree;
  documents: Map<string, JsonDocument>;
  files: FileNode[];
  reusableContents: ReusableContent[];
}

export interface ComputedSourceHandler {
  document(context: ComputedContext, source: ComputedSource): Promise<JsonDocument>;
  revision(context: ComputedContext, source: ComputedSource): Promise<ComputedRevision>;
}
