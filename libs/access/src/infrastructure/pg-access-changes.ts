import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Db, listen, Listener } from '@app/persistence';
import { AccessChange, AccessChanges } from '../application/access-changes';

const CHANNEL = 'quire_access_changes';

/**
 * AccessChanges over PostgreSQL LISTEN/NOTIFY, the database every API process already shares. While
 * the channel is down, the caches' TTLs (QUIRE_TOKEN_CACHE_TTL_MS, QUIRE_ROLE_CACHE_TTL_MS) bound how
 * stale another process can be; when it comes back, every cache is dropped (it may have missed some).
 */
@Injectable()
export class PgAccessChanges extends AccessChanges implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AccessChanges');
  private listener: Listener | null = null;

  constructor(private readonly db: Db) {
    super();
  }

  onModuleInit(): void {
    this.listener = listen(
      this.db.url,
      CHANNEL,
      (payload) => {
        const change = parse(payload);
        if (change) this.deliver(change);
      },
      () => this.deliver({ kind: 'reset' }),
      (e) => this.logger.warn(`access-change channel: ${e instanceof Error ? e.message : String(e)}; caches fall back to their TTL`),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener?.close();
  }

  get connected(): boolean {
    return this.listener?.connected ?? false;
  }

  protected async broadcast(change: AccessChange): Promise<void> {
    await this.db.notify(CHANNEL, JSON.stringify(change));
  }
}

function parse(payload: string): AccessChange | null {
  try {
    const c = JSON.parse(payload) as Partial<Record<string, unknown>>;
    if (c.kind === 'token' && typeof c.hash === 'string') return { kind: 'token', hash: c.hash };
    if (c.kind === 'role' && typeof c.organizationId === 'string' && typeof c.userId === 'string')
      return { kind: 'role', organizationId: c.organizationId, userId: c.userId };
    if (c.kind === 'grants' && typeof c.organizationId === 'string') return { kind: 'grants', organizationId: c.organizationId };
  } catch {
    // not ours
  }
  return null;
}
