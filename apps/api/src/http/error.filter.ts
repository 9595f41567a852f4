import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, DomainErrorKind } from '@app/shared-kernel';
import { DATABASE_UNAVAILABLE, databaseAddress, Db, isDatabaseUnavailable, type DatabaseAddress } from '@app/persistence';

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  precondition: 412,
  'too-large': 413,
  upstream: 502,
  'too-many': 429,
  unavailable: 503,
};

/** Errors of the body parser and the depth check carry `type` and `status` (http-errors). */
interface HttpLikeError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
  message?: string;
}

/**
 * PostgreSQL aborted the transaction to resolve a deadlock (40P01) or a serialization failure (40001):
 * the request wrote nothing and may simply be sent again (TypeORM keeps the driver's code on the error).
 */
function isConcurrencyFailure(exception: unknown): boolean {
  const codes = ['40P01', '40001'];
  const e = exception as { code?: unknown; driverError?: { code?: unknown } } | null;
  return !!e && typeof e === 'object' && (codes.includes(e.code as string) || codes.includes(e.driverError?.code as string));
}

/**
 * A page a person's browser asked for (a published site's, at /sites/… or at a custom hostname not yet
 * known to this process): not the API, its docs, health or MCP, not a site's JSON, feeds or markdown, and
 * HTML preferred to JSON (a browser's Accept; `*\/*` alone, as curl sends, gets JSON).
 */
function isSitePage(req: Request | undefined): boolean {
  if (!req || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const path = req.path ?? '';
  if (/^\/(v1|docs|health|mcp|metrics)(\/|$|-)/.test(path) || /(\.json|\.md|\.txt|\.xml|~mcp)$/.test(path)) return false;
  return req.accepts(['json', 'html']) === 'html';
}

const UNAVAILABLE_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Temporarily unavailable</title><h1>Temporarily unavailable</h1>' +
  '<p>This site cannot be shown right now. Please try again in a few seconds.</p></html>';

export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

/** Maps every failure to the error envelope `{ error: { code, message } }`; 5xx never carry internals. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  /** Where the database listens: a connection it refused is an outage (503), another host's is not. */
  private readonly database: DatabaseAddress | undefined;

  constructor(@Optional() db?: Db) {
    this.database = db ? databaseAddress(db.url) : undefined;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, message } = this.describe(exception);
    const details = exception instanceof DomainError ? exception.details : undefined;
    if (status === 503)
      this.logger.warn(
        exception instanceof DomainError
          ? `unavailable: ${exception.message}`
          : `database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`,
      );
    else if (status >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (res.headersSent) {
      res.end();
      return;
    }
    if (status === 503) {
      // "Try again": a client, a load balancer or a browser on a published site knows when.
      res.setHeader('Retry-After', String(DATABASE_UNAVAILABLE.retryAfterSeconds));
      res.setHeader('Cache-Control', 'no-store');
      const req = host.switchToHttp().getRequest<Request>();
      if (isSitePage(req)) {
        res.status(503).type('text/html; charset=utf-8').send(UNAVAILABLE_PAGE);
        return;
      }
    }
    // A route may have set another Content-Type (e.g. XML metadata): the envelope is always JSON.
    res
      .status(status)
      .type('application/json')
      .json(details ? { error: { code: status, message, ...details } } : errorBody(status, message));
  }

  describe(exception: unknown): { status: number; message: string } {
    if (exception instanceof DomainError) return { status: STATUS_OF_KIND[exception.kind], message: exception.message };
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      let message = exception.message;
      if (typeof response === 'object' && response !== null && 'message' in response) {
        const m = response.message;
        message = Array.isArray(m) ? m.join('; ') : String(m);
      }
      if (status === 404 && /^Cannot [A-Z]+ /.test(message)) message = `No route: ${message.replace(/^Cannot /, '')}`;
      // 503 says why (the readiness check: the database does not answer); other 5xx keep their internals.
      return { status, message: status >= 500 && status !== 503 ? 'Internal server error' : message };
    }
    if (exception instanceof URIError) return { status: 400, message: 'Malformed percent-encoding in the URL' };
    if (isDatabaseUnavailable(exception, this.database)) return { status: 503, message: DATABASE_UNAVAILABLE.message };
    if (isConcurrencyFailure(exception))
      return { status: 409, message: 'A concurrent write conflicted with this request; nothing was written: try again' };
    const e = exception as HttpLikeError;
    if (e && typeof e === 'object' && typeof e.type === 'string') {
      switch (e.type) {
        case 'entity.too.large':
          return { status: 413, message: `Request body too large (limit ${e.limit} bytes)` };
        case 'entity.parse.failed':
          return { status: 400, message: 'Malformed JSON in the request body' };
        case 'entity.too.deep':
          return { status: 400, message: e.message ?? 'JSON nested too deeply' };
        case 'encoding.unsupported':
        case 'charset.unsupported':
          return { status: 415, message: e.message ?? 'Unsupported content encoding' };
        case 'request.aborted':
          return { status: 400, message: 'Request aborted' };
        default: {
          const status = e.status ?? e.statusCode ?? 500;
          if (status >= 400 && status < 500) return { status, message: e.message ?? HttpStatus[status] ?? 'Bad request' };
        }
      }
    }
    return { status: 500, message: 'Internal server error' };
  }
}
