import type { IncomingMessage, Server } from 'node:http';
import { Controller, Get, INestApplication, Query, Req } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Request } from 'express';
import request from 'supertest';
import { callableConstructors, QuireExpressAdapter } from './express-adapter';

@Controller('probe')
class ProbeController {
  @Get()
  probe(@Req() req: Request, @Query('q') q?: string) {
    return { q: q ?? null, ip: req.ip, protocol: req.protocol, host: req.hostname, path: req.path };
  }
}

/** The adapter's server builds requests and responses on Express's prototypes; everything else is as before. */
describe('QuireExpressAdapter', () => {
  let app: INestApplication;
  let server: Server;
  const prototypes: boolean[] = [];

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [ProbeController] }).compile();
    app = moduleRef.createNestApplication(new QuireExpressAdapter());
    await app.init();
    server = app.getHttpServer() as Server;
    const express = app.getHttpAdapter().getInstance() as { request: object; response: object };
    // Before Express sees them (its own listener was added first): already on its prototypes.
    server.prependListener('request', (req: IncomingMessage, res: object) => {
      prototypes.push(Object.getPrototypeOf(req) === express.request && Object.getPrototypeOf(res) === express.response);
    });
  });
  afterAll(() => app.close());

  it('serves Nest routes on requests built with Express request and response prototypes', async () => {
    const res = await request(server).get('/probe?q=hello').set('X-Forwarded-For', '203.0.113.9');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // Express's getters and Node's own request members both answer (no trust proxy here: the socket's address).
    expect(res.body).toEqual({
      q: 'hello',
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      protocol: 'http',
      host: '127.0.0.1',
      path: '/probe',
    });
    expect(prototypes).toEqual([true]);
  });

  it('keeps a connection alive across requests and answers unknown routes as Nest does', async () => {
    const agent = request.agent(server);
    expect((await agent.get('/probe')).body.q).toBeNull();
    const missing = await agent.get('/nowhere');
    expect(missing.status).toBe(404);
    expect(prototypes.every(Boolean)).toBe(true);
  });

  it('finds Node’s request and response callable on this Node (else it would fall back to Nest’s own server)', () => {
    expect(callableConstructors()).toBe(true);
  });

  it('leaves HTTPS and the shutdown options to Nest’s own server', () => {
    const adapter = new QuireExpressAdapter();
    adapter.initHttpServer({ return503OnClosing: true });
    expect(adapter.getHttpServer()).toBeDefined();
  });
});
