import type { Request } from 'express';

/*
 * Express's `req.ip` and `req.protocol` evaluate the `trust proxy` setting on every access (parsing the
 * socket address, and X-Forwarded-For when present). Without the forwarding header there is nothing to
 * trust and both are the socket's own: these answer that case directly and defer to Express otherwise,
 * so the result is always the same as Express's.
 */

/** The client's address, as `req.ip` gives it. */
export function clientAddress(req: Request): string | undefined {
  return req.headers['x-forwarded-for'] === undefined ? req.socket.remoteAddress : req.ip;
}

/** `http` or `https`, as `req.protocol` gives it. */
export function requestProtocol(req: Request): string {
  if (req.headers['x-forwarded-proto'] === undefined) return (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return req.protocol;
}
