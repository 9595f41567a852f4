import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';

/** Updates answer 200 with the resource; `Prefer: return=minimal` asks for the official 204 instead. */
@Injectable()
export class PreferMinimalInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if ((req.method !== 'PATCH' && req.method !== 'PUT') || !/\breturn=minimal\b/i.test(String(req.headers.prefer ?? ''))) return next.handle();
    return next.handle().pipe(
      map((body) => {
        const res = http.getResponse<Response>();
        if (res.statusCode !== 200) return body;
        res.status(204);
        res.setHeader('Preference-Applied', 'return=minimal');
        return undefined;
      }),
    );
  }
}
