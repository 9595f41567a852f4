import type { IncomingMessage } from 'node:http';

/**
 * The route template Express matched for a request (`/v1/spaces/:spaceId`), or null when none matched
 * (yet). Logs, metrics and trace spans name requests by it, never by the raw URL (ids would explode them).
 */
export function routeTemplate(req: IncomingMessage): string | null {
  const r = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  return typeof r.route?.path === 'string' ? `${r.baseUrl ?? ''}${r.route.path}` : null;
}
