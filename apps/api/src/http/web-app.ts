import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';

/**
 * The web app's own Content-Security-Policy (#50): its scripts and styles from its origin only (no inline ones,
 * no `unsafe-inline`), API calls to the same origin, and never inside a frame.
 */
export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built web app (dist/web, `npm run build`) at `path` (APP_URL's path, `/app` by default): its hashed
 * assets cached for a year, and its page for every other address below it (the app's own routes), never
 * cached; `document.css`, the published sites' stylesheet and code colours kept inside the app's
 * `.document-preview` elements (the site renderer's `documentCss`). Without a build (an API-only checkout) the app's paths answer 404 like any unknown path.
 */
export function webApp(path: string, documentCss: string, dir = join(process.cwd(), 'dist', 'web')) {
  const index = join(dir, 'index.html');
  const html = existsSync(index) ? readFileSync(index) : null;
  const assets = express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false });
  const base = path.replace(/\/+$/, '');
  return (req: Request, res: Response, next: NextFunction) => {
    if (!html || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (req.path !== base && !req.path.startsWith(`${base}/`)) return next();
    res.setHeader('Content-Security-Policy', WEB_APP_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    if (req.path.startsWith(`${base}/assets/`)) {
      req.url = req.url.slice(`${base}/assets`.length);
      void assets(req, res, (err?: unknown) => {
        if (err) res.status(404).json({ error: { code: 404, message: `Cannot GET ${req.originalUrl}` } });
      });
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    // The site renderer's HTML looks as on the published site: its stylesheet and code colours, scoped.
    if (req.path === `${base}/document.css`) return void res.type('css').send(documentCss);
    res.type('html').send(html);
  };
}

/** The path the app is served at: APP_URL's path when it is on the API's origin, else `/app`. */
export function webAppPath(appUrl: string | null): string {
  if (!appUrl) return '/app';
  return new URL(appUrl).pathname.replace(/\/+$/, '') || '/app';
}
