import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Clock } from '@app/shared-kernel';
import { SitePreviewSettings } from './site-previews';
import type { VisitorCredentials } from './visitor-gate';

/** How long a visitor's API token works. */
export const VISITOR_API_TOKEN_TTL_MS = 60 * 60_000;
/** Every visitor's API token starts with this (the Bearer guard tells them from users' tokens by it). */
export const VISITOR_API_TOKEN_PREFIX = 'qv1.';
/** The longest token opened (a visitor token and claims are bounded where they are given; this bounds the header). */
export const VISITOR_API_TOKEN_MAX = 12_288;

/** What a visitor's API token holds: the site, what the visitor presented, and when it stops working. */
export interface SealedVisitor {
  siteId: string;
  credentials: VisitorCredentials;
  /** ms since the epoch. */
  expires: number;
}

/**
 * The short-lived `apiToken` of resolvePublishedContentByUrl: `qv1.{payload}.{HMAC(payload)}`, the payload the site
 * and what its visitor presented (share key, visitor token, preview token, unsigned claims), signed with the
 * secret of preview links. Nothing is stored: each use passes the site's gate again with what it holds, so an
 * unpublished site, a revoked share link, an expired visitor token or a regenerated signing key ends it at once;
 * otherwise time does, after an hour. It carries what the caller already had, nothing more.
 */
@Injectable()
export class VisitorApiTokens {
  constructor(
    private readonly settings: SitePreviewSettings,
    private readonly clock: Clock,
  ) {}

  issue(siteId: string, credentials: VisitorCredentials): string {
    const expires = Math.floor((this.clock.now().getTime() + VISITOR_API_TOKEN_TTL_MS) / 1000);
    const payload = Buffer.from(
      JSON.stringify({
        s: siteId,
        e: expires,
        ...(credentials.shareKey !== undefined ? { k: credentials.shareKey } : {}),
        ...(credentials.token !== undefined ? { t: credentials.token } : {}),
        ...(credentials.preview !== undefined ? { p: credentials.preview } : {}),
        ...(credentials.claims !== undefined ? { c: credentials.claims } : {}),
      }),
      'utf8',
    ).toString('base64url');
    return `${VISITOR_API_TOKEN_PREFIX}${payload}.${this.sign(payload)}`;
  }

  /** The token's content when it is one of these, untouched and unexpired; null otherwise. */
  open(token: string): SealedVisitor | null {
    if (token.length > VISITOR_API_TOKEN_MAX || !token.startsWith(VISITOR_API_TOKEN_PREFIX)) return null;
    const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token.slice(VISITOR_API_TOKEN_PREFIX.length));
    if (!match) return null;
    const expected = Buffer.from(this.sign(match[1]));
    const given = Buffer.from(match[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let body: { s?: unknown; e?: unknown; k?: unknown; t?: unknown; p?: unknown; c?: unknown };
    try {
      body = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as typeof body;
    } catch {
      return null;
    }
    if (typeof body.s !== 'string' || typeof body.e !== 'number' || body.e * 1000 <= this.clock.now().getTime()) return null;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return {
      siteId: body.s,
      expires: body.e * 1000,
      credentials: {
        shareKey: text(body.k),
        token: text(body.t),
        preview: text(body.p),
        ...(body.c !== undefined ? { claims: body.c } : {}),
      },
    };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.settings.signingSecret).update(`visitor-api-token\n${payload}`).digest('base64url');
  }
}
