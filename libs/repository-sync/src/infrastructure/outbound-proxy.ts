import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { checkedAddress, SafeGetError } from '@app/shared-kernel';

export interface OutboundProxyOptions {
  /** May this host resolve to a private or loopback address? */
  privateAllowed: (host: string) => boolean;
  resolve: (host: string) => Promise<string[]>;
  /** The most bytes the remote may send, over every connection of the proxy's life. */
  maxBytes: number;
}

/** A proxy for one child process: the URL it is given, why it last refused, and its end. */
export interface OutboundProxy {
  /** `http://quire:<secret>@127.0.0.1:<port>`: only the process told the secret gets through. */
  url: string;
  /** Why the proxy last refused or cut a connection (a host's address, the size), for the person who reads the error. */
  refusal(): string | null;
  /** When a byte last went through. */
  lastActivity(): number;
  /** Connections to remotes open now. */
  open(): number;
  close(): Promise<void>;
}

/**
 * The outbound rules of the kernel's `safeGet`, for a child process that speaks HTTP itself (git): a proxy on
 * loopback for the life of one operation. Every host the child asks for, the first one and any it is redirected
 * to, is resolved once and checked (plain public unicast only, unless the host is allowed private addresses),
 * and the connection goes to the checked address (no DNS rebinding). Plain http requests are forwarded
 * (absolute-form), https goes through a CONNECT tunnel (TLS stays end to end: the child checks the certificate).
 * What the remote sends is counted against `maxBytes`. Nothing is buffered: bodies stream through.
 */
export async function startOutboundProxy(options: OutboundProxyOptions): Promise<OutboundProxy> {
  const secret = randomBytes(18).toString('base64url');
  const expected = 'Basic ' + Buffer.from(`quire:${secret}`).toString('base64');
  let refusal: string | null = null;
  let received = 0;
  let last = Date.now();
  const sockets = new Set<Socket>();
  let upstreams = 0;

  const count = (n: number): boolean => {
    received += n;
    if (received <= options.maxBytes) return true;
    refusal = `the remote sent more than ${options.maxBytes} bytes`;
    return false;
  };
  const check = async (hostname: string): Promise<string | null> => {
    try {
      return await checkedAddress(hostname, options);
    } catch (e) {
      if (!(e instanceof SafeGetError)) throw e;
      refusal = e.message;
      return null;
    }
  };

  /**
   * Copies what `from` sends to `to`, pausing `from` while `to` is full (nothing piles up in memory). What a
   * remote sends (`fromRemote`) is counted, and cuts both when over the limit.
   */
  const relay = (from: Readable, to: Writable, fromRemote: boolean) =>
    from.on('data', (chunk: Buffer) => {
      last = Date.now();
      if (fromRemote && !count(chunk.length)) {
        from.destroy();
        to.destroy();
      } else if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== 'http:') {
      refusal = `${url.protocol} is not http(s)`;
      res.writeHead(403).end();
      return;
    }
    const address = await check(url.hostname);
    if (!address) {
      res.writeHead(403).end(refusal);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const family = isIP(address);
    upstreams += 1;
    res.on('close', () => (upstreams -= 1));
    const upstream = httpRequest(
      url,
      {
        method: req.method,
        headers,
        // A connection of its own, to the address checked for this request (no pool keyed by host).
        agent: false,
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
          o?.all ? cb(null, [{ address, family }]) : cb(null, address, family)) as never,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        relay(answer, res, true);
        answer.on('end', () => res.end());
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (e) => {
      refusal = `could not be reached: ${e.message}`;
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    relay(req, upstream, false);
    req.on('end', () => upstream.end());
  };

  const server = createServer((req, res) => {
    if (req.headers['proxy-authorization'] !== expected) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="quire"' }).end();
      return;
    }
    void forward(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    // Node leaves a CONNECT socket without an error listener: one is added at once, before anything awaits.
    client.on('error', () => undefined);
    const refuse = (status: string) => client.end(`HTTP/1.1 ${status}\r\n\r\n`);
    if (req.headers['proxy-authorization'] !== expected)
      return refuse('407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="quire"');
    const target = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!target) return refuse('400 Bad Request');
    void check(target[1])
      .then((address) => {
        if (!address || client.destroyed) return refuse('403 Forbidden');
        const upstream = connect({ host: address, port: Number(target[2]) });
        sockets.add(upstream);
        upstreams += 1;
        upstream.on('close', () => {
          sockets.delete(upstream);
          upstreams -= 1;
        });
        upstream.once('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          relay(upstream, client, true);
          relay(client, upstream, false);
          upstream.on('end', () => client.end());
          client.on('end', () => upstream.end());
        });
        upstream.on('error', (e) => {
          refusal = `could not be reached: ${e.message}`;
          if (!client.destroyed) refuse('502 Bad Gateway');
        });
        client.on('error', () => upstream.destroy());
      })
      .catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://quire:${secret}@127.0.0.1:${port}`,
    refusal: () => refusal,
    lastActivity: () => last,
    open: () => upstreams,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
