import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Actor } from '@app/shared-kernel';
import { Links } from './links';

export const IS_PUBLIC = 'quire:isPublic';

/** Opts a route out of the global Bearer-token guard (health, docs, SSO callbacks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The authenticated caller, set by the Bearer guard. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<{ actor?: Actor }>();
  if (!req.actor) throw new Error('CurrentActor used on a route without authentication');
  return req.actor;
});

/** URL builder for `urls.*` members, based on PUBLIC_URL or the request's own origin. */
export const RequestLinks = createParamDecorator((_: unknown, ctx: ExecutionContext): Links => {
  const req = ctx.switchToHttp().getRequest<{ links?: Links }>();
  if (!req.links) throw new Error('RequestLinks used before the links middleware');
  return req.links;
});
