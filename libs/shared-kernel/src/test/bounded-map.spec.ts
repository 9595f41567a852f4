import { BoundedMap } from '../bounded-map';

describe('BoundedMap', () => {
  it('keeps at most its size, dropping the oldest key; replacing a key drops nothing', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    m.set('a', 3);
    expect([...m.entries()]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    m.set('c', 4);
    expect([...m.keys()]).toEqual(['b', 'c']);
    expect(m.get('a')).toBeUndefined();
  });
});
