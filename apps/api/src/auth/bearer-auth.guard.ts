import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { IdentityService, SessionsService, sessionSecret } from '@app/organizations-and-teams';
import { VISITOR_API_TOKEN_MAX, VISITOR_API_TOKEN_PREFIX, VisitorReaders } from '@app/sites-and-publishing';
import { Actor, ForbiddenError, UnauthenticatedError } from '@app/shared-kernel';
import { IS_PUBLIC, VISITOR_READABLE } from '@app/http-kit';
import { AuthFailureLimiter } from './auth-failures';
import { clientAddress, requestProtocol } from '../http/client-address';
import type { QuireConfig } from '../config';
import { QUIRE_CONFIG } from '../tokens';

/**
 * Resolves `Authorization: Bearer <token>` to the caller. Failures are throttled, not addresses: a
 * failure counts against the client address, and once the address is over its limit a failed
 * authentication answers 429 instead of 401, while a valid token from the same address (an office
 * behind one NAT, a script that misconfigured one token) still passes. A token is verified by one
 * indexed lookup (and cached), so letting every attempt reach it costs nothing worth refusing early.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly identity: IdentityService,
    private readonly sessions: SessionsService,
    private readonly failures: AuthFailureLimiter,
    private readonly readers: VisitorReaders,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async authenticate(req: Request, res: Response): Promise<Actor> {
    try {
      const header = req.headers.authorization;
      if (!header) {
        const secret = sessionSecret(req.headers.cookie);
        if (secret) return await this.session(req, secret);
        throw new UnauthenticatedError();
      }
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>"');
      if (match[1].startsWith(VISITOR_API_TOKEN_PREFIX)) return await this.visitor(match[1]);
      if (match[1].length > 512) throw new UnauthenticatedError('Invalid token');
      return await this.identity.authenticate(match[1]);
    } catch (e) {
      if (e instanceof UnauthenticatedError) this.failed(clientAddress(req) ?? 'unknown', res);
      throw e;
    }
  }

  /**
   * A published site's visitor, by the `apiToken` resolvePublishedContentByUrl handed out: no user, a member of
   * nothing; what they read is what the site shows them (VisitorReaders, checked anew on every request).
   */
  private async visitor(token: string): Promise<Actor> {
    const reader = token.length <= VISITOR_API_TOKEN_MAX ? await this.readers.reader(token) : null;
    if (!reader) throw new UnauthenticatedError('The visitor token is not valid, has expired, or its site no longer shows it anything');
    return { userId: '', tokenId: '', reader };
  }

  /**
   * The web app's session (#50): the cookie alone is never enough. Every call carries the session's CSRF token
   * (X-CSRF-Token), which only the app's own pages can know, and a browser's Origin, when it sends one, is
   * Quire's: the session works for the app only; other clients use Bearer tokens.
   */
  private async session(req: Request, secret: string): Promise<Actor> {
    const { actor } = await this.sessions.authenticate(secret);
    const csrf = req.headers['x-csrf-token'];
    if (typeof csrf !== 'string' || !this.sessions.csrfMatches(secret, csrf))
      throw new ForbiddenError('A call with the session cookie needs its X-CSRF-Token header (GET /v1/auth/session answers it)');
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== this.ownOrigin(req))
      throw new ForbiddenError('The session cookie works only for calls from Quire’s own pages');
    return actor;
  }

  private ownOrigin(req: Request): string {
    const configured = this.config.publicUrl;
    return configured ? new URL(configured).origin : `${requestProtocol(req)}://${req.headers.host ?? ''}`;
  }

  /** Counts a failure; an address already over its limit gets 429 (with Retry-After) instead of 401. */
  private failed(address: string, res: Response): void {
    try {
      this.failures.check(address);
    } catch (limited) {
      res.setHeader('Retry-After', String((limited as { retryAfter: number }).retryAfter));
      throw limited;
    } finally {
      this.failures.failed(address);
    }
  }
}

/** Global guard: every route needs `Authorization: Bearer <token>` unless marked @Public(); a visitor's token only @VisitorReadable() ones. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { actor?: Actor }>();
    req.actor ??= await this.authenticator.authenticate(req, http.getResponse<Response>());
    // A site visitor's token reads the few content reads marked for it, and nothing else.
    if (req.actor.reader && !this.reflector.get<boolean>(VISITOR_READABLE, context.getHandler()))
      throw new ForbiddenError('A visitor token reads only the published content of its site (see docs/published-sites.md)');
    return true;
  }
}
