import { Injectable } from '@nestjs/common';
import { ByteLruCache } from '@app/shared-kernel';
import { ReadCacheSettings } from '@app/spaces-and-content';

/**
 * Rendered lists (comment threads, the organization's change requests) as UTF-8 JSON, by a key that
 * holds everything they depend on: the version of what they list, the caller where permissions are in
 * the answer, the query, and the minute (names and photos of users are at most a minute old). A hit
 * costs the authorization and one version lookup. Bounded by bytes (QUIRE_READ_CACHE_MB).
 */
@Injectable()
export class RenderedLists {
  private readonly lists: ByteLruCache;

  constructor(settings: ReadCacheSettings) {
    this.lists = new ByteLruCache(settings.maxBytes);
  }

  async get(key: string, render: () => Promise<unknown>): Promise<Buffer> {
    const hit = this.lists.get(key);
    if (hit !== undefined) return Buffer.from(hit.buffer, hit.byteOffset, hit.byteLength);
    const body = Buffer.from(JSON.stringify(await render()), 'utf8');
    this.lists.set(key, body);
    return body;
  }
}
