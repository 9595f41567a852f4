import { Injectable, Optional } from '@nestjs/common';
import { BoundedMap, Clock } from '@app/shared-kernel';
import { PublishedState, SHARE_KEY_PATTERN, SiteRepository, SiteState, SiteStateChanges } from '../domain/site-repository';

/** How long a kept site state lives: while changes reach this process, and while they may not. */
export abstract class SiteStateSettings {
  /** While the notification channel is down (QUIRE_SITE_STATE_TTL_MS): how stale another process's change may be seen. */
  abstract readonly ttlMs: number;
  /** While it is up: a bound in case a notification is lost on a connection that still looks alive. */
  abstract readonly connectedTtlMs: number;
}

const DEFAULTS: SiteStateSettings = { ttlMs: 1_000, connectedTtlMs: 60_000 };
const STATES_MAX = 20_000;
/** Share keys remembered per site (valid or not): a visitor trying keys cannot grow it without bound. */
const KEYS_MAX = 1_000;

interface Kept {
  at: number;
  state: Promise<SiteState | null>;
  keys: Map<string, Promise<boolean>>;
}

/**
 * The state of each site this process serves (published, visibility, version, visitor key, share keys),
 * kept in memory: a warm page asks PostgreSQL nothing. A change is seen at once in the process that made it
 * and, through SiteStateChanges, in every other as soon as its notification arrives; a lost channel falls
 * back to a short TTL. A read that began before a change never lands after it: an entry is replaced, not
 * filled in, so what an evicted read brings back is dropped with it.
 */
@Injectable()
export class SiteStates {
  private readonly kept = new BoundedMap<string, Kept>(STATES_MAX);
  private readonly settings: SiteStateSettings;

  constructor(
    private readonly sites: SiteRepository,
    private readonly changes: SiteStateChanges,
    private readonly clock: Clock,
    @Optional() settings?: SiteStateSettings,
  ) {
    this.settings = settings ?? DEFAULTS;
    changes.subscribe((siteId) => (siteId === null ? this.kept.clear() : this.kept.delete(siteId)));
  }

  /**
   * The site's state and whether `shareKey` opens it; null when there is no such site. `stamp` names the
   * kept state it was read from: while `stamp(siteId)` answers the same object, nothing about the site has
   * changed (the front door gives again what was built under it: VisitorResponses).
   */
  async state(siteId: string, shareKey?: string): Promise<(PublishedState & { stamp: object }) | null> {
    const now = this.clock.now().getTime();
    const ttl = this.changes.connected ? this.settings.connectedTtlMs : this.settings.ttlMs;
    let kept = this.kept.get(siteId);
    if (!kept || now - kept.at >= ttl || now < kept.at) {
      const entry: Kept = { at: now, state: this.sites.state(siteId), keys: new Map() };
      kept = entry;
      this.kept.set(siteId, entry);
      entry.state.catch(() => this.kept.get(siteId) === entry && this.kept.delete(siteId));
    }
    const state = await kept.state;
    if (!state) return null;
    // Only a published share-link site's keys are looked up, and only keys of the shape Quire gives.
    const asked = shareKey !== undefined && state.published && state.visibility === 'share-link' && SHARE_KEY_PATTERN.test(shareKey);
    return { ...state, keyValid: asked ? await this.keyValid(kept, siteId, shareKey) : false, stamp: kept };
  }

  /** The stamp of the site's kept state while it is kept and fresh (see `state`); undefined otherwise. */
  stamp(siteId: string): object | undefined {
    const kept = this.kept.get(siteId);
    if (!kept) return undefined;
    const age = this.clock.now().getTime() - kept.at;
    return age >= 0 && age < (this.changes.connected ? this.settings.connectedTtlMs : this.settings.ttlMs) ? kept : undefined;
  }

  private keyValid(kept: Kept, siteId: string, key: string): Promise<boolean> {
    let valid = kept.keys.get(key);
    if (!valid) {
      if (kept.keys.size >= KEYS_MAX) kept.keys.clear();
      const read = this.sites.shareKeyActive(siteId, key);
      valid = read;
      kept.keys.set(key, read);
      read.catch(() => kept.keys.get(key) === read && kept.keys.delete(key));
    }
    return valid;
  }
}
