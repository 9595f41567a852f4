import { Injectable } from '@nestjs/common';
import { ByteLruCache } from '@app/shared-kernel';

/** How many bytes of rendered answers each process keeps (QUIRE_READ_CACHE_MB). */
export abstract class ReadCacheSettings {
  abstract readonly maxBytes: number;
}

/**
 * Rendered answers as UTF-8 JSON, by a key that holds everything they depend on (the version or the
 * immutable revision of what they show, the caller where permissions are in the answer, the query, the
 * origins of the URLs in it). Encoded once; a hit costs neither a render nor a serialization, and the
 * bytes are sent as they are. Bounded by bytes. The one cache-and-render of the HTTP layer: rendered
 * lists, rendered revision content (RevisionPresenter) and published sites use it.
 */
export class RenderedJson {
  private readonly entries: ByteLruCache;

  constructor(maxBytes: number, name: string) {
    this.entries = new ByteLruCache(Math.max(1, maxBytes), name);
  }

  get(key: string, render: () => unknown): Promise<Buffer> {
    return this.text(key, async () => JSON.stringify(await render()));
  }

  /** The same for an answer that is already text (a published page's HTML). */
  async text(key: string, render: () => Promise<string>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return Buffer.from(hit.buffer, hit.byteOffset, hit.byteLength);
    const body = Buffer.from(await render(), 'utf8');
    this.entries.set(key, body);
    return body;
  }
}

/**
 * Rendered lists (comment threads, the organization's change requests, cluster lists …): a hit costs the
 * authorization and one version lookup. Bounded by QUIRE_READ_CACHE_MB; each context provides its own instance.
 */
@Injectable()
export class RenderedLists extends RenderedJson {
  constructor(settings: ReadCacheSettings) {
    super(settings.maxBytes, 'rendered-lists');
  }
}
