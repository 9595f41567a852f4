import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Actor } from '@app/shared-kernel';
import { Links } from './links';

export const IS_PUBLIC = 'quire:isPublic';

/** Opts a route out of the global Bearer-token guard (health, docs, SSO callbacks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const WRITE_TRANSACTION = 'quire:writeTransaction';

/**
 * Marks an authenticated write handler: it runs in one unit of work, which its audit event closes
 * (AuditInterceptor), so it commits with its event or not at all. The unit of work takes its connection
 * with its first statement; no outbound I/O inside it: check and fetch first in `UnitOfWork.outside`.
 * Every authenticated POST, PUT, PATCH and DELETE handler carries it: the app refuses to start otherwise.
 */
export const WriteTransaction = () => SetMetadata(WRITE_TRANSACTION, true);

export const READS_ONLY = 'quire:readsOnly';

/**
 * Marks an authenticated POST that writes nothing: a read whose input is too large for a URL (the editor's
 * live preview). It opens no unit of work and records no audit event; it must not change anything.
 */
export const ReadsOnly = () => SetMetadata(READS_ONLY, true);

export const VISITOR_READABLE = 'quire:visitorReadable';

/**
 * Marks a read a published site's visitor may make with the `apiToken` resolvePublishedContentByUrl hands out
 * (the caller is then an Actor with a `reader` scope). Every other route refuses such a token (403).
 */
export const VisitorReadable = () => SetMetadata(VISITOR_READABLE, true);

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
