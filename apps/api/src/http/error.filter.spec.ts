import { QueryFailedError } from 'typeorm';
import { NotFoundError } from '@app/shared-kernel';
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
});
