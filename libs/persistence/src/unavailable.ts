/**
 * Is this failure "the database cannot be reached right now" (try again), rather than a bug? Connection
 * refused, reset or timed out; a connection the server terminated (shut down, restarted, crashed: SQLSTATE
 * class 08, 57P01–57P03); too many connections (53300); no free connection in the pool in time. TypeORM
 * keeps the driver's error as `driverError`; pg-pool's and pg's own messages carry no code.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^the database system is (starting up|shutting down|in recovery mode)/,
  /^terminating connection due to administrator command/,
];

export function isDatabaseUnavailable(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const err = e as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof err.code === 'string' ? err.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')) return true;
  if (typeof err.message === 'string' && MESSAGES.some((m) => m.test(err.message as string))) return true;
  // An AggregateError (a name resolving to several addresses, each refused) carries the attempts.
  if (Array.isArray(err.errors) && err.errors.length && err.errors.every((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(err.driverError, depth + 1) || isDatabaseUnavailable(err.cause, depth + 1);
}

/** What a client is told while the database cannot be reached, and how long to wait (Retry-After, seconds). */
export const DATABASE_UNAVAILABLE = {
  message: 'The database cannot be reached right now: try again in a few seconds',
  retryAfterSeconds: 5,
} as const;
