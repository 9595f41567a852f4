import { types } from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { PG_TYPES } from '..';

const reference = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;
const value = (v: unknown) => (v instanceof Date ? `date ${v.getTime()}` : `${typeof v} ${String(v)}`);

/** The pool's timestamptz parser on what PostgreSQL really writes: whole-hour, half-hour and historic (seconds) offsets, BC, infinity. */
describe('timestamptz parsing on the pool (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new DataSource({ type: 'postgres', url: db.url, entities: [], extra: { max: 1, types: PG_TYPES } });
    await pool.initialize();
  });
  afterAll(async () => {
    await pool.destroy();
    await db.drop();
  });

  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Asia/Kathmandu', 'Europe/Paris', 'Pacific/Kiritimati', 'America/Los_Angeles'])(
    'gives the instants pg’s own parser gives, in time zone %s',
    async (zone) => {
      await pool.query(`SET TimeZone = '${zone}'`);
      const rows: { text: string; parsed: unknown }[] = await pool.query(
        `SELECT v::text AS text, v AS parsed FROM (
           SELECT timestamptz '1850-06-01 12:00:00+00' + (i * interval '7 years 13 days 5 hours 7 minutes 11.123456 seconds') AS v
           FROM generate_series(0, 60) i
           UNION ALL SELECT unnest(ARRAY[timestamptz 'infinity', timestamptz '-infinity', timestamptz '0044-03-15 12:00:00+00 BC',
             timestamptz '0099-12-31 23:59:59.999+00', timestamptz '1911-03-10 23:59:59+00', now(), clock_timestamp()])
         ) s`,
      );
      expect(rows).toHaveLength(68);
      expect(rows.filter((r) => value(r.parsed) !== value(reference(r.text))).map((r) => r.text)).toEqual([]);
      // Most of them took the fast path (it is not vacuous): whole seconds, fractions, and offsets with minutes or seconds.
      expect(rows.filter((r) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(:\d\d){0,2}$/.test(r.text)).length).toBeGreaterThan(60);
    },
  );

  it('round-trips a Date written through the pool to the same millisecond', async () => {
    await pool.query(`SET TimeZone = 'Asia/Kolkata'`);
    const written = new Date(Date.UTC(2026, 10, 27, 4, 5, 6, 789));
    const [row] = await pool.query('SELECT $1::timestamptz AS at, ($1::timestamptz)::text AS text', [written]);
    expect(row.text).toBe('2026-11-27 09:35:06.789+05:30');
    expect((row.at as Date).toISOString()).toBe(written.toISOString());
  });
});
