import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { IdentityService } from '@app/organizations-and-teams';
import { Actor, UnauthenticatedError } from '@app/shared-kernel';
import { IS_PUBLIC } from '@app/http-kit';
import { AuthFailureLimiter } from './auth-failures';
import { clientAddress } from '../http/client-address';

/**
 * Resolves `Authorization: Bearer <token>` to the caller. Failures count against the client address;
 * an address over its limit is refused (429) before any token lookup.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly identity: IdentityService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async authenticate(req: Request, res: Response): Promise<Actor> {
    const address = clientAddress(req) ?? 'unknown';
    try {
      this.failures.check(address);
    } catch (e) {
      res.setHeader('Retry-After', String((e as { retryAfter: number }).retryAfter));
      throw e;
    }
    try {
      const header = req.headers.authorization;
      if (!header) throw new UnauthenticatedError();
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>"');
      if (match[1].length > 512) throw new UnauthenticatedError('Invalid token');
      return await this.identity.authenticate(match[1]);
    } catch (e) {
      if (e instanceof UnauthenticatedError) this.failures.failed(address);
      throw e;
    }
  }
}

/** Global guard: every route needs `Authorization: Bearer <token>` unless marked @Public(). */
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
    return true;
  }
}
