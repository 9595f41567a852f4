import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { SiteDirectory } from '@app/spaces-and-content';

/** The content context's SiteDirectory port: which organization a site belongs to (sites can be shared). */
@Injectable()
export class SqlSiteDirectory extends SiteDirectory {
  constructor(private readonly db: Db) {
    super();
  }

  async organizationOf(siteId: string): Promise<string | null> {
    const rows: { organization_id: string }[] = await this.db.query('SELECT organization_id FROM sites WHERE id = $1', [siteId]);
    return rows[0]?.organization_id ?? null;
  }
}
