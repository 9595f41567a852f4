import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Clock, InvalidInputError } from '@app/shared-kernel';
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
 * The short-lived `apiToken` of resolvePublishedContentByUrl: `qv1.{iv | ciphertext | tag}`, the site and what its
 * visitor presented (share key, visitor token, preview token, the unsigned claims the site's schema took) sealed
 * with AES-256-GCM under a key derived from the secret of preview links: nobody can read what it holds (a visitor
 * token may live far longer than an hour) or change it. Nothing is stored: each use passes the site's gate again
 * with what it holds, so an unpublished site, a revoked share link, an expired visitor token or a regenerated
 * signing key ends it (in every process within a second); otherwise time does, after an hour.
 */
@Injectable()
export class VisitorApiTokens {
  private readonly key: Buffer;

  constructor(
    settings: SitePreviewSettings,
    private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', settings.signingSecret).update('visitor-api-token key').digest();
  }

  /** A token for this visitor of the site; a 400 when what they presented is too large to carry in one. */
  issue(siteId: string, credentials: VisitorCredentials): string {
    const expires = Math.floor((this.clock.now().getTime() + VISITOR_API_TOKEN_TTL_MS) / 1000);
    const payload = JSON.stringify({
      s: siteId,
      e: expires,
      ...(credentials.shareKey !== undefined ? { k: credentials.shareKey } : {}),
      ...(credentials.token !== undefined ? { t: credentials.token } : {}),
      ...(credentials.preview !== undefined ? { p: credentials.preview } : {}),
      ...(credentials.claims !== undefined ? { c: credentials.claims } : {}),
    });
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([iv, cipher.update(payload, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const token = `${VISITOR_API_TOKEN_PREFIX}${sealed.toString('base64url')}`;
    if (token.length > VISITOR_API_TOKEN_MAX)
      throw new InvalidInputError('The visitor (its token, share key and claims) is too large to carry in an API token');
    return token;
  }

  /** The token's content when it is one of these, untouched and unexpired; null otherwise. */
  open(token: string): SealedVisitor | null {
    if (token.length > VISITOR_API_TOKEN_MAX || !token.startsWith(VISITOR_API_TOKEN_PREFIX)) return null;
    const text = token.slice(VISITOR_API_TOKEN_PREFIX.length);
    if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
    const sealed = Buffer.from(text, 'base64url');
    if (sealed.length < 12 + 16 + 2) return null;
    let body: { s?: unknown; e?: unknown; k?: unknown; t?: unknown; p?: unknown; c?: unknown };
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const plain = Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8');
      body = JSON.parse(plain) as typeof body;
    } catch {
      return null; // altered, forged, or sealed under another secret
    }
    if (typeof body.s !== 'string' || typeof body.e !== 'number' || body.e * 1000 <= this.clock.now().getTime()) return null;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return {
      siteId: body.s,
      expires: body.e * 1000,
      credentials: { shareKey: str(body.k), token: str(body.t), preview: str(body.p), ...(body.c !== undefined ? { claims: body.c } : {}) },
    };
  }
}
