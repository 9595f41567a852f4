import { Injectable } from '@nestjs/common';
import { ByteLruCache } from '@app/shared-kernel';
import { ReadCacheSettings } from '@app/spaces-and-content';

/**
 * Rendered comment lists as UTF-8 JSON, by thread version, caller, query and minute (so names and
 * photos of users are at most a minute old): a hit costs the authorization and one version lookup.
 * Bounded by bytes (QUIRE_READ_CACHE_MB, as the rendered-read cache).
 */
@Injectable()
export class CommentListCache {
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
