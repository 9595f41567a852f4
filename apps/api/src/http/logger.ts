import { randomUUID } from 'node:crypto';
import { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import pino, { Logger } from 'pino';
import { routeTemplate } from './route-template';

export function createRootLogger(level: string): Logger {
  return pino({ level, base: { service: 'quire' }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** Nest's logger backed by pino: every log line is one JSON object. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's `X-Request-Id` when sane, else a new UUID), echoes it, and
 * logs one JSON line per finished request (request id, method, route template, URL, status, duration,
 * user id): 5xx at error, 4xx at info, the rest at debug.
 * (Lighter than pino-http, which builds a child logger per request: see docs/benchmarks.md.)
 */
export function requestLogger(logger: Logger) {
  const logsSuccess = logger.isLevelEnabled('debug');
  const logsClientErrors = logger.isLevelEnabled('info');
  return (req: Request & { id?: string; actor?: { userId: string } }, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (logsSuccess || logsClientErrors || logger.isLevelEnabled('error')) {
      const start = process.hrtime.bigint();
      res.once('finish', () => {
        const status = res.statusCode;
        const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
        if (!logger.isLevelEnabled(level)) return;
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        logger[level](
          {
            reqId: id,
            method: req.method,
            route: routeTemplate(req),
            url: redactSecrets(req.originalUrl),
            status,
            ms: Math.round(ms * 10) / 10,
            userId: req.actor?.userId ?? null,
          },
          'request',
        );
      });
    }
    next();
  };
}

/** Query parameters that carry a credential (a visitor token, a share key), also inside an encoded URL parameter. */
const SECRET_PARAMS = /(?<=[?&]|%3F|%26)(visitorAuthToken|visitorToken|shareKey|share|jwt_token)(=|%3D)(?:(?!%26)[^&#])*/gi;

/**
 * A URL as logged: the secrets some URLs carry (an upload URL's token, a visitor token, a share key, also in the
 * URL a resolvePublishedContentByUrl GET names) replaced, so a log never holds one that works.
 */
export function redactSecrets(url: string): string {
  return url.replace(/(\/storage\/uploads\/)[^/?#]+/, '$1[redacted]').replace(SECRET_PARAMS, '$1$2[redacted]');
}
