import { types } from 'pg';

const TIMESTAMPTZ: number = types.builtins.TIMESTAMPTZ;

/** pg's own parser for `timestamptz` text (postgres-date): what every form other than the common one goes to. */
const fallback = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

/** Two ASCII digits at `i` as a number, or -1. */
function two(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * A `timestamptz` in the form PostgreSQL writes with `DateStyle=ISO` —
 * `YYYY-MM-DD HH:MM:SS[.f…]±HH[:MM[:SS]]`, year 0100 to 9999 — read without regular expressions; every
 * other form (`infinity`, BC, years outside 4 digits or below 100, other date styles) goes to pg's own parser.
 * The result is the same millisecond as pg's parser gives: fractions are truncated to milliseconds, as
 * `Date.UTC` truncates pg's `1000 * parseFloat(fraction)` (timestamptz.spec.ts compares every fraction of up
 * to 5 digits and 50,000 of 6 with pg's answer; the int spec, what PostgreSQL writes in seven time zones).
 *
 * Every timestamp of every row goes through this: a page of 100 spaces has 200 of them.
 */
export function parseTimestamptz(text: string): Date | number | null {
  const n = text.length;
  if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32) return fallback(text);
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return fallback(text);
  const century = two(text, 0);
  const yy = two(text, 2);
  const month = two(text, 5);
  const day = two(text, 8);
  const hour = two(text, 11);
  const minute = two(text, 14);
  const second = two(text, 17);
  if (century < 1 || yy < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return fallback(text);
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    // Up to 6 fraction digits; the first three are the milliseconds, the rest are dropped.
    let digits = 0;
    let scale = 100;
    for (i++; i < n; i++, digits++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale = scale / 10;
    }
    if (digits === 0 || digits > 6) return fallback(text);
    ms = Math.trunc(ms);
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return fallback(text);
  const oh = two(text, i + 1);
  let offset = oh * 3600;
  i += 3;
  for (let part = 0; part < 2 && i < n; part++, i += 3) {
    const v = text.charCodeAt(i) === 58 ? two(text, i + 1) : -1;
    if (v < 0) return fallback(text);
    offset += v * (part === 0 ? 60 : 1);
  }
  if (oh < 0 || i !== n) return fallback(text);
  const utc = Date.UTC(century * 100 + yy, month - 1, day, hour, minute, second, ms);
  return new Date(sign === 45 ? utc + offset * 1000 : utc - offset * 1000);
}

/**
 * The type parsers of Quire's pool: pg's own, except `timestamptz` text (see parseTimestamptz). Given as the
 * pool's `types` option, so no other user of the pg module in the process is affected.
 */
export const PG_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): unknown {
    if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
    return types.getTypeParser(oid, format ?? 'text');
  },
};
