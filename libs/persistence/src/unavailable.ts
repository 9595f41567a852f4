/**
 * Is this failure "the database cannot be reached right now" (try again), rather than a bug? PostgreSQL's
 * own answers (SQLSTATE class 08, 57P01–57P03 shutting down or starting, 53300 too many connections), pg's
 * and pg-pool's messages (a connection terminated, no free connection in time), and network failures
 * (refused, reset, timed out, unresolvable) that the driver reported (TypeORM keeps them as
 * `driverError`) or that name the database's own port (`database`: where it listens; a connection the
 * pool could not open is reported raw). A network failure of anything else (object storage, a webhook,
 * the app calling itself) is not the database's: it stays a 500.
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

export interface DatabaseAddress {
  host: string;
  port: number;
}

/** Where the database of `url` (postgres://…) listens. */
export function databaseAddress(url: string): DatabaseAddress | undefined {
  try {
    const u = new URL(url);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 5432) };
  } catch {
    return undefined;
  }
}

export function isDatabaseUnavailable(e: unknown, database?: DatabaseAddress, fromDriver = false, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const err = e as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
    port?: unknown;
    hostname?: unknown;
  };
  const code = typeof err.code === 'string' ? err.code : '';
  if (SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof err.message === 'string' && MESSAGES.some((m) => m.test(err.message as string))) return true;
  if (NETWORK_CODES.has(code)) {
    if (fromDriver) return true;
    if (database && (err.port === database.port || (code === 'ENOTFOUND' && err.hostname === database.host))) return true;
  }
  // An AggregateError (a name resolving to several addresses, each refused) carries the attempts.
  if (Array.isArray(err.errors) && err.errors.length && err.errors.every((x) => isDatabaseUnavailable(x, database, fromDriver, depth + 1)))
    return true;
  return (
    isDatabaseUnavailable(err.driverError, database, true, depth + 1) || isDatabaseUnavailable(err.cause, database, fromDriver, depth + 1)
  );
}

/** What a client is told while the database cannot be reached, and how long to wait (Retry-After, seconds). */
export const DATABASE_UNAVAILABLE = {
  message: 'The database cannot be reached right now: try again in a few seconds',
  retryAfterSeconds: 5,
} as const;
