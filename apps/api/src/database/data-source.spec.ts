import { PG_TYPES } from '@app/persistence';
import { dataSourceOptions } from './data-source';

describe('dataSourceOptions', () => {
  it('gives the pool Quire’s type parsers (timestamptz without regexes) and never synchronizes the schema', () => {
    const options = dataSourceOptions('postgres://quire@127.0.0.1/quire') as {
      extra: { types: unknown; max: number };
      synchronize: boolean;
    };
    expect(options.extra.types).toBe(PG_TYPES);
    expect(options.extra.max).toBe(20);
    expect(options.synchronize).toBe(false);
  });
});
