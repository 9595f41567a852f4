import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { crossOriginHeaders, isPublicUnicast, safeGet, SafeGetError, SafeGetOptions } from '../safe-get';

/**
 * Outbound requests for a user reach plain public unicast addresses only. A loopback server listens on
 * both stacks (`::`, so IPv4-mapped literals would reach it too) and must never receive a request,
 * whatever encoding of a loopback, private or metadata address the URL (or a redirect, or a name) uses.
 */
describe('isPublicUnicast', () => {
  it.each([
    // IPv4: this network, loopback, private, CGNAT, link-local (metadata), documentation, benchmarking, reserved, multicast, broadcast
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['192.0.0.8', false],
    ['192.0.2.1', false],
    ['198.51.100.7', false],
    ['203.0.113.9', false],
    ['198.18.0.1', false],
    ['198.19.255.1', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    // IPv6: unspecified, loopback, mapped, compatible, NAT64, 6to4, Teredo, site-local, unique-local, link-local, multicast, documentation, benchmarking, discard, ORCHID
    ['::', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['0:0:0:0:0:ffff:127.0.0.1', false],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', false],
    ['::ffff:a9fe:a9fe', false],
    ['::ffff:10.0.0.1', false],
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::8.8.8.8', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b:1::8.8.8.8', false],
    ['2002:7f00:1::', false],
    ['2002:808:808::1', false],
    ['2001::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['fec0::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['2001:2::1', false],
    ['100::1', false],
    ['2001:10::1', false],
    ['4000::1', false],
    ['not an address', false],
    ['', false],
    // Plain public unicast, in every form that carries it
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4007:80e::200e', true],
  ])('%s → %s', (address, expected) => {
    expect(isPublicUnicast(address)).toBe(expected);
  });
});

describe('safeGet refuses every encoding of a non-public address, without connecting', () => {
  let target: Server;
  let redirector: Server;
  let port: number;
  let redirectorPort: number;
  const received: string[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => {
      received.push(`${req.headers.host} ${req.url}`);
      res.end('reached');
    });
    // Dual stack: an IPv4-mapped or IPv4 literal would reach it as well as ::1.
    await new Promise<void>((r) => target.listen(0, '::', r));
    port = (target.address() as AddressInfo).port;
    redirector = createServer((req, res) => {
      res.writeHead(302, { location: decodeURIComponent(req.url!.slice(1)) });
      res.end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    redirectorPort = (redirector.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => target.close(r));
    await new Promise((r) => redirector.close(r));
  });
  afterEach(() => expect(received.splice(0)).toEqual([]));

  /** Names resolve through this table; only the redirector's own name may be private (it is the test's relay). */
  const names: Record<string, string[]> = {
    'localhost.quire.test': ['127.0.0.1'],
    'metadata.quire.test': ['169.254.169.254'],
    'mapped.quire.test': ['::ffff:127.0.0.1'],
    'nat64.quire.test': ['64:ff9b::7f00:1'],
    'mixed.quire.test': ['93.184.216.34', '127.0.0.1'],
    'relay.quire.test': ['127.0.0.1'],
  };
  const options = (): SafeGetOptions => ({
    maxBytes: 1024,
    timeoutMs: 2000,
    maxRedirects: 3,
    hostAllowed: () => true,
    privateAllowed: (host) => host === 'relay.quire.test',
    resolve: async (host) => names[host] ?? [],
  });

  const encodings = (p: number): [string, string][] => [
    ['dotted', `http://127.0.0.1:${p}/`],
    ['decimal', `http://2130706433:${p}/`],
    ['hex', `http://0x7f000001:${p}/`],
    ['hex dotted', `http://0x7f.0x0.0x0.0x1:${p}/`],
    ['octal', `http://0177.0.0.1:${p}/`],
    ['short', `http://127.1:${p}/`],
    ['short hex', `http://0x7f.1:${p}/`],
    ['trailing dot', `http://127.0.0.1.:${p}/`],
    ['this network', `http://0.0.0.0:${p}/`],
    ['zero', `http://0:${p}/`],
    ['IPv6 loopback', `http://[::1]:${p}/`],
    ['IPv6 unspecified', `http://[::]:${p}/`],
    ['mapped dotted', `http://[::ffff:127.0.0.1]:${p}/`],
    ['mapped expanded', `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`],
    ['mapped hex', `http://[::ffff:7f00:1]:${p}/`],
    ['mapped zero-padded', `http://[0000:0000:0000:0000:0000:ffff:7f00:0001]:${p}/`],
    ['mapped metadata', `http://[::ffff:a9fe:a9fe]:${p}/`],
    ['IPv4-compatible', `http://[::127.0.0.1]:${p}/`],
    ['NAT64', `http://[64:ff9b::127.0.0.1]:${p}/`],
    ['6to4', `http://[2002:7f00:1::1]:${p}/`],
    ['Teredo', `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${p}/`],
    ['metadata decimal', `http://2852039166:${p}/`],
    ['name → loopback', `http://localhost.quire.test:${p}/`],
    ['name → metadata', `http://metadata.quire.test:${p}/`],
    ['name → mapped', `http://mapped.quire.test:${p}/`],
    ['name → NAT64', `http://nat64.quire.test:${p}/`],
    ['name → public and loopback', `http://mixed.quire.test:${p}/`],
  ];

  it.each(encodings(0).map(([name], i) => [name, i]))('%s', async (_name, i) => {
    const [, url] = encodings(port)[i];
    const error = await safeGet(url, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafeGetError);
    expect((error as SafeGetError).reason).toBe('private-address');
  });

  it.each(encodings(0).map(([name], i) => [name, i]))('a redirect to %s', async (_name, i) => {
    const [, url] = encodings(port)[i];
    const error = await safeGet(`http://relay.quire.test:${redirectorPort}/${encodeURIComponent(url)}`, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafeGetError);
    expect((error as SafeGetError).reason).toBe('private-address');
  });

  it('still fetches what the caller allows (the relay answers its redirect)', async () => {
    const res = await safeGet(`http://relay.quire.test:${redirectorPort}/x`, { ...options(), maxRedirects: 0 });
    expect(res.status).toBe(302);
  });
});

/**
 * Credentials never follow a redirect to another origin (host, port or scheme), as browsers, curl and git
 * behave: the first listener redirects, the second records what it receives.
 */
describe('safeGet and redirects across origins', () => {
  let first: Server;
  let second: Server;
  let firstPort: number;
  let secondPort: number;
  const received: Record<string, string | string[] | undefined>[] = [];

  beforeAll(async () => {
    second = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ ...req.headers, url: req.url, method: req.method, body });
        // B sends the chain back to the first origin.
        if (req.url === '/back') res.writeHead(307, { location: `http://127.0.0.1:${firstPort}/landed` }).end();
        else res.end('second');
      });
    });
    await new Promise<void>((r) => second.listen(0, '127.0.0.1', r));
    secondPort = (second.address() as AddressInfo).port;
    first = createServer((req, res) => {
      const target = req.url!.startsWith('/same')
        ? `/landed`
        : req.url === '/to-address'
          ? `http://127.0.0.1:${firstPort}/landed`
          : req.url === '/out-and-back'
            ? `http://127.0.0.1:${secondPort}/back`
            : `http://127.0.0.1:${secondPort}/landed`;
      if (req.url === '/landed') {
        received.push({ ...req.headers, url: req.url, method: req.method, host: `first` });
        res.end('first');
        return;
      }
      res.writeHead(req.url!.endsWith('303') ? 303 : 307, { location: target });
      res.end();
    });
    await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
    firstPort = (first.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => first.close(r));
    await new Promise((r) => second.close(r));
  });
  afterEach(() => received.splice(0));

  const secret = {
    authorization: 'Basic cXVpcmUtYm90OnMzY3JldA==',
    cookie: 'session=abc',
    'proxy-authorization': 'Basic eDp5',
    'x-api-key': 'key-123',
    'X-Quire-Signature': 'sha256=deadbeef',
    accept: 'application/x-git-upload-pack-result',
    'content-type': 'application/x-git-upload-pack-request',
    'git-protocol': 'version=2',
  };
  const options = (): SafeGetOptions => ({
    maxBytes: 1024,
    timeoutMs: 2000,
    maxRedirects: 3,
    hostAllowed: () => true,
    privateAllowed: () => true,
    resolve: async () => [],
    headers: secret,
  });

  it('drops every header that may carry a secret when the redirect leaves the origin (another port)', async () => {
    const res = await safeGet(`http://127.0.0.1:${firstPort}/repo.git/info/refs`, options());
    expect(res.bytes.toString()).toBe('second');
    expect(received).toHaveLength(1);
    const [got] = received;
    for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-quire-signature'])
      expect(got[name]).toBeUndefined();
    expect(got).toMatchObject({
      accept: 'application/x-git-upload-pack-result',
      'content-type': 'application/x-git-upload-pack-request',
      'git-protocol': 'version=2',
      'user-agent': 'Quire',
    });
  });

  it('a POST redirected elsewhere carries its body but not its credentials', async () => {
    await safeGet(`http://127.0.0.1:${firstPort}/repo.git/git-upload-pack`, { ...options(), method: 'POST', body: Buffer.from('0000') });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', 'content-length': '4' });
    expect(received[0].authorization).toBeUndefined();
  });

  it('does not send them again when the chain comes back to the first origin (A → B → A)', async () => {
    const res = await safeGet(`http://127.0.0.1:${firstPort}/out-and-back`, options());
    expect(res.bytes.toString()).toBe('first');
    expect(received.map((r) => [r.host === 'first' ? 'A' : 'B', r.url, r.authorization])).toEqual([
      ['B', '/back', undefined],
      ['A', '/landed', undefined],
    ]);
  });

  it('a POST answered 303 (or 301/302) is followed with a GET without its body, as fetch does; 307 keeps the POST', async () => {
    await safeGet(`http://127.0.0.1:${firstPort}/x-303`, { ...options(), method: 'POST', body: Buffer.from('0000') });
    expect(received[0]).toMatchObject({ method: 'GET', body: '' });
    expect(received[0]['content-type']).toBeUndefined();
    received.splice(0);
    await safeGet(`http://127.0.0.1:${firstPort}/x-307`, { ...options(), method: 'POST', body: Buffer.from('0000') });
    expect(received[0]).toMatchObject({ method: 'POST', body: '0000' });
  });

  it('keeps them on a redirect within the same origin', async () => {
    const res = await safeGet(`http://127.0.0.1:${firstPort}/same`, options());
    expect(res.bytes.toString()).toBe('first');
    expect(received[0]).toMatchObject({ authorization: secret.authorization, cookie: 'session=abc', 'x-api-key': 'key-123' });
  });

  it('a name and its address are two origins (as for browsers): localhost → 127.0.0.1 on the same port drops them', async () => {
    const named = { ...options(), resolve: async () => ['127.0.0.1'] };
    await safeGet(`http://localhost:${firstPort}/same-but-named`, named);
    expect(received[0]).toMatchObject({ host: 'first', authorization: secret.authorization });
    received.splice(0);
    await safeGet(`http://localhost:${firstPort}/to-address`, named);
    expect(received[0]).toMatchObject({ host: 'first', url: '/landed' });
    expect(received[0].authorization).toBeUndefined();
  });

  it('the headers kept across origins are only those that describe the request', () => {
    expect(crossOriginHeaders(secret)).toEqual({
      accept: 'application/x-git-upload-pack-result',
      'content-type': 'application/x-git-upload-pack-request',
      'git-protocol': 'version=2',
    });
    expect(crossOriginHeaders(undefined)).toBeUndefined();
  });
});
