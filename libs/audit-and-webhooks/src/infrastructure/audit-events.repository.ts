import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { AuditEvent, AuditEventFilter, AuditEventRepository, NewAuditEvent } from '../domain/audit-event';

interface AuditRow {
  id: string;
  seq: string;
  organization_id: string | null;
  occurred_at: Date;
  action: string;
  actor_type: 'user' | 'system';
  actor_id: string;
  actor_label: string | null;
  token_id: string | null;
  source: 'api' | 'script';
  target_type: string;
  target_id: string;
  target_label: string | null;
  client_address: string | null;
  request_id: string | null;
  payload: Record<string, unknown>;
}

function toDomain(r: AuditRow): AuditEvent {
  return {
    id: r.id,
    organizationId: r.organization_id,
    occurredAt: r.occurred_at,
    action: r.action,
    actor: { type: r.actor_type, id: r.actor_id, ...(r.actor_label !== null ? { label: r.actor_label } : {}) },
    tokenId: r.token_id,
    source: r.source,
    target: { type: r.target_type, id: r.target_id, ...(r.target_label !== null ? { label: r.target_label } : {}) },
    clientAddress: r.client_address,
    requestId: r.request_id,
    payload: r.payload,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class SqlAuditEventRepository extends AuditEventRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async append(e: NewAuditEvent): Promise<string> {
    const rows: { id: string }[] = await this.db.query(
      `INSERT INTO audit_events (organization_id, occurred_at, action, actor_type, actor_id, actor_label, token_id, source,
         target_type, target_id, target_label, client_address, request_id, payload)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        e.organizationId,
        e.occurredAt,
        e.action,
        e.actor.type,
        e.actor.id,
        e.actor.label ?? null,
        e.tokenId,
        e.source,
        e.target.type,
        e.target.id,
        e.target.label ?? null,
        e.clientAddress,
        e.requestId,
        e.payload,
      ],
    );
    return rows[0].id;
  }

  async list(organizationId: string, f: AuditEventFilter, page: PageRequest): Promise<Page<AuditEvent>> {
    const params: unknown[] = [organizationId];
    let where = 'organization_id = $1';
    if (f.from) where += ` AND occurred_at >= $${params.push(f.from)}`;
    if (f.to) where += ` AND occurred_at <= $${params.push(f.to)}`;
    if (f.action !== undefined) where += ` AND action = $${params.push(f.action)}`;
    if (f.actor !== undefined) where += ` AND actor_id = $${params.push(f.actor)}`;
    if (f.target !== undefined) where += ` AND target_id = $${params.push(f.target)}`;
    const result = await keysetPage<AuditRow>(
      this.db,
      `SELECT * FROM audit_events WHERE ${where}`,
      params,
      {
        // Times come from the Clock in milliseconds, so the cursor's ISO text is exact.
        columns: ['q.occurred_at', 'q.seq'],
        shape: ['timestamp', 'int'],
        keyOf: (r) => [r.occurred_at.toISOString(), Number(r.seq)],
        direction: 'desc',
      },
      page,
    );
    return mapPage(result, toDomain);
  }

  async get(organizationId: string, id: string): Promise<AuditEvent | null> {
    if (!UUID.test(id)) return null;
    const rows: AuditRow[] = await this.db.query('SELECT * FROM audit_events WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async purgeBefore(cutoff: Date): Promise<number> {
    return this.db.transaction(async () => {
      await this.db.query(`SELECT set_config('quire.audit_purge', 'on', true)`);
      return this.db.execute('DELETE FROM audit_events WHERE occurred_at < $1', [cutoff]);
    });
  }
}
