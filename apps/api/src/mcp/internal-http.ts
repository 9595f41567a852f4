import { randomBytes } from 'node:crypto';
import type { Server } from 'node:net';
import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** Marks a request the app makes to itself for an MCP tool: not rate-limited again (the /mcp call was). */
export const INTERNAL_HEADER = 'x-quire-internal';

export interface InternalAnswer {
  status: number;
  /** The JSON body, parsed (null when the body is not JSON). */
  json: unknown;
  text: string;
  contentType: string;
}

/**
 * The app's own HTTP API, called over loopback on the port this process listens on: the same Express app,
 * middlewares, guards, pipes, interceptors and filters as a request from outside. MCP tools are the API
 * operations they name, with the caller's credentials: the same validation, permissions, errors and audit
 * events, operation for operation.
 */
@Injectable()
export class InternalHttp {
  /** A secret of this process: a client cannot forge an internal request. */
  readonly secret = randomBytes(24).toString('hex');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string | undefined>,
    body?: unknown,
  ): Promise<InternalAnswer> {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('the API is not listening on a TCP port: MCP tools cannot reach it');
    const host =
      address.family === 'IPv6'
        ? address.address === '::'
          ? '[::1]'
          : `[${address.address}]`
        : address.address === '0.0.0.0'
          ? '127.0.0.1'
          : address.address;
    const sent: Record<string, string> = { [INTERNAL_HEADER]: this.secret, accept: 'application/json' };
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) sent[k] = v;
    if (body !== undefined) sent['content-type'] = 'application/json';
    const res = await fetch(`http://${host}:${address.port}${url}`, {
      method,
      headers: sent,
      redirect: 'manual',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let json: unknown = null;
    if (contentType.includes('json') && text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    return { status: res.status, json, text, contentType };
  }

  /** Whether a request came from this process for an MCP tool. */
  isInternal(headers: Record<string, unknown>): boolean {
    return headers[INTERNAL_HEADER] === this.secret;
  }
}
