import { Injectable } from '@nestjs/common';
import { HostResolver, safeGet, SafeGetError } from '@app/shared-kernel';
import { ProcessErrorCode, ProcessingError, SPEC_MAX_BYTES, SpecFetcher } from '../domain/openapi-spec';
import { OpenApiSettings } from '../application/openapi-settings';

export const MAX_REDIRECTS = 5;

/**
 * URL sources through the kernel's safeGet: any public host; loopback, private, link-local (cloud
 * metadata) addresses only for hosts in QUIRE_OPENAPI_URL_ALLOWLIST; 10 MB, the configured time limit
 * and 5 redirects at most (each hop checked again).
 */
@Injectable()
export class SafeSpecFetcher extends SpecFetcher {
  constructor(
    private readonly settings: OpenApiSettings,
    private readonly resolver: HostResolver,
  ) {
    super();
  }

  async fetch(
    url: string,
  ): Promise<{ ok: true; text: string; url: string } | { ok: false; code: ProcessErrorCode; error: ProcessingError }> {
    const fail = (code: ProcessErrorCode, errorCode: string, message: string) => ({
      ok: false as const,
      code,
      error: { code: errorCode, message },
    });
    try {
      const res = await safeGet(url, {
        maxBytes: SPEC_MAX_BYTES,
        timeoutMs: this.settings.fetchTimeoutMs,
        maxRedirects: MAX_REDIRECTS,
        hostAllowed: () => true,
        privateAllowed: (host) => this.settings.privateHostAllowlist.includes(host.toLowerCase()),
        resolve: (host) => this.resolver.lookup(host),
      });
      if (res.status !== 200) return fail('FETCH_ERROR', 'HTTP_STATUS', `The source URL answered HTTP ${res.status}`);
      const text = res.bytes.toString('utf8');
      if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(res.bytes))
        return fail('FETCH_ERROR', 'NOT_UTF8', 'The source URL did not answer UTF-8 text');
      return { ok: true, text: text.replace(/^\uFEFF/, ''), url: res.url };
    } catch (e) {
      if (!(e instanceof SafeGetError)) throw e;
      if (e.reason === 'timeout')
        return fail('FETCH_TIMEOUT', 'TIMEOUT', `The source URL ${e.message} (limit ${this.settings.fetchTimeoutMs} ms)`);
      const codes: Record<string, string> = {
        'too-large': 'TOO_LARGE',
        'private-address': 'ADDRESS_REFUSED',
        'host-not-allowed': 'ADDRESS_REFUSED',
        unresolvable: 'UNRESOLVABLE',
        redirects: 'TOO_MANY_REDIRECTS',
        'bad-url': 'BAD_URL',
        network: 'NETWORK',
      };
      return fail('FETCH_ERROR', codes[e.reason] ?? 'NETWORK', `The source URL ${e.message}`);
    }
  }
}
