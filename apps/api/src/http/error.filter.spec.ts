import { QueryFailedError } from 'typeorm';
import { NotFoundError } from '@app/shared-kernel';
import type { Db } from '@app/persistence';
import { ErrorEnvelopeFilter } from './error.filter';

describe('the error envelope', () => {
  const filter = new ErrorEnvelopeFilter();

  it('answers a PostgreSQL deadlock or serialization failure with 409 (nothing written, try again), not 500', () => {
    for (const code of ['40P01', '40001']) {
      const driverError = Object.assign(new Error('deadlock detected'), { code });
      const failure = new QueryFailedError('UPDATE change_requests SET space_live = false WHERE space_id = $1', ['s'], driverError);
      expect(filter.describe(failure)).toEqual({ status: 409, message: expect.stringMatching(/try again/) });
    }
  });

  it('keeps other database failures internal (500, no details) and domain errors as they are', () => {
    const other = new QueryFailedError('SELECT 1', [], Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }));
    expect(filter.describe(other)).toEqual({ status: 500, message: 'Internal server error' });
    expect(filter.describe(new NotFoundError('Space', 's1'))).toEqual({ status: 404, message: expect.stringMatching(/Space/) });
  });

  it('answers 503 (try again) when the database cannot be reached: refused, terminated, shut down, pool timeout; not for other failures', () => {
    const withDb = new ErrorEnvelopeFilter({ url: 'postgres://postgres:pw@127.0.0.1:5432/quire' } as Db);
    const unavailable = { status: 503, message: expect.stringMatching(/database cannot be reached.*try again/) };
    const refusedAt = (port: number) =>
      Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED', address: '127.0.0.1', port });
    // A connection the pool could not open names the database's port; one the driver reported is the database's.
    expect(withDb.describe(refusedAt(5432))).toEqual(unavailable);
    expect(withDb.describe(new QueryFailedError('SELECT 1', [], refusedAt(5432)))).toEqual(unavailable);
    expect(
      withDb.describe(new QueryFailedError('SELECT 1', [], Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))),
    ).toEqual(unavailable);
    for (const code of ['57P01', '57P03', '08006', '08001', '53300']) {
      const driverError = Object.assign(new Error('terminating connection due to administrator command'), { code });
      expect(withDb.describe(new QueryFailedError('SELECT 1', [], driverError))).toEqual(unavailable);
    }
    expect(withDb.describe(new Error('Connection terminated unexpectedly'))).toEqual(unavailable);
    expect(withDb.describe(new Error('timeout exceeded when trying to connect'))).toEqual(unavailable);
    expect(withDb.describe(new AggregateError([refusedAt(5432), refusedAt(5432)], 'connect failed'))).toEqual(unavailable);
    // Another host's network failure is not the database's: object storage, the app calling itself, a webhook.
    const internal = 'Internal server error';
    expect(withDb.describe(refusedAt(9000))).toEqual({ status: 500, message: internal });
    expect(withDb.describe(Object.assign(new TypeError('fetch failed'), { cause: refusedAt(3000) }))).toEqual({
      status: 500,
      message: internal,
    });
    expect(filter.describe(refusedAt(5432))).toEqual({ status: 500, message: internal }); // no database known: not assumed
    // Not an outage: a bug, a constraint, a missing table.
    expect(withDb.describe(new Error('Cannot read properties of undefined'))).toEqual({ status: 500, message: internal });
    const constraint = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(withDb.describe(new QueryFailedError('INSERT', [], constraint)).status).toBe(500);
  });
});
