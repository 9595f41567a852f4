import { types } from 'pg';
import { parseTimestamptz, PG_TYPES } from './timestamptz';

/** pg's own parser (postgres-date): the reference every answer must equal. */
const reference = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = reference(text);
  const value = (v: Date | number | null) => (v instanceof Date ? `date ${v.getTime()}` : `${typeof v} ${String(v)}`);
  return value(ours) === value(theirs) ? null : `${text}: ${value(ours)} ≠ ${value(theirs)}`;
};

/** A deterministic generator (mulberry32), so a failure names a case that reproduces. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (v: number, width = 2) => String(v).padStart(width, '0');

describe('parseTimestamptz', () => {
  it('reads the common form to the same millisecond as pg’s parser: every fraction of up to 5 digits, 50,000 of 6', () => {
    const mismatches: string[] = [];
    const check = (fraction: string) => {
      const miss = same(`2026-11-27 04:05:06.${fraction}+00`);
      if (miss) mismatches.push(miss);
    };
    for (let digits = 1; digits <= 5; digits++) for (let f = 0; f < 10 ** digits; f++) check(pad(f, digits));
    const next = random(6);
    for (let k = 0; k < 50_000; k++) check(pad(Math.floor(next() * 1e6), 6));
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('agrees with pg’s parser on 20,000 random timestamps: years 100–9999, any offset PostgreSQL writes', () => {
    const next = random(20261127);
    const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)];
    const offsets = ['+00', '-00', '+01', '-05', '+05:30', '-03:30', '+05:45', '+13', '-12', '+14', '+00:09:21', '-00:25:21', '+01:22:00'];
    const mismatches: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const year = 100 + Math.floor(next() * 9900);
      const fraction = pick(['', '.5', '.25', '.125', '.0625', '.000001', '.999999', `.${pad(Math.floor(next() * 1e6), 6)}`]);
      const text =
        `${pad(year, 4)}-${pad(1 + Math.floor(next() * 12))}-${pad(1 + Math.floor(next() * 28))} ` +
        `${pad(Math.floor(next() * 24))}:${pad(Math.floor(next() * 60))}:${pad(Math.floor(next() * 60))}${fraction}${pick(offsets)}`;
      const miss = same(text);
      if (miss) mismatches.push(miss);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('parses the common form itself: a UTC instant, with an offset applied in its direction', () => {
    expect((parseTimestamptz('2026-11-27 04:05:06.789+00') as Date).toISOString()).toBe('2026-11-27T04:05:06.789Z');
    expect((parseTimestamptz('2026-11-27 09:35:06+05:30') as Date).toISOString()).toBe('2026-11-27T04:05:06.000Z');
    expect((parseTimestamptz('2026-11-27 00:35:06.5-03:30') as Date).toISOString()).toBe('2026-11-27T04:05:06.500Z');
    expect((parseTimestamptz('1900-01-01 00:09:21+00:09:21') as Date).toISOString()).toBe('1900-01-01T00:00:00.000Z');
  });

  it.each([
    ['infinity'],
    ['-infinity'],
    ['0044-03-15 12:00:00+00 BC'],
    ['2026-11-27 04:05:06+00 BC'],
    ['0099-12-31 23:59:59+00'],
    ['0001-01-01 00:00:00+00'],
    ['12026-11-27 04:05:06+00'],
    ['2026-11-27T04:05:06Z'],
    ['2026-11-27 04:05:06'],
    ['2026-11-27 04:05:06.+00'],
    ['2026-11-27 04:05:06.1234567+00'],
    ['2026-11-27 04:05:06+5'],
    ['2026-11-27 04:05:06+05:3'],
    ['2026-11-27 04:05:06+05:30:15:00'],
    ['2026-11-27 04:05:06+05 '],
    ['2026-1a-27 04:05:06+00'],
    ['2026-11-27'],
    [''],
  ])('gives %j the answer pg’s own parser gives (other forms are left to it)', (text) => {
    expect(same(text)).toBeNull();
  });

  it('is the pool’s parser for timestamptz text only: every other type, and binary, stays pg’s', () => {
    expect(PG_TYPES.getTypeParser(types.builtins.TIMESTAMPTZ, 'text')).toBe(parseTimestamptz);
    expect(PG_TYPES.getTypeParser(types.builtins.TIMESTAMPTZ)).toBe(parseTimestamptz);
    expect(PG_TYPES.getTypeParser(types.builtins.TIMESTAMP, 'text')).toBe(types.getTypeParser(types.builtins.TIMESTAMP, 'text'));
    expect(PG_TYPES.getTypeParser(types.builtins.INT8, 'text')).toBe(types.getTypeParser(types.builtins.INT8, 'text'));
    expect(PG_TYPES.getTypeParser(types.builtins.TIMESTAMPTZ, 'binary')).toBe(types.getTypeParser(types.builtins.TIMESTAMPTZ, 'binary'));
  });
});
