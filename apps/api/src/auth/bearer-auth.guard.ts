import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { IdentityService } from '@app/organizations-and-teams';
import { Actor, IS_PUBLIC, UnauthenticatedError } from '@app/shared-kernel';

/** Global guard: every route needs `Authorization: Bearer <token>` unless marked @Public(). */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request & { actor?: Actor }>();
    const header = req.headers.authorization;
    if (!header) throw new UnauthenticatedError();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>"');
    req.actor = await this.identity.authenticate(match[1]);
    return true;
  }
}
