import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhooks and their deliveries (the outbox: a delivery row commits with the write that caused it). */
export class Webhooks1765843200000 implements MigrationInterface {
  name = 'Webhooks1765843200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        active boolean NOT NULL,
        description text,
        secret text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deactivated_reason text,
        deactivated_at timestamptz,
        failure_streak integer NOT NULL DEFAULT 0,
        seq bigint GENERATED ALWAYS AS IDENTITY
      )`);
    await q.query('CREATE INDEX webhooks_organization ON webhooks (organization_id, seq)');
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        response_code integer,
        error text,
        duration_ms integer,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz,
        redelivery_of uuid
      )`);
    await q.query('CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, seq)');
    await q.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_deliveries');
    await q.query('DROP TABLE webhooks');
  }
}
