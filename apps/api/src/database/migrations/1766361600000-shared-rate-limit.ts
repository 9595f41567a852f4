import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate limit shared by every API process: per key (a token, or a client address on public routes), the
 * window it is in and how much of its limit the processes have leased so far. Unlogged: the counts are worth
 * nothing after a crash (a window lasts a minute), and not writing them to the WAL keeps leases cheap.
 */
export class SharedRateLimit1766361600000 implements MigrationInterface {
  name = 'SharedRateLimit1766361600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key text PRIMARY KEY,
        window_start bigint NOT NULL,
        leased integer NOT NULL,
        last_grant integer NOT NULL
      );
      CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limits');
  }
}
