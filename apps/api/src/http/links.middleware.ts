import type { NextFunction, Request, Response } from 'express';
import { Links } from '@app/http-kit';

/** Attaches the URL builder for `urls.*`: PUBLIC_URL (and APP_URL) when set, else the request's own origin. */
export function linksMiddleware(publicUrl: string | null, appUrl: string | null) {
  const fixed = publicUrl ? new Links(publicUrl, appUrl ?? `${publicUrl}/app`) : null;
  return (req: Request & { links?: Links }, _res: Response, next: NextFunction) => {
    if (fixed) req.links = fixed;
    else {
      const host = req.get('host') && /^[A-Za-z0-9.\-[\]:]+$/.test(req.get('host')!) ? req.get('host') : 'localhost';
      const origin = `${req.protocol}://${host}`;
      req.links = new Links(origin, appUrl ?? `${origin}/app`);
    }
    next();
  };
}
