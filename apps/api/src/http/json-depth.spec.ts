import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth';

describe('jsonDepthExceeds', () => {
  const nested = (n: number) => Buffer.from('['.repeat(n) + ']'.repeat(n));
  it('allows the maximum depth and refuses one more', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(nested(10_000))).toBe(true);
  });
  it('ignores brackets inside strings, including escaped quotes', () => {
    const s = JSON.stringify({ a: '[[[[' + '{'.repeat(100) + '\\"' + '[' });
    expect(jsonDepthExceeds(Buffer.from(s))).toBe(false);
  });
});
