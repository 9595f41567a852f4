import type { NextFunction, Request, Response } from 'express';

/**
 * Updates answer 200 with the resource; `Prefer: return=minimal` asks for the official 204 instead.
 * An Express middleware rather than a Nest interceptor: with no global interceptor, Nest skips its
 * rxjs pipeline on every request (see docs/benchmarks.md).
 */
export function preferMinimal(req: Request, res: Response, next: NextFunction): void {
  if ((req.method === 'PATCH' || req.method === 'PUT') && /\breturn=minimal\b/i.test(String(req.headers.prefer ?? ''))) {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode !== 200) return json(body);
      res.setHeader('Preference-Applied', 'return=minimal');
      res.status(204).end();
      return res;
    };
  }
  next();
}
