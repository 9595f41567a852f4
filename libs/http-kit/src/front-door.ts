import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseCookies } from 'cookie';

/** An answer kept for the next request that asks the same, while `valid()` holds. */
export interface KeptAnswer {
  body: Buffer;
  etag: string;
  /** The headers as first sent, flat (name, value, name, value…; those of one response only, such as Date or X-Request-Id, left out). */
  headers: string[];
  /** Whether what the answer was built from still holds (checked on every use; false drops it). */
  valid: () => boolean;
  /** What it takes in memory: the body, the key and the headers. */
  size: number;
}

/** Headers that belong to one response, never replayed. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'set-cookie', 'x-request-id']);
/** The cookies a kept answer may depend on (Quire's visitor cookies and GitBook's unsigned claims). */
const VISITOR_COOKIE = /^(quire_share_|quire_visitor_|gitbook-visitor-public$)/;
/** A request that carries one of these is never answered from memory (a preview ends with time). */
const PREVIEW_COOKIE = /^quire_preview_/;
const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;
const ENTRIES_MAX = 20_000;
/** A request whose key (URL, hosts, visitor cookies) is longer than this is not kept: keys stay small. */
const KEY_MAX = 2048;

/** What a GET request carries that any answer may depend on, as it arrives (no framework has rewritten it yet). */
interface RawRequest {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  socket?: { remoteAddress?: string };
}

/** Whether a connection's address is a trusted proxy's (Express's compiled `trust proxy`): only then do forwarding headers count. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Answers kept in memory and given before the framework sees the request: the HTTP server asks the front door
 * first (QuireExpressAdapter), and only what it does not hold goes on to Express and Nest. An answer is kept by
 * everything of the request it may depend on — method aside, the raw URL with its query, the Host and
 * forwarding headers, and the visitor cookies — and is given while its `valid()` holds; `If-None-Match` gets
 * its 304, HEAD its headers. A request with a preview cookie is never answered here. Bounded by entries and by
 * `maxBytes` (the oldest go first). Kept answers are not logged as requests nor counted by the rate limit:
 * giving one costs less than counting it.
 */
export class FrontDoor {
  private readonly answers = new Map<string, KeptAnswer>();
  private bytes = 0;
  /** Null until the HTTP server asks the front door (QuireExpressAdapter): nothing is kept before. */
  private trust: ProxyTrust | null = null;
  /** Requests answered from memory since the process started (for /metrics). */
  answered = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * The HTTP server asks the front door from now on, and forwarding headers count (in keys) only from the
   * addresses `trust` admits, as Express reads them: a client that is not a trusted proxy cannot make its
   * answer look like one given through the proxy.
   */
  open(trust: ProxyTrust): void {
    this.trust = trust;
  }

  /** Gives the kept answer to this request, if there is one still valid: true when it did. */
  answer(req: RawRequest, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (this.answers.size === 0) return false;
    const key = this.keyOf(req);
    const kept = key === null ? undefined : this.answers.get(key);
    if (!kept) return false;
    if (!kept.valid()) {
      this.drop(key!, kept);
      return false;
    }
    this.answered++;
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    if (req.headers['if-none-match'] === kept.etag) {
      res.writeHead(304, [...kept.headers, 'X-Request-Id', id]);
      res.end();
      return true;
    }
    // One write of the head, from the flat list (no header object to build and normalize per request).
    res.writeHead(200, [...kept.headers, 'X-Request-Id', id, 'Content-Length', String(kept.body.length)]);
    res.end(req.method === 'HEAD' ? undefined : kept.body);
    return true;
  }

  /**
   * Keeps the 200 answer just sent to `req` (its headers as sent on `res`) for the next request that carries the
   * same. Nothing is kept for an answer that set a cookie, nor one larger than an eighth of the budget.
   */
  keep(req: RawRequest & { originalUrl?: string }, res: ServerResponse, body: Buffer, etag: string, valid: () => boolean): void {
    if (this.trust === null || res.statusCode !== 200 || res.getHeader('set-cookie') !== undefined || body.length > this.maxBytes / 8)
      return;
    // Built under a state already replaced (a slow render): not kept, and a good answer is not replaced.
    if (!valid()) return;
    const key = this.keyOf({ method: req.method, url: req.originalUrl ?? req.url, headers: req.headers, socket: req.socket });
    if (key === null) return;
    const old = this.answers.get(key);
    if (old) this.drop(key, old);
    const headers = Object.entries(res.getHeaders()).flatMap(([name, value]) =>
      OWN_HEADERS.has(name) || value === undefined ? [] : (Array.isArray(value) ? value : [String(value)]).flatMap((v) => [name, v]),
    );
    const answer = { body, etag, headers, valid, size: body.length + key.length + headers.reduce((n, h) => n + h.length, 0) };
    this.answers.set(key, answer);
    this.bytes += answer.size;
    for (const [k, a] of this.answers) {
      if (this.bytes <= this.maxBytes && this.answers.size <= ENTRIES_MAX) break;
      this.drop(k, a);
    }
  }

  /** The bytes of the bodies kept now (for /metrics). */
  get keptBytes(): number {
    return this.bytes;
  }

  private drop(key: string, answer: KeptAnswer): void {
    if (this.answers.get(key) !== answer) return;
    this.answers.delete(key);
    this.bytes -= answer.size;
  }

  /**
   * What of the request an answer may depend on: the raw URL with its query, the Host, the forwarding headers
   * (from a trusted proxy only), and the visitor cookies (each name and value, encoded). Null: never kept (a
   * preview cookie, or a key too long to be worth keeping).
   */
  private keyOf(req: RawRequest): string | null {
    const h = req.headers;
    let cookies = '';
    if (h.cookie) {
      const kept: string[] = [];
      for (const [name, value] of Object.entries(parseCookies(h.cookie))) {
        if (PREVIEW_COOKIE.test(name)) return null;
        if (VISITOR_COOKIE.test(name) && value !== undefined) kept.push(JSON.stringify([name, value]));
      }
      cookies = kept.sort().join(',');
    }
    const address = req.socket?.remoteAddress;
    const proxied = address !== undefined && this.trust !== null && this.trust(address, 0);
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(',') : (v ?? ''));
    const forwarded = proxied ? `${one(h['x-forwarded-host'])}\n${one(h['x-forwarded-proto'])}\n${h.forwarded ?? ''}` : '-';
    const key = `${req.url ?? ''}\n${h.host ?? ''}\n${forwarded}\n${cookies}`;
    return key.length > KEY_MAX ? null : key;
  }
}
