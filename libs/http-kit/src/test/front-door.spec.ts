import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FrontDoor } from '../front-door';

/**
 * The front door on a real loopback HTTP server: what the handler behind it answered once is answered again
 * from memory to the request that carries the same, with the same headers, while it is valid; anything else
 * goes on to the handler.
 */
describe('FrontDoor', () => {
  let server: Server;
  let port: number;
  let door: FrontDoor;
  let handled: number;
  let valid: boolean;
  let setCookie: boolean;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (door.answer(req, res)) return;
      handled++;
      const body = Buffer.from(`page for ${req.url} ${req.headers.cookie ?? ''}`);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('X-Request-Id', 'first');
      res.setHeader('ETag', '"e1"');
      if (setCookie) res.setHeader('Set-Cookie', 'quire_share_s=k');
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.end(req.method === 'HEAD' ? undefined : body);
      door.keep(req, res, body, '"e1"', () => valid);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  let trusted: boolean;
  beforeEach(() => {
    door = new FrontDoor(1024 * 1024);
    trusted = false;
    door.open(() => trusted);
    handled = 0;
    valid = true;
    setCookie = false;
  });

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers the same request again from memory, with the same headers and its own request id', async () => {
    const first = await get('/sites/s/page?x=1');
    const again = await get('/sites/s/page?x=1');
    expect(handled).toBe(1);
    expect(again.body).toBe(first.body);
    for (const name of ['content-type', 'cache-control', 'etag', 'content-length']) expect(again.headers[name]).toBe(first.headers[name]);
    expect(again.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get('/sites/s/page?x=1', { 'X-Request-Id': 'mine-42' })).headers['x-request-id']).toBe('mine-42');
    expect((await get('/sites/s/page?x=1', { 'If-None-Match': '"e1"' })).status).toBe(304);
    const head = await get('/sites/s/page?x=1', {}, 'HEAD');
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', first.headers['content-length']]);
    expect(handled).toBe(1);
  });

  it('another URL, query, host or visitor cookie is another request; other cookies do not matter', async () => {
    await get('/sites/s/page', { Cookie: 'quire_share_s=a; theme=dark' });
    await get('/sites/s/page', { Cookie: 'quire_share_s=a; theme=light' });
    expect(handled).toBe(1);
    await get('/sites/s/page', { Cookie: 'quire_share_s=b' });
    await get('/sites/s/page');
    await get('/sites/s/page?x=2');
    await get('/sites/s/page', { Cookie: 'quire_share_s=a', Host: 'docs.example.com' });
    await get('/sites/s/page', { Cookie: 'quire_share_s=a; gitbook-visitor-public={"beta":true}' });
    // One cookie whose value reads like two is not the two cookies.
    await get('/sites/s/page', { Cookie: 'quire_share_s=a%3B%20quire_visitor_s%3Db' });
    await get('/sites/s/page', { Cookie: 'quire_share_s=a; quire_visitor_s=b' });
    expect(handled).toBe(8);
  });

  it('counts forwarding headers only from a trusted proxy, as Express reads them', async () => {
    await get('/sites/s/f');
    await get('/sites/s/f', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'docs.example.com' }); // not a proxy: ignored
    expect(handled).toBe(1);
    trusted = true;
    await get('/sites/s/g');
    await get('/sites/s/g', { 'X-Forwarded-Proto': 'https' }); // through the proxy: another request
    await get('/sites/s/g', { 'X-Forwarded-Proto': 'https' });
    expect(handled).toBe(3);
  });

  it('keeps nothing until the server asks it, nor an answer whose state was already replaced, nor a huge key', async () => {
    door = new FrontDoor(1024 * 1024); // not opened
    await get('/sites/s/h');
    await get('/sites/s/h');
    expect(handled).toBe(2);
    door.open(() => false);
    valid = false;
    await get('/sites/s/h');
    valid = true;
    await get('/sites/s/h');
    await get('/sites/s/h');
    expect(handled).toBe(4);
    const long = `/sites/s/h?x=${'a'.repeat(3000)}`;
    await get(long);
    await get(long);
    expect(handled).toBe(6);
  });

  it('never answers a request with a preview cookie, an answer that set a cookie, a 404, nor one no longer valid', async () => {
    await get('/sites/s/p', { Cookie: 'quire_preview_s=t' });
    await get('/sites/s/p', { Cookie: 'quire_preview_s=t' });
    expect(handled).toBe(2);
    setCookie = true;
    await get('/sites/s/q');
    setCookie = false;
    await get('/sites/s/q');
    expect(handled).toBe(4);
    await get('/missing');
    await get('/missing');
    expect(handled).toBe(6);
    await get('/sites/s/r');
    valid = false;
    await get('/sites/s/r'); // dropped, handled again (and not kept: built under a replaced state)
    expect(handled).toBe(8);
    expect((await get('/sites/s/r', {}, 'POST')).status).toBe(200);
    expect(handled).toBe(9);
  });

  it('keeps within its byte budget, the oldest answers going first', async () => {
    door = new FrontDoor(1200); // a few answers (body, key and headers: about 200 bytes each)
    door.open(() => false);
    for (let i = 0; i < 12; i++) await get(`/sites/s/${i}`);
    expect(handled).toBe(12);
    await get('/sites/s/11');
    expect(handled).toBe(12); // the newest is kept
    await get('/sites/s/0');
    expect(handled).toBe(13); // the oldest went
  });
});
