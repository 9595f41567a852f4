import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Application as ExpressApplication } from 'express';

/** Express's application, with the request and response objects its typings leave out. */
type Application = ExpressApplication & { request: object; response: object };

/**
 * Nest's Express adapter, with an HTTP server that builds each request and response on Express's own
 * prototypes (`app.request`, `app.response`) from the start.
 *
 * Express gives them those prototypes itself when it starts handling a request
 * (`Object.setPrototypeOf(req, app.request)`, the same for `res`): V8 then sees every request change
 * its shape after construction, and everything that later reads a property of it runs on the slow
 * path. Built on those prototypes, the objects are the same, with the same chain down to Node's
 * classes, and Express's call finds them in place. A hello-world Express route answers ~80 % more
 * requests per second this way on this machine (docs/benchmarks.md).
 *
 * HTTPS and Nest's shutdown options are left to Nest's own server (Quire uses neither; TLS ends at
 * the proxy in front of it).
 */
export class QuireExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Application>();
    this.setHttpServer(
      createServer(
        { IncomingMessage: constructorOn(IncomingMessage, app.request), ServerResponse: constructorOn(ServerResponse, app.response) },
        app,
      ),
    );
  }
}

/**
 * A constructor for Node's server to call with `new`, building a `base` (IncomingMessage or ServerResponse)
 * whose prototype is `prototype` (`Reflect.construct` works whether Node defines `base` as a class or a function).
 */
function constructorOn<T>(base: T, prototype: object): T {
  function Constructed(this: unknown, ...args: unknown[]) {
    return Reflect.construct(base as unknown as new (...a: unknown[]) => object, args, new.target ?? Constructed) as object;
  }
  Constructed.prototype = prototype;
  return Constructed as unknown as T;
}
