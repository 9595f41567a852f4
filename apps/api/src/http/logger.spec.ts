import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import pino from 'pino';
import { redactSecrets, requestLogger } from './logger';

/** One JSON line per finished request, with what an operator filters on. */
describe('request log lines', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    return { lines, logger: pino({ level: 'debug' }, stream) };
  };
  const request = (extra: Record<string, unknown> = {}) =>
    Object.assign(new EventEmitter(), { method: 'GET', originalUrl: '/v1/spaces/abc?x=1', baseUrl: '', headers: {}, ...extra });
  const response = (status: number) => Object.assign(new EventEmitter(), { statusCode: status, setHeader: () => undefined });

  it('carries the route template, status, duration, user id and request id', async () => {
    const { lines, logger } = capture();
    const req = request({ headers: { 'x-request-id': 'req-42' } });
    const res = response(200);
    requestLogger(logger)(req as never, res as never, () => undefined);
    Object.assign(req, { route: { path: '/v1/spaces/:spaceId' }, actor: { userId: 'u1', tokenId: 't1' } });
    res.emit('finish');
    await new Promise((r) => setImmediate(r));
    expect(lines[0]).toMatchObject({
      msg: 'request',
      reqId: 'req-42',
      method: 'GET',
      route: '/v1/spaces/:spaceId',
      url: '/v1/spaces/abc?x=1',
      status: 200,
      userId: 'u1',
      ms: expect.any(Number),
    });
  });

  it('names unmatched routes and anonymous callers as such', async () => {
    const { lines, logger } = capture();
    const req = request();
    const res = response(404);
    requestLogger(logger)(req as never, res as never, () => undefined);
    res.emit('finish');
    await new Promise((r) => setImmediate(r));
    expect(lines[0]).toMatchObject({ route: null, userId: null, status: 404, reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('never logs an upload URL’s token (a refused upload leaves the URL usable)', async () => {
    const { lines, logger } = capture();
    const req = request({ method: 'PUT', originalUrl: '/v1/storage/uploads/sEcReT-token_1?x=1' });
    const res = response(400);
    requestLogger(logger)(req as never, res as never, () => undefined);
    res.emit('finish');
    await new Promise((r) => setImmediate(r));
    expect(lines[0].url).toBe('/v1/storage/uploads/[redacted]?x=1');
    expect(JSON.stringify(lines)).not.toContain('sEcReT');
  });

  it('never logs a credential a URL carries: a visitor token, a share key, also inside the URL being resolved', () => {
    expect(
      redactSecrets('/v1/urls/published?url=https%3A%2F%2Fq.test%2Fsites%2Fs1%2F%3FshareKey%3Dk1%26x%3D1&visitorAuthToken=eyJ.a.b'),
    ).toBe('/v1/urls/published?url=https%3A%2F%2Fq.test%2Fsites%2Fs1%2F%3FshareKey%3D[redacted]%26x%3D1&visitorAuthToken=[redacted]');
    expect(redactSecrets('/v1/orgs/o/sites/s/published?visitorToken=abc&shareKey=k&share=z&jwt_token=t#f')).toBe(
      '/v1/orgs/o/sites/s/published?visitorToken=[redacted]&shareKey=[redacted]&share=[redacted]&jwt_token=[redacted]#f',
    );
    expect(redactSecrets('/v1/spaces/abc?shared=1&x=share')).toBe('/v1/spaces/abc?shared=1&x=share');
  });
});
