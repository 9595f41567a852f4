import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Actor, Clock } from '@app/shared-kernel';
import type { QuireConfig } from '../config';
import { QUIRE_CONFIG } from '../tokens';
import { FixedWindows } from './fixed-windows';
import { clientAddress } from '../http/client-address';

/**
 * Fixed-window rate limit per API token (per client address on public routes), in process memory:
 * with N containers the effective limit is N times QUIRE_RATE_LIMIT_PER_MINUTE. 0 turns it off.
 * Runs after the Bearer guard, so the token is known. Every answer to an authenticated caller says
 * where it stands, as the hosted GitBook API does: `X-RateLimit-Limit`, `X-RateLimit-Remaining`,
 * `X-RateLimit-Reset` (Unix seconds when the window ends), and `Retry-After` on a 429.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows = new FixedWindows();

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const limit = this.config.rateLimitPerMinute;
    if (limit === 0) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { actor?: Actor }>();
    const key = req.actor ? `t:${req.actor.tokenId}` : `ip:${clientAddress(req)}`;
    const now = this.clock.now().getTime();
    const count = this.windows.hit(key, now);
    const res = http.getResponse<Response>();
    if (req.actor) {
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil(this.windows.resetAt(key, now) / 1000)));
    }
    if (count > limit) {
      const retryAfter = this.windows.retryAfter(key, now);
      res.setHeader('Retry-After', String(retryAfter));
      throw new HttpException(`Too many requests: at most ${limit} a minute; retry in ${retryAfter} s`, 429);
    }
    return true;
  }
}
