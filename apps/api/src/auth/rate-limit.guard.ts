import { CanActivate, ExecutionContext, HttpException, Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Db } from '@app/persistence';
import { Actor, Clock, FixedWindows } from '@app/shared-kernel';
import type { QuireConfig } from '../config';
import { QUIRE_CONFIG } from '../tokens';
import { SharedWindows, WINDOW_MS, type LeaseAnswer, type LeaseStore } from './shared-windows';
import { clientAddress } from '../http/client-address';
import { InternalHttp } from '../mcp/internal-http';

/** Leases in table `rate_limits`: one statement, under the key's row lock, resets an ended window and grants within the limit. */
class PostgresLeases implements LeaseStore {
  constructor(private readonly db: Db) {}

  async lease(key: string, now: number, chunk: number, limit: number): Promise<LeaseAnswer> {
    const rows: { window_start: string; leased: number; last_grant: number }[] = await this.db.query(
      `INSERT INTO rate_limits AS r (key, window_start, leased, last_grant)
         VALUES ($1, $2::bigint, LEAST($3::int, $4::int), LEAST($3::int, $4::int))
       ON CONFLICT (key) DO UPDATE SET
         window_start = CASE WHEN r.window_start + ${WINDOW_MS} <= $2::bigint THEN $2::bigint ELSE r.window_start END,
         leased = CASE WHEN r.window_start + ${WINDOW_MS} <= $2::bigint THEN LEAST($3::int, $4::int)
                       ELSE r.leased + LEAST($3::int, GREATEST(0, $4::int - r.leased)) END,
         last_grant = CASE WHEN r.window_start + ${WINDOW_MS} <= $2::bigint THEN LEAST($3::int, $4::int)
                           ELSE LEAST($3::int, GREATEST(0, $4::int - r.leased)) END
       RETURNING window_start, leased, last_grant`,
      [key, now, chunk, limit],
    );
    return { windowStart: Number(rows[0].window_start), leased: rows[0].leased, granted: rows[0].last_grant };
  }

  async sweep(before: number): Promise<void> {
    await this.db.query('DELETE FROM rate_limits WHERE window_start < $1', [before]);
  }
}

/**
 * Fixed-window rate limit per API token (per client address on public routes), QUIRE_RATE_LIMIT_PER_MINUTE
 * across all API processes: each process leases parts of a key's limit from PostgreSQL (`SharedWindows`: no
 * round trip per request, never more than the limit in all; up to (processes − 1) × a lease refused early).
 * A key's window starts with its first request. 0 turns it off. When PostgreSQL cannot be reached, the
 * process counts alone until it can. Runs after the Bearer guard, so the token is known. Every answer to an
 * authenticated caller says where it stands, as the hosted GitBook API does: `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix seconds when the window ends), and `Retry-After` on a 429.
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly leases: PostgresLeases;
  private readonly shared: SharedWindows;
  private readonly alone = new FixedWindows();
  private readonly sweeper: NodeJS.Timeout;
  private warnedAt = 0;

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    private readonly clock: Clock,
    db: Db,
    private readonly internal: InternalHttp,
  ) {
    this.leases = new PostgresLeases(db);
    this.shared = new SharedWindows(this.leases, Math.max(1, config.rateLimitPerMinute));
    // Ended windows are removed every minute (any process may: the statement is idempotent).
    this.sweeper = setInterval(() => {
      if (this.config.rateLimitPerMinute > 0) this.leases.sweep(this.clock.now().getTime() - 2 * WINDOW_MS).catch(() => undefined);
    }, WINDOW_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.rateLimitPerMinute;
    if (limit === 0) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { actor?: Actor }>();
    // A tool of an MCP call, made by this process: the /mcp request itself was counted.
    if (this.internal.isInternal(req.headers)) return true;
    // A site visitor's tokens cost nothing to get: their calls count against the address, as anonymous ones do.
    const key = req.actor && !req.actor.reader ? `t:${req.actor.tokenId}` : `ip:${clientAddress(req)}`;
    const now = this.clock.now().getTime();
    let allowed: boolean;
    let remaining: number;
    let resetAt: number;
    try {
      ({ allowed, remaining, resetAt } = await this.shared.hit(key, now));
    } catch (e) {
      if (now - this.warnedAt > WINDOW_MS) {
        this.warnedAt = now;
        this.logger.warn(
          `the shared rate limit is unavailable, counting in this process alone: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      const count = this.alone.hit(key, now);
      allowed = count <= limit;
      remaining = Math.max(0, limit - count);
      resetAt = this.alone.resetAt(key, now);
    }
    const res = http.getResponse<Response>();
    if (req.actor) {
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, remaining)));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetAt / 1000)));
    }
    if (!allowed) {
      const retryAfter = SharedWindows.retryAfter(resetAt, now);
      res.setHeader('Retry-After', String(retryAfter));
      throw new HttpException(`Too many requests: at most ${limit} a minute; retry in ${retryAfter} s`, 429);
    }
    return true;
  }
}
