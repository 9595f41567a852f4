import { lookup } from 'node:dns/promises';
import { IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { InvalidInputError } from './domain-error';

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
 * name resolves to checked before connecting (only plain public unicast,
 * see isPublicUnicast, unless the caller allows the host), the connection pinned to the checked
 * address (no DNS rebinding), bounded in time, size and redirects (each hop checked again). A redirect
 * to another origin drops every header but those that only describe the request (crossOriginHeaders).
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
  const origin = url.origin;
  let hopOptions = options;
  for (let hop = 0; ; hop++) {
    const res = await getOnce(url, hopOptions, deadline);
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && options.maxRedirects > 0) {
      res.destroy();
      if (hop >= options.maxRedirects) throw new SafeGetError('redirects', `was redirected more than ${options.maxRedirects} times`);
      try {
        url = new URL(location, url);
      } catch {
        throw new SafeGetError('bad-url', 'was redirected to something that is not a URL');
      }
      // Once the chain has left the first origin (scheme, host and port), no header that may carry a secret
      // goes with it, there or back: as browsers, curl and git do with Authorization and cookies.
      if (url.origin !== origin && hopOptions.headers === options.headers)
        hopOptions = { ...hopOptions, headers: crossOriginHeaders(options.headers) };
      // As fetch does: a 303, and a 301 or 302 answering a POST, is followed with a GET and no body.
      const status = res.statusCode;
      if (hopOptions.method === 'POST' && (status === 303 || status === 301 || status === 302)) {
        const headers = Object.fromEntries(Object.entries(hopOptions.headers ?? {}).filter(([n]) => n.toLowerCase() !== 'content-type'));
        hopOptions = { ...hopOptions, method: 'GET', body: undefined, headers };
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

/**
 * The headers that may follow a redirect to another origin: those that describe the request, never one
 * that identifies or authorizes the caller (Authorization, Cookie, Proxy-Authorization, a signature, an API key…).
 */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-encoding', 'accept-language', 'content-type', 'git-protocol', 'user-agent']);

export function crossOriginHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => CROSS_ORIGIN_HEADERS.has(name.toLowerCase())));
}

async function getOnce(url: URL, options: SafeGetOptions, deadline: number): Promise<IncomingMessage> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SafeGetError('bad-url', 'must be http(s)');
  if (url.username || url.password) throw new SafeGetError('bad-url', 'must not carry credentials');
  if (!options.hostAllowed(url.hostname)) throw new SafeGetError('host-not-allowed', `host "${url.hostname}" is not allowed`);
  const address = await checkedAddress(url.hostname, options);
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new SafeGetError('timeout', 'did not answer in time');
  try {
    return await pinnedRequest(url, address, remaining, options);
  } catch (e) {
    if (isTimeout(e)) throw new SafeGetError('timeout', 'did not answer in time');
    throw new SafeGetError('network', `could not be fetched: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The address an outbound connection to `hostname` (a URL's hostname: IPv6 literals in brackets) goes to:
 * resolved once, every address it resolves to acceptable (plain public unicast unless the host is allowed
 * private ones), the first of them. Connect to it, never to the name (no DNS rebinding). Throws a SafeGetError.
 */
export async function checkedAddress(hostname: string, options: Pick<SafeGetOptions, 'privateAllowed' | 'resolve'>): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await options.resolve(host);
  if (!addresses.length) throw new SafeGetError('unresolvable', `host "${hostname}" does not resolve`);
  if (!options.privateAllowed(hostname) && !addresses.every(isPublicUnicast))
    throw new SafeGetError('private-address', `host "${hostname}" resolves to a private or loopback address (or link-local)`);
  return addresses[0];
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

/**
 * The outbound rule for a user-given http(s) URL kept to be reached later (a webhook, a Git remote): plain http,
 * and a literal private, loopback or link-local address, only for hosts of the allowlist named `setting`
 * (a host name is checked with what it resolves to when it is reached, by safeGet). Throws a 400 naming `url`.
 */
export function checkOutboundHost(url: URL, allowlist: readonly string[], setting: string): void {
  const host = url.hostname.toLowerCase();
  const allowed = allowlist.includes(host);
  if (url.protocol === 'http:' && !allowed)
    throw new InvalidInputError(`url: plain http is allowed only for hosts in ${setting} ("${host}" is not)`);
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !isPublicUnicast(literal) && !allowed)
    throw new InvalidInputError(`url: a private, loopback or link-local address needs its host in ${setting}`);
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Is `address` (an IP literal) plain public unicast, the only kind an outbound request for a user may reach?
 * Classified by ipaddr.js: an IPv4-mapped IPv6 address (`::ffff:7f00:1`) and the well-known NAT64 prefix
 * (`64:ff9b::/96`) are judged by the IPv4 address they carry; every other special range is refused:
 * this network, loopback, private, CGNAT, link-local (cloud metadata), multicast, broadcast, documentation,
 * benchmarking and reserved IPv4 ranges; IPv4-compatible `::/96`, 6to4, Teredo, site-local, unique-local,
 * link-local, multicast, documentation, benchmarking, discard, ORCHID and everything outside `2000::/3` in IPv6.
 * Anything that does not parse is not public.
 */
export function isPublicUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ipaddr.js reads the deprecated IPv4-compatible text form `::1.2.3.4` as mapped; it is `::/96`.
  if (/^::\d+\./.test(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  if (v6.match(NAT64_WELL_KNOWN)) return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() === 'unicast';
  if (v6.match(IPV4_COMPATIBLE) || !v6.match(GLOBAL_UNICAST_V6)) return false;
  return v6.range() === 'unicast';
}
