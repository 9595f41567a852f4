import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { TypeOrmLogger } from './typeorm-logger';

describe('TypeOrmLogger', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failed statement at debug, with the statement and the error, never its parameters', () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    new TypeOrmLogger().logQueryError(
      new Error('duplicate key value violates unique constraint "sites_hostname"'),
      'UPDATE sites\n   SET hostname = $2\n WHERE id = $1',
      ['site-id', 'secret-value'],
    );
    expect(error).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledTimes(1);
    const message = String(debug.mock.calls[0][0]);
    expect(message).toContain('duplicate key value violates unique constraint "sites_hostname"');
    expect(message).toContain('UPDATE sites SET hostname = $2 WHERE id = $1');
    expect(message).not.toContain('secret-value');
  });

  it('warns of a slow statement, without its parameters', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    new TypeOrmLogger().logQuerySlow(1500, 'SELECT * FROM spaces WHERE id = $1', ['secret-value']);
    expect(String(warn.mock.calls[0][0])).toMatch(/^slow statement \(1500 ms\): SELECT \* FROM spaces WHERE id = \$1$/);
  });
});
