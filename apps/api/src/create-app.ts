import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, NextFunction, Request, Response } from 'express';
import type { Actor } from '@app/shared-kernel';
import { Authenticator } from './auth/bearer-auth.guard';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import type { QuireConfig } from './config';
import { verifyJsonDepth } from './http/json-depth';
import { PathParamPipe, rejectHostileStrings } from './http/hostile-input';
import { linksMiddleware } from './http/links.middleware';
import { webApp, webAppPath } from './http/web-app';
import { CodeHighlighter, documentCss } from '@app/site-renderer';
import { preferMinimal } from './http/prefer-minimal';
import { siteHosts } from './http/site-hosts';
import { SiteHostnames } from '@app/sites-and-publishing';
import { DATABASE_UNAVAILABLE, Db } from '@app/persistence';
import { ErrorEnvelopeFilter } from './http/error.filter';
import { defaultIconSvg } from '@app/site-renderer';
import { createRootLogger, PinoNestLogger, requestLogger } from './http/logger';
import { mountSwagger } from './swagger';
import { memoizeValidationMetadata } from './http/validation-metadata-memo';
import { MetricsService } from './metrics/metrics.service';
import { QuireExpressAdapter } from './http/express-adapter';

import { FrontDoor, type ProxyTrust } from '@app/http-kit';
const CONTENT_WRITE_ROUTE = /^\/v1\/spaces\/[^/]+\/change-requests\/[^/]+\/content$/;
/** OpenAPI documents sent as `text` (up to 10 MB of text, more once JSON-escaped): create, and PUT by slug. */
const OPENAPI_CREATE_ROUTE = /^\/v1\/orgs\/[^/]+\/openapi$/;
const OPENAPI_PUT_ROUTE = /^\/v1\/orgs\/[^/]+\/openapi\/[^/]+$/;
/** A Git host's push webhook (git-sync): its raw body is kept to check the signature. */
const GIT_WEBHOOK_ROUTE = /^\/v1\/spaces\/[^/]+\/git\/webhook$/;

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) =>
      m.startsWith(e.property) ? `${prefix ? `${prefix}.` : ''}${m}` : `${path}: ${m}`,
    );
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  forbidUnknownValues: true,
  exceptionFactory: (errors) => new BadRequestException(flatten(errors).join('; ') || 'Invalid input'),
});

/** Answers malformed HTTP (bad request line, oversized headers) in the error envelope instead of Node's bare 400. */
export function envelopeClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const code = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ error: { code, message: code === 431 ? 'Request headers too large' : 'Malformed HTTP request' } });
    socket.end(
      `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** Everything main.ts and the e2e tests share: pipes, prefix, body limits, logging, docs. */
export function configureApp(app: NestExpressApplication, config: QuireConfig, logger: Logger): void {
  app.useLogger(new PinoNestLogger(logger));
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  // A site's own hostname serves that site and nothing else (docs/deployment.md, "Custom hostnames").
  app.use(siteHosts(app.get(SiteHostnames), config.publicUrl));
  // Browsers ask every origin for /favicon.ico: the API's own answers Quire's icon (a site's host got its site's above).
  const icon = Buffer.from(defaultIconSvg(), 'utf8');
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/favicon.ico' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(icon);
  });
  // The web app (#50), with its own CSP: its page for every address below APP_URL's path, its hashed assets.
  app.use(webApp(webAppPath(config.appUrl), documentCss('.document-preview', app.get(CodeHighlighter).css())));
  // Content batches may carry up to 20 files of 1 MB as base64, OpenAPI documents up to 10 MB: a larger
  // limit on those routes only, and only for an authenticated caller (an anonymous client cannot make
  // the server parse 32 MB).
  const authenticator = app.get(Authenticator);
  const errors = new ErrorEnvelopeFilter(app.get(Db));
  const contentJson = json({ limit: config.contentBodyLimit, verify: verifyJsonDepth });
  const largeBody = (req: Request) =>
    (req.method === 'POST' && (CONTENT_WRITE_ROUTE.test(req.path) || OPENAPI_CREATE_ROUTE.test(req.path))) ||
    (req.method === 'PUT' && OPENAPI_PUT_ROUTE.test(req.path));
  app.use((req: Request & { actor?: Actor }, res: Response, next: NextFunction) => {
    if (!largeBody(req)) return next();
    authenticator.authenticate(req, res).then(
      (actor) => {
        req.actor = actor;
        // A site visitor's token (anyone may get one) writes nothing: it is not worth parsing 32 MB for.
        if (actor.reader)
          return void res
            .status(403)
            .json({ error: { code: 403, message: 'A visitor token reads only the published content of its site' } });
        contentJson(req, res, next);
      },
      (e: unknown) => {
        // The same answer as a guard's: 401/429 as they are, 503 (try again) while the database is unreachable.
        const { status, message } = errors.describe(e);
        if (status === 500) logger.error({ err: e }, 'authentication failed unexpectedly');
        if (status === 503) res.setHeader('Retry-After', String(DATABASE_UNAVAILABLE.retryAfterSeconds));
        res.status(status).json({ error: { code: status, message } });
      },
    );
  });
  // A Git host's push webhook is checked against an HMAC of its exact bytes: those are kept for that route only.
  const keepRawForWebhooks = (req: Request & { rawBody?: Buffer }, res: unknown, body: Buffer) => {
    verifyJsonDepth(req, res, body);
    if (GIT_WEBHOOK_ROUTE.test(req.path ?? req.url)) req.rawBody = body;
  };
  app.useBodyParser('json', { limit: config.bodyLimit, verify: keepRawForWebhooks } as Parameters<
    NestExpressApplication['useBodyParser']
  >[1]);
  // SAML identity providers POST the SAMLResponse as a form.
  app.useBodyParser('urlencoded', { limit: config.bodyLimit, extended: false });
  app.use(rejectHostileStrings);
  app.use(requestLogger(logger));
  if (config.metrics) {
    const metrics = app.get(MetricsService);
    app.use(metrics.middleware());
    app.use('/metrics', metrics.endpoint(config.metricsToken));
  }
  app.use(linksMiddleware(config.publicUrl, config.appUrl));
  // Published pages kept whole are answered before Express (FrontDoor; docs/published-sites.md, "Warm pages").
  const adapter = app.getHttpAdapter();
  // Only a server that asks the front door gets answers kept for it (Nest's own server, the fallback, does not).
  if (adapter instanceof QuireExpressAdapter && adapter.ownServer) {
    const door = app.get(FrontDoor);
    // Forwarding headers count in its keys only from the proxies Express trusts (`trust proxy` above).
    door.open(adapter.getInstance<{ get(name: string): ProxyTrust }>().get('trust proxy fn'));
    adapter.front = (req, res) => door.answer(req, res);
  }
  app.use(preferMinimal);
  // The published sites visitors read live at urls.published (`/sites/{id}/…`), outside the API.
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/ready', 'mcp', 'sites/:siteId{/*path}'] });
  memoizeValidationMetadata();
  app.useGlobalPipes(new PathParamPipe(), validationPipe);
  mountSwagger(app);
}

/**
 * After `app.init()`: what no route answered, outside `/v1` too (where Nest's own 404 does not reach), gets
 * the error envelope instead of Express's HTML page.
 */
export function answerUnknownPaths(app: NestExpressApplication): void {
  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: { code: 404, message: `Cannot ${req.method} ${req.path}` } });
  });
}

export async function createApp(
  config: QuireConfig,
  databaseUrl: string,
  logger = createRootLogger(config.logLevel),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl), new QuireExpressAdapter(), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  configureApp(app, config, logger);
  return app;
}
