import type { NextFunction, Request, Response } from 'express';
import type { SiteHostnames } from '@app/sites-and-publishing';

/** What the hostname routing leaves on a request it sent to a site: the Host it came by. */
export interface SiteHostRequest extends Request {
  siteHost?: string;
}

/**
 * Custom hostnames: a request whose Host is a site's `hostname` is that site's, whatever its path
 * (`https://docs.example.com/guide` is `/sites/{id}/guide`); nothing else answers at that Host, the API
 * included. The API's own host (QUIRE_PUBLIC_URL) is never looked up. Runs before anything else.
 */
export function siteHosts(hostnames: SiteHostnames, publicUrl: string | null) {
  const own = publicUrl ? new URL(publicUrl).hostname.toLowerCase() : null;
  return (req: SiteHostRequest, _res: Response, next: NextFunction): void => {
    const host = (req.hostname ?? '').toLowerCase();
    if (!host || host === own || !host.includes('.')) return next();
    hostnames.siteFor(host).then((siteId) => {
      if (siteId) {
        req.url = `/sites/${siteId}${req.url.startsWith('/') ? req.url : `/${req.url}`}`;
        req.siteHost = host;
      }
      next();
    }, next);
  };
}
