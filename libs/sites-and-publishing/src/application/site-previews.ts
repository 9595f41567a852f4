import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Clock } from '@app/shared-kernel';

/** The secret that signs preview links (shared by every API process) and how long a link works. */
export abstract class SitePreviewSettings {
  abstract readonly signingSecret: string;
  abstract readonly ttlMs: number;
}

/** Expiry times are rounded up to this step: the links handed out within it are equal (cacheable). */
const STEP_MS = 5 * 60_000;

/**
 * `urls.preview`: a signed, short-lived link a member gets from the API, that shows the site as it is now
 * (published or not, whatever its visibility) to whoever opens it until it expires. The token is
 * `{expires}.{HMAC(site id, expires)}`; nothing is stored, so nothing needs revoking but time.
 */
@Injectable()
export class SitePreviews {
  constructor(
    private readonly settings: SitePreviewSettings,
    private readonly clock: Clock,
  ) {}

  /** A token for the site, valid for at least the configured time less one step. */
  token(siteId: string): string {
    const expires = Math.ceil((this.clock.now().getTime() + this.settings.ttlMs) / STEP_MS) * STEP_MS;
    const seconds = Math.floor(expires / 1000);
    return `${seconds}.${this.sign(siteId, seconds)}`;
  }

  /** The token's expiry (ms since the epoch) when it is this site's and still valid, else null. */
  check(siteId: string, token: string): number | null {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const seconds = Number(match[1]);
    const expected = Buffer.from(this.sign(siteId, seconds));
    const given = Buffer.from(match[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return seconds * 1000 > this.clock.now().getTime() ? seconds * 1000 : null;
  }

  private sign(siteId: string, seconds: number): string {
    return createHmac('sha256', this.settings.signingSecret).update(`site-preview\n${siteId}\n${seconds}`).digest('base64url');
  }
}
