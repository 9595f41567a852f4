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
 * the proxy in front of it), and so is everything should a Node version define its request and response
 * as classes.
 */
export class QuireExpressAdapter extends ExpressAdapter {
  /**
   * Asked first for every request (the front door: answers kept in memory, FrontDoor in http-kit); true when
   * it answered, else the request goes on to Express. Set once the application exists (configureApp).
   */
  front: ((req: IncomingMessage, res: ServerResponse) => boolean) | null = null;
  /** Whether this adapter built the server (so `front` is asked); Nest's own server never asks it. */
  ownServer = false;

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections || !callableConstructors()) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Application>();
    this.ownServer = true;
    this.setHttpServer(
      createServer(
        { IncomingMessage: constructorOn(IncomingMessage, app.request), ServerResponse: constructorOn(ServerResponse, app.response) },
        (req: IncomingMessage, res: ServerResponse) => {
          if (this.front !== null && this.answeredAtFront(req, res)) return;
          app(req, res);
        },
      ),
    );
  }

  private answeredAtFront(req: IncomingMessage, res: ServerResponse): boolean {
    try {
      return this.front!(req, res);
    } catch {
      return res.headersSent; // what the front door could not answer, Express does (unless it began to)
    }
  }
}

/**
 * A constructor for Node's server to call with `new`: runs `base` (IncomingMessage or ServerResponse, plain
 * constructor functions in Node) on an object whose prototype is `prototype`. (Building it with
 * `Reflect.construct` instead made every request ~2× slower: V8 does not inline that path.)
 */
function constructorOn<T>(base: T, prototype: object): T {
  const init = base as unknown as (this: object, ...args: unknown[]) => void;
  function Constructed(this: object, ...args: unknown[]) {
    init.apply(this, args);
  }
  Constructed.prototype = prototype;
  return Constructed as unknown as T;
}

/** Whether Node defines its request and response as plain constructor functions (a class cannot be called on `this`). */
export function callableConstructors(): boolean {
  return [IncomingMessage, ServerResponse].every((c) => !/^class\b/.test(Function.prototype.toString.call(c)));
}
