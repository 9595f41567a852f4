import { lookup } from 'node:dns/promises';
import { IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

/** Port: resolves a host name to its addresses (the system resolver; tests give their own). */
export abstract class HostResolver {
  abstract lookup(host: string): Promise<string[]>;
}

export class SystemHostResolver extends HostResolver {
  async lookup(host: string): Promise<string[]> {
    return (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  }
}

/**
 * The one outbound HTTP request of the service (GET: file imports, OpenAPI sources; POST: webhook deliveries): http(s) only, every address a
 * name resolves to checked before connecting (loopback, private, link-local — cloud metadata —, CGNAT
 * and reserved ranges refused unless the caller allows the host), the connection pinned to the checked
 * address (no DNS rebinding), bounded in time, size and redirects (each hop checked again).
 */
export interface SafeGetOptions {
  maxBytes: number;
  timeoutMs: number;
  /** 0: a redirect is an answer like any other (status 3xx). */
  maxRedirects: number;
  /** May this host be fetched at all? */
  hostAllowed: (host: string) => boolean;
  /** May this host resolve to a private or loopback address? */
  privateAllowed: (host: string) => boolean;
  resolve: (host: string) => Promise<string[]>;
  /** GET unless told (webhook deliveries POST). */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
}

export type SafeGetFailure =
  'bad-url' | 'host-not-allowed' | 'private-address' | 'unresolvable' | 'timeout' | 'too-large' | 'network' | 'redirects';

export class SafeGetError extends Error {
  constructor(
    readonly reason: SafeGetFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeGetResult {
  status: number;
  bytes: Buffer;
  contentType?: string;
  /** The URL that answered (after redirects). */
  url: string;
}

export async function safeGet(raw: string, options: SafeGetOptions): Promise<SafeGetResult> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeGetError('bad-url', 'is not a URL');
  }
  const deadline = Date.now() + options.timeoutMs;
  for (let hop = 0; ; hop++) {
    const res = await getOnce(url, options, deadline);
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && options.maxRedirects > 0) {
      res.destroy();
      if (hop >= options.maxRedirects) throw new SafeGetError('redirects', `was redirected more than ${options.maxRedirects} times`);
      try {
        url = new URL(location, url);
      } catch {
        throw new SafeGetError('bad-url', 'was redirected to something that is not a URL');
      }
      continue;
    }
    try {
      return { status: res.statusCode ?? 0, ...(await readBody(res, options.maxBytes)), url: url.toString() };
    } finally {
      res.destroy();
    }
  }
}

async function getOnce(url: URL, options: SafeGetOptions, deadline: number): Promise<IncomingMessage> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SafeGetError('bad-url', 'must be http(s)');
  if (url.username || url.password) throw new SafeGetError('bad-url', 'must not carry credentials');
  if (!options.hostAllowed(url.hostname)) throw new SafeGetError('host-not-allowed', `host "${url.hostname}" is not allowed`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Resolved once; every address must be acceptable, and the connection goes to the first of them.
  const addresses = isIP(host) ? [host] : await options.resolve(host);
  if (!addresses.length) throw new SafeGetError('unresolvable', `host "${url.hostname}" does not resolve`);
  if (!options.privateAllowed(url.hostname) && addresses.some(isPrivateAddress))
    throw new SafeGetError('private-address', `host "${url.hostname}" resolves to a private or loopback address (or link-local)`);
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new SafeGetError('timeout', 'did not answer in time');
  try {
    return await pinnedRequest(url, addresses[0], remaining, options);
  } catch (e) {
    if (isTimeout(e)) throw new SafeGetError('timeout', 'did not answer in time');
    throw new SafeGetError('network', `could not be fetched: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<{ bytes: Buffer; contentType?: string }> {
  const declared = Number(res.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new SafeGetError('too-large', `is larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new SafeGetError('too-large', `is larger than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof SafeGetError) throw e;
    if (isTimeout(e)) throw new SafeGetError('timeout', 'did not finish answering in time');
    throw new SafeGetError('network', `could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { bytes: Buffer.concat(chunks), contentType: res.headers['content-type']?.split(';')[0].trim() || undefined };
}

function isTimeout(e: unknown): boolean {
  const err = e as { name?: string; code?: string };
  return err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.code === 'ABORT_ERR';
}

/**
 * GET (or POST) `url` on a connection to `address` (the one that was checked), never resolving the name again:
 * a DNS answer that changes between the check and the connection (rebinding) cannot redirect it. TLS
 * still verifies the certificate for the URL's host name. The timeout covers the whole answer.
 */
function pinnedRequest(url: URL, address: string, timeoutMs: number, options: SafeGetOptions): Promise<IncomingMessage> {
  const family = isIP(address);
  const pinned = ((_host: string, options: { all?: boolean }, callback: (...a: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as RequestOptions['lookup'];
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: options.method ?? 'GET',
        lookup: pinned,
        signal: AbortSignal.timeout(timeoutMs),
        headers: { 'user-agent': 'Quire', ...options.headers, ...(options.body ? { 'content-length': String(options.body.length) } : {}) },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 6) {
    const a = address.toLowerCase();
    if (a === '::1' || a === '::' || a.startsWith('fe80:') || a.startsWith('fc') || a.startsWith('fd')) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    return mapped ? isPrivateAddress(mapped[1]) : false;
  }
  const [a, b] = address.split('.').map(Number);
  // this network, private, loopback, link-local (cloud metadata 169.254.169.254), CGNAT, benchmarking, multicast and reserved
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}
