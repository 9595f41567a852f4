import { HttpException, Inject, Injectable } from '@nestjs/common';
import { Clock, FixedWindows } from '@app/shared-kernel';
import type { QuireConfig } from '../config';
import { QUIRE_CONFIG } from '../tokens';

/**
 * Failed authentications per client address (fixed one-minute windows, in process memory). Once an
 * address is over QUIRE_AUTH_FAILURES_PER_MINUTE its failed authentications answer 429 instead of 401;
 * its valid tokens still pass (the Authenticator checks only after a failure). 0 turns it off.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly windows = new FixedWindows();

  constructor(
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 (with `retryAfter` seconds) while the address is over its limit of failures. */
  check(address: string): void {
    const limit = this.config.authFailuresPerMinute;
    const now = this.clock.now().getTime();
    if (limit === 0 || this.windows.count(address, now) < limit) return;
    const retryAfter = this.windows.retryAfter(address, now);
    throw Object.assign(new HttpException(`Too many failed authentications from this address; retry in ${retryAfter} s`, 429), {
      retryAfter,
    });
  }

  failed(address: string): void {
    if (this.config.authFailuresPerMinute !== 0) this.windows.hit(address, this.clock.now().getTime());
  }
}
