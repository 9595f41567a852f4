import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { SiteGitSync, SiteGitSyncRepository } from '../domain/site-git-sync';

interface Row {
  site_id: string;
  organization_id: string;
  url: string;
  ref: string;
  project_directory: string;
  config_path: string;
  commit: string;
  keys: SiteGitSync['keys'];
  updated_at: Date;
}

@Injectable()
export class SqlSiteGitSyncRepository extends SiteGitSyncRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async load(siteId: string): Promise<SiteGitSync | null> {
    const rows: Row[] = await this.db.query('SELECT * FROM site_git_sync WHERE site_id = $1', [siteId]);
    return rows[0] ? toSync(rows[0]) : null;
  }

  async ofSpace(spaceId: string): Promise<SiteGitSync[]> {
    const rows: Row[] = await this.db.query(
      `SELECT * FROM site_git_sync s WHERE EXISTS (SELECT 1 FROM jsonb_each(s.keys) k WHERE k.value->>'spaceId' = $1) ORDER BY site_id`,
      [spaceId],
    );
    return rows.map(toSync);
  }

  async save(s: SiteGitSync): Promise<void> {
    await this.db.query(
      `INSERT INTO site_git_sync (site_id, organization_id, url, ref, project_directory, config_path, commit, keys, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (site_id) DO UPDATE SET url = $3, ref = $4, project_directory = $5, config_path = $6, commit = $7, keys = $8, updated_at = $9`,
      [s.siteId, s.organizationId, s.url, s.ref, s.projectDirectory, s.configPath, s.commit, JSON.stringify(s.keys), s.updatedAt],
    );
  }
}

function toSync(r: Row): SiteGitSync {
  return {
    siteId: r.site_id,
    organizationId: r.organization_id,
    url: r.url,
    ref: r.ref,
    projectDirectory: r.project_directory,
    configPath: r.config_path,
    commit: r.commit,
    keys: r.keys,
    updatedAt: r.updated_at,
  };
}
