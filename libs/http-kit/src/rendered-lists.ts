import { Injectable } from '@nestjs/common';
import { ByteLruCache } from '@app/shared-kernel';

/** How many bytes of rendered answers each process keeps (QUIRE_READ_CACHE_MB). */
export abstract class ReadCacheSettings {
  abstract readonly maxBytes: number;
}

/**
 * Rendered answers (comment threads, the organization's change requests, cluster lists …) as UTF-8
 * JSON, by a key that holds everything they depend on: the version of what they list, the caller
 * where permissions are in the answer, the query, and the time bucket where time matters. A hit
 * costs the authorization and one version lookup. Bounded by bytes (QUIRE_READ_CACHE_MB); each
 * context provides its own instance.
 */
@Injectable()
export class RenderedLists {
  private readonly lists: ByteLruCache;

  constructor(settings: ReadCacheSettings) {
    this.lists = new ByteLruCache(settings.maxBytes, 'rendered-lists');
  }

  async get(key: string, render: () => Promise<unknown>): Promise<Buffer> {
    const hit = this.lists.get(key);
    if (hit !== undefined) return Buffer.from(hit.buffer, hit.byteOffset, hit.byteLength);
    const body = Buffer.from(JSON.stringify(await render()), 'utf8');
    this.lists.set(key, body);
    return body;
  }
}
