import { HttpException, Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/shared-kernel';
import type { QuireConfig } from '../config';
import { QUIRE_CONFIG } from '../tokens';

const WINDOW_MS = 60_000;
const SWEEP_AT = 50_000;

/**
 * Failed authentications per client address (fixed one-minute windows, in process memory). A client
 * over QUIRE_AUTH_FAILURES_PER_MINUTE gets 429 *before* its token is looked up, so a flood of invalid
 * tokens costs neither database queries nor cache work. 0 turns it off.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 (with Retry-After seconds in the message and `retryAfter`) while the address is over its limit. */
  check(address: string): void {
    const limit = this.config.authFailuresPerMinute;
    if (limit === 0) return;
    const w = this.windows.get(address);
    const now = this.clock.now().getTime();
    if (!w || now - w.start >= WINDOW_MS || w.count < limit) return;
    const retryAfter = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    throw Object.assign(new HttpException(`Too many failed authentications from this address; retry in ${retryAfter} s`, 429), { retryAfter });
  }

  failed(address: string): void {
    if (this.config.authFailuresPerMinute === 0) return;
    const now = this.clock.now().getTime();
    let w = this.windows.get(address);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size >= SWEEP_AT) for (const [k, v] of this.windows) if (now - v.start >= WINDOW_MS) this.windows.delete(k);
      w = { start: now, count: 0 };
      this.windows.set(address, w);
    }
    w.count += 1;
  }
}
