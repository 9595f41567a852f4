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
}

/** Headers that belong to one response, never replayed. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'set-cookie', 'x-request-id']);
/** The cookies a kept answer may depend on (Quire's visitor cookies and GitBook's unsigned claims). */
const VISITOR_COOKIE = /^(quire_share_|quire_visitor_|gitbook-visitor-public$)/;
/** A request that carries one of these is never answered from memory (a preview ends with time). */
const PREVIEW_COOKIE = /^quire_preview_/;
const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;
const ENTRIES_MAX = 20_000;

/** What a GET request carries that any answer may depend on, as it arrives (no framework has rewritten it yet). */
interface RawRequest {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
}

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
  /** Requests answered from memory since the process started (for /metrics). */
  answered = 0;

  constructor(private readonly maxBytes: number) {}

  /** Gives the kept answer to this request, if there is one still valid: true when it did. */
  answer(req: RawRequest, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (this.answers.size === 0) return false;
    const key = keyOf(req);
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
    if (res.statusCode !== 200 || res.getHeader('set-cookie') !== undefined || body.length > this.maxBytes / 8) return;
    const key = keyOf({ method: req.method, url: req.originalUrl ?? req.url, headers: req.headers });
    if (key === null) return;
    const old = this.answers.get(key);
    if (old) this.drop(key, old);
    const headers = Object.entries(res.getHeaders()).flatMap(([name, value]) =>
      OWN_HEADERS.has(name) || value === undefined ? [] : (Array.isArray(value) ? value : [String(value)]).flatMap((v) => [name, v]),
    );
    this.answers.set(key, { body, etag, headers, valid });
    this.bytes += body.length;
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
    this.bytes -= answer.body.length;
  }
}

function keyOf(req: RawRequest): string | null {
  const h = req.headers;
  let cookies = '';
  if (h.cookie) {
    const kept: string[] = [];
    for (const [name, value] of Object.entries(parseCookies(h.cookie))) {
      if (PREVIEW_COOKIE.test(name)) return null;
      if (VISITOR_COOKIE.test(name)) kept.push(`${name}=${value}`);
    }
    cookies = kept.sort().join('; ');
  }
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(',') : (v ?? ''));
  return `${req.url ?? ''}\n${h.host ?? ''}\n${one(h['x-forwarded-host'])}\n${one(h['x-forwarded-proto'])}\n${h.forwarded ?? ''}\n${cookies}`;
}
