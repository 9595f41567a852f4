import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Actor } from '@app/shared-kernel';

/** Limits requests per API token (per client address for anonymous routes). Runs after the Bearer guard. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const actor = req.actor as Actor | undefined;
    return actor ? `token:${actor.tokenId}` : `ip:${String(req.ip)}`;
  }
}
