import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Actor, Clock } from '@app/shared-kernel';
import type { QuireConfig } from '../config';
import { QUIRE_CONFIG } from '../tokens';

const WINDOW_MS = 60_000;
const SWEEP_AT = 50_000;

/**
 * Fixed-window rate limit per API token (per client address on public routes), in process memory:
 * with N containers the effective limit is N times QUIRE_RATE_LIMIT_PER_MINUTE. 0 turns it off.
 * Runs after the Bearer guard, so the token is known.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const limit = this.config.rateLimitPerMinute;
    if (limit === 0) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { actor?: Actor }>();
    const key = req.actor ? `t:${req.actor.tokenId}` : `ip:${req.ip}`;
    const now = this.clock.now().getTime();
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
      http.getResponse<Response>().setHeader('Retry-After', String(retryAfter));
      throw new HttpException(`Too many requests: at most ${limit} a minute; retry in ${retryAfter} s`, 429);
    }
    return true;
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}
