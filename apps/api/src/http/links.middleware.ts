import type { NextFunction, Request, Response } from 'express';
import { Links } from '@app/http-kit';
import { requestProtocol } from './client-address';

/** Attaches the URL builder for `urls.*`: PUBLIC_URL (and APP_URL) when set, else the request's own origin. */
export function linksMiddleware(publicUrl: string | null, appUrl: string | null) {
  const fixed = publicUrl ? new Links(publicUrl, appUrl ?? `${publicUrl}/app`) : null;
  return (req: Request & { links?: Links }, _res: Response, next: NextFunction) => {
    if (fixed) req.links = fixed;
    else {
      const given = req.headers.host;
      const host = given && /^[A-Za-z0-9.\-[\]:]+$/.test(given) ? given : 'localhost';
      const origin = `${requestProtocol(req)}://${host}`;
      req.links = new Links(origin, appUrl ?? `${origin}/app`);
    }
    next();
  };
}
