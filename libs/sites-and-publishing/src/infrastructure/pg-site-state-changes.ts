import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Db, listen, Listener } from '@app/persistence';
import { SiteStateChanges } from '../domain/site-repository';

/** Notified by the trigger on `sites` (migration SiteStateNotify): the payload is the site's id. */
const CHANNEL = 'quire_site_states';

/**
 * SiteStateChanges over PostgreSQL LISTEN/NOTIFY. Any change to a site's row, committed by any process,
 * reaches every process as soon as the notification arrives; while the channel is down, kept states expire
 * after QUIRE_SITE_STATE_TTL_MS (SiteStates), and when it comes back every kept state is dropped (some
 * notifications may have been missed).
 */
@Injectable()
export class PgSiteStateChanges extends SiteStateChanges implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SiteStateChanges');
  private listener: Listener | null = null;

  constructor(private readonly db: Db) {
    super();
  }

  onModuleInit(): void {
    this.listener = listen(
      this.db.url,
      CHANNEL,
      (siteId) => this.changed(siteId),
      () => this.changed(null),
      (e) => this.logger.warn(`site-state channel: ${e instanceof Error ? e.message : String(e)}; kept site states fall back to their TTL`),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener?.close();
  }

  get connected(): boolean {
    return this.listener?.connected ?? false;
  }
}
