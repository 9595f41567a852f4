import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  FixedWindows,
  HostResolver,
  InvalidInputError,
  safeGet,
  SafeGetError,
  TooManyRequestsError,
  TtlCache,
} from '@app/shared-kernel';
import { Embed, embedOf, pageMeta } from '../domain/embed';
import { SpacesService } from './spaces.service';

/** Hosts an embed URL may fetch although they resolve to a private or loopback address (QUIRE_EMBED_URL_ALLOWLIST), and the time limit. */
export abstract class EmbedSettings {
  abstract readonly privateHostAllowlist: string[];
  abstract readonly timeoutMs: number;
  /** Pages one caller may have fetched per minute (URLs not in the cache; QUIRE_EMBED_FETCHES_PER_MINUTE, 0: no limit). */
  abstract readonly fetchesPerMinute: number;
}

const PAGE_MAX_BYTES = 1024 * 1024;
const OEMBED_MAX_BYTES = 256 * 1024;
const CACHE_MS = 60 * 60_000;
const CACHE_ENTRIES = 5_000;

/**
 * Official getEmbedByUrl and getEmbedByUrlInSpace: what a public URL shows, from its oEmbed answer (discovered in
 * its page's head) or its Open Graph tags and title, through the one outbound client (safeGet: http(s) only,
 * every address checked, no private or loopback address unless allowed, bounded in time, size and redirects).
 * Answers are cached an hour per process. A URL that refuses or fails is a plain link embed; one that would reach
 * a private address is a 400. A caller may have at most `fetchesPerMinute` URLs fetched a minute (per process;
 * answers from the cache are not counted), so the API is no relay for fetching the web: 429 beyond.
 */
@Injectable()
export class EmbedsService {
  private readonly cache = new TtlCache<string, Embed>(CACHE_MS, CACHE_ENTRIES);
  private readonly fetches = new FixedWindows(60_000);

  constructor(
    private readonly settings: EmbedSettings,
    private readonly resolver: HostResolver,
    private readonly clock: Clock,
    private readonly spaces: SpacesService,
  ) {}

  async inSpace(actor: Actor, spaceId: string, url: string): Promise<Embed> {
    await this.spaces.getLive(actor, spaceId);
    return this.embed(actor, url);
  }

  async embed(actor: Actor, raw: string): Promise<Embed> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new InvalidInputError('url must be an absolute http or https URL');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || raw.length > 2048)
      throw new InvalidInputError('url must be an absolute http or https URL');
    const key = url.href;
    const now = this.clock.now().getTime();
    const hit = this.cache.get(key, now);
    if (hit) return hit;
    const limit = this.settings.fetchesPerMinute;
    if (limit > 0 && this.fetches.hit(`u:${actor.userId}`, now) > limit)
      throw new TooManyRequestsError(`At most ${limit} new URLs a minute may be embedded per caller; try again in a minute`);
    const embed = await this.resolve(key);
    this.cache.set(key, embed, now);
    return embed;
  }

  private async resolve(url: string): Promise<Embed> {
    let page;
    try {
      page = await this.get(url, PAGE_MAX_BYTES);
    } catch (e) {
      if (e instanceof SafeGetError && (e.reason === 'private-address' || e.reason === 'host-not-allowed' || e.reason === 'bad-url'))
        throw new InvalidInputError(`url cannot be embedded: it ${e.message}`);
      return embedOf(url, {}, null);
    }
    const isHtml = /text\/html|application\/xhtml/i.test(page.contentType ?? '');
    if (page.status !== 200 || !isHtml) return embedOf(page.url, {}, null);
    const meta = pageMeta(page.bytes.toString('utf8'), page.url);
    let oembed: Record<string, unknown> | null = null;
    if (meta.oembed) {
      try {
        const answer = await this.get(meta.oembed, OEMBED_MAX_BYTES);
        const parsed: unknown = answer.status === 200 ? JSON.parse(answer.bytes.toString('utf8')) : null;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) oembed = parsed as Record<string, unknown>;
      } catch {
        oembed = null; // an oEmbed endpoint that fails or lies leaves the page's own tags
      }
    }
    return embedOf(page.url, meta, oembed);
  }

  private get(url: string, maxBytes: number) {
    return safeGet(url, {
      maxBytes,
      timeoutMs: this.settings.timeoutMs,
      maxRedirects: 5,
      hostAllowed: () => true,
      privateAllowed: (host) => this.settings.privateHostAllowlist.includes(host.toLowerCase()),
      resolve: (host) => this.resolver.lookup(host),
      headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.5', 'user-agent': 'Quire embeds' },
    });
  }
}
