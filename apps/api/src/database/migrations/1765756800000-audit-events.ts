import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who did what: one row per write, appended in the write's transaction. Append-only in the database
 * itself: a trigger refuses every UPDATE, and every DELETE but the retention purge's (which sets
 * `quire.audit_purge` for its own transaction). No foreign keys: an event outlives what it names.
 */
export class AuditEvents1765756800000 implements MigrationInterface {
  name = 'AuditEvents1765756800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text,
        occurred_at timestamptz NOT NULL,
        action text NOT NULL,
        actor_type text NOT NULL,
        actor_id text NOT NULL,
        actor_label text,
        token_id text,
        source text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        target_label text,
        client_address text,
        request_id text,
        payload jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query('CREATE INDEX audit_events_organization ON audit_events (organization_id, occurred_at DESC, seq DESC)');
    await q.query('CREATE INDEX audit_events_occurred ON audit_events (occurred_at)');
    await q.query(`
      CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('quire.audit_purge', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit events are append-only' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
      FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`);
    await q.query(`
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
      FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE audit_events');
    await q.query('DROP FUNCTION audit_events_append_only()');
  }
}
