import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { SecretBox } from '@app/shared-kernel';
import { GitSyncConnection, GitSyncOperation, GitSyncRepository } from '../domain/git-sync';

interface ConnectionRow {
  space_id: string;
  organization_id: string;
  url: string;
  credentials: string | null;
  ref: string;
  project_directory: string;
  last_commit: string | null;
  last_revision: string | null;
  connected_by: string;
  webhook_secret: string;
  polled_at: Date | null;
  operation: { state: string; direction: string; startedAt: string; endedAt: string | null; error: string | null } | null;
  updated_at: Date;
}

interface OperationRow {
  id: string;
  space_id: string;
  organization_id: string;
  direction: string;
  url: string;
  credentials: string | null;
  ref: string;
  project_directory: string;
  commit_message: string | null;
  force: boolean;
  standalone: boolean;
  requested_at: Date;
  requested_by: string;
  change_request: string | null;
  state: string;
  attempts: number;
  started_at: Date | null;
  ended_at: Date | null;
  error: string | null;
  commit: string | null;
}

/** Git Sync's rows; credentials are sealed by the SecretBox on write and opened on read (never plaintext in a row). */
@Injectable()
export class SqlGitSyncRepository extends GitSyncRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    super();
  }

  private open(sealed: string | null): string | null {
    return sealed === null ? null : this.secrets.open(sealed);
  }

  async connection(spaceId: string): Promise<GitSyncConnection | null> {
    const rows: ConnectionRow[] = await this.db.query('SELECT * FROM git_sync WHERE space_id = $1', [spaceId]);
    return rows.length ? this.connectionOf(rows[0]) : null;
  }

  async toPoll(before: Date, limit: number): Promise<GitSyncConnection[]> {
    const rows: ConnectionRow[] = await this.db.query(
      'SELECT * FROM git_sync WHERE polled_at IS NULL OR polled_at < $1 ORDER BY polled_at NULLS FIRST LIMIT $2',
      [before, limit],
    );
    return rows.map((r) => this.connectionOf(r));
  }

  private connectionOf(r: ConnectionRow): GitSyncConnection {
    return {
      spaceId: r.space_id,
      organizationId: r.organization_id,
      remote: { url: r.url, credentials: this.open(r.credentials) },
      ref: r.ref,
      projectDirectory: r.project_directory,
      lastCommit: r.last_commit,
      lastRevision: r.last_revision,
      connectedBy: r.connected_by,
      webhookSecret: this.secrets.open(r.webhook_secret),
      polledAt: r.polled_at,
      operation: r.operation && {
        state: r.operation.state as GitSyncOperation['state'],
        direction: r.operation.direction as GitSyncOperation['direction'],
        startedAt: new Date(r.operation.startedAt),
        endedAt: r.operation.endedAt ? new Date(r.operation.endedAt) : null,
        error: r.operation.error,
      },
      updatedAt: r.updated_at,
    };
  }

  async saveConnection(c: GitSyncConnection): Promise<void> {
    const operation = c.operation && {
      ...c.operation,
      startedAt: c.operation.startedAt.toISOString(),
      endedAt: c.operation.endedAt?.toISOString() ?? null,
    };
    await this.db.query(
      `INSERT INTO git_sync (space_id, organization_id, url, credentials, ref, project_directory, last_commit, last_revision, operation, updated_at,
         connected_by, webhook_secret, polled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (space_id) DO UPDATE SET organization_id = EXCLUDED.organization_id, url = EXCLUDED.url, credentials = EXCLUDED.credentials,
         ref = EXCLUDED.ref, project_directory = EXCLUDED.project_directory, last_commit = EXCLUDED.last_commit,
         last_revision = EXCLUDED.last_revision, operation = EXCLUDED.operation, updated_at = EXCLUDED.updated_at,
         connected_by = EXCLUDED.connected_by, webhook_secret = EXCLUDED.webhook_secret, polled_at = EXCLUDED.polled_at`,
      [
        c.spaceId,
        c.organizationId,
        c.remote.url,
        c.remote.credentials === null ? null : this.secrets.seal(c.remote.credentials),
        c.ref,
        c.projectDirectory,
        c.lastCommit,
        c.lastRevision,
        operation ? JSON.stringify(operation) : null,
        c.updatedAt,
        c.connectedBy,
        this.secrets.seal(c.webhookSecret),
        c.polledAt,
      ],
    );
  }

  async enqueue(o: GitSyncOperation): Promise<void> {
    await this.db.query(
      `INSERT INTO git_sync_operations (id, space_id, organization_id, direction, url, credentials, ref, project_directory, commit_message,
         force, standalone, requested_at, requested_by, change_request, state, attempts)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'pending', 0)`,
      [
        o.id,
        o.spaceId,
        o.organizationId,
        o.direction,
        o.remote.url,
        o.remote.credentials === null ? null : this.secrets.seal(o.remote.credentials),
        o.ref,
        o.projectDirectory,
        o.commitMessage,
        o.force,
        o.standalone,
        o.requestedAt,
        o.requestedBy,
        o.changeRequest,
      ],
    );
  }

  private toDomain(r: OperationRow): GitSyncOperation {
    return {
      id: r.id,
      spaceId: r.space_id,
      organizationId: r.organization_id,
      direction: r.direction as GitSyncOperation['direction'],
      remote: { url: r.url, credentials: this.open(r.credentials) },
      ref: r.ref,
      projectDirectory: r.project_directory,
      commitMessage: r.commit_message,
      force: r.force,
      standalone: r.standalone,
      requestedAt: r.requested_at,
      requestedBy: r.requested_by,
      changeRequest: r.change_request,
      state: r.state as GitSyncOperation['state'],
      attempts: r.attempts,
      startedAt: r.started_at,
      endedAt: r.ended_at,
      error: r.error,
      commit: r.commit,
    };
  }

  async claimNext(spaceId: string, now: Date, staleBefore: Date): Promise<GitSyncOperation | null> {
    return this.db.transaction(async () => {
      // One operation of a space at a time across processes: the space's connection lock orders the claimers.
      await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('git-sync:' || $1))`, [spaceId]);
      const running: { id: string }[] = await this.db.query(
        `SELECT id FROM git_sync_operations WHERE space_id = $1 AND state = 'running' AND started_at >= $2 LIMIT 1`,
        [spaceId, staleBefore],
      );
      if (running.length) return null;
      const rows: OperationRow[] = await this.db.query(
        `WITH claimed AS (
           UPDATE git_sync_operations SET state = 'running', started_at = $2, attempts = attempts + 1
           WHERE id = (
             SELECT id FROM git_sync_operations WHERE space_id = $1 AND state IN ('pending', 'running')
             ORDER BY requested_at, seq LIMIT 1
           )
           RETURNING *
         )
         SELECT * FROM claimed`,
        [spaceId, now],
      );
      return rows.length ? this.toDomain(rows[0]) : null;
    });
  }

  async finish(id: string, o: { state: 'success' | 'failure'; endedAt: Date; error: string | null; commit: string | null }): Promise<void> {
    await this.db.query(
      `UPDATE git_sync_operations SET state = $2, ended_at = $3, error = $4, commit = COALESCE($5, commit) WHERE id = $1`,
      [id, o.state, o.endedAt, o.error, o.commit],
    );
  }

  async operation(id: string): Promise<GitSyncOperation | null> {
    const rows: OperationRow[] = await this.db.query('SELECT * FROM git_sync_operations WHERE id = $1', [id]);
    return rows.length ? this.toDomain(rows[0]) : null;
  }

  async recordChangeRequest(id: string, changeRequest: string, commit: string): Promise<void> {
    await this.db.query('UPDATE git_sync_operations SET change_request = $2, commit = $3 WHERE id = $1', [id, changeRequest, commit]);
  }

  async importOf(changeRequest: string): Promise<GitSyncOperation | null> {
    const rows: OperationRow[] = await this.db.query(
      `SELECT * FROM git_sync_operations WHERE change_request = $1 AND direction = 'import' ORDER BY seq DESC LIMIT 1`,
      [changeRequest],
    );
    return rows.length ? this.toDomain(rows[0]) : null;
  }

  async resealSecrets(): Promise<number> {
    let n = 0;
    const reseal = async (table: string, key: string, column: string) => {
      const rows: { key: string; value: string }[] = await this.db.query(
        `SELECT ${key} AS key, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL`,
      );
      for (const r of rows) {
        if (this.secrets.isCurrent(r.value)) continue;
        // Guarded on the value read: a concurrent write of a new secret wins.
        n += await this.db.execute(`UPDATE ${table} SET ${column} = $3 WHERE ${key} = $1 AND ${column} = $2`, [
          r.key,
          r.value,
          this.secrets.seal(this.secrets.open(r.value)),
        ]);
      }
    };
    await reseal('git_sync', 'space_id', 'credentials');
    await reseal('git_sync', 'space_id', 'webhook_secret');
    await reseal('git_sync_operations', 'id', 'credentials');
    return n;
  }

  async changeRequestHolding(spaceId: string, commit: string): Promise<string | null> {
    const rows: { change_request: string }[] = await this.db.query(
      `SELECT change_request FROM git_sync_operations
       WHERE space_id = $1 AND commit = $2 AND direction = 'import' AND change_request IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      [spaceId, commit],
    );
    return rows[0]?.change_request ?? null;
  }

  async spacesWithWork(staleBefore: Date): Promise<string[]> {
    const rows: { space_id: string }[] = await this.db.query(
      `SELECT DISTINCT space_id FROM git_sync_operations WHERE state = 'pending' OR (state = 'running' AND started_at < $1)`,
      [staleBefore],
    );
    return rows.map((r) => r.space_id);
  }
}
