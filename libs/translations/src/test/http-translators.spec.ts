import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { PairUnavailableError } from '../domain/translator';
import { ChatCompletionsTranslator, LibreTranslateTranslator } from '../infrastructure/http-translators';

/** A loopback server speaking one API: `handle` answers each request (path, parsed JSON body). */
async function fake(
  handle: (path: string, body: unknown, req: IncomingMessage) => unknown,
): Promise<{ url: string; server: Server; seen: unknown[] }> {
  const seen: unknown[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString('utf8')));
    req.on('end', () => {
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      seen.push(body);
      const answer = handle(req.url ?? '', body, req);
      if (answer === 500) return void res.writeHead(500).end('boom');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

/** Uppercases text outside tags: a stand-in translation that shows what was translated. */
const shout = (html: string) => html.replace(/(^|>)([^<]*)/g, (_m, a: string, text: string) => a + text.toUpperCase());

describe('HTTP translators (loopback fakes speaking each API)', () => {
  it('LibreTranslate: lists pairs from /languages and translates fragments as HTML in one request', async () => {
    const api = await fake((path, body) => {
      if (path === '/languages')
        return [
          { code: 'en', targets: ['en', 'es', 'de'] },
          { code: 'es', targets: ['en'] },
        ];
      const b = body as { q: string[]; format: string; api_key?: string };
      return { translatedText: b.q.map(shout) };
    });
    try {
      const t = new LibreTranslateTranslator(api.url, 'secret');
      expect(await t.pairs()).toEqual([
        { source: 'en', target: 'es' },
        { source: 'en', target: 'de' },
        { source: 'es', target: 'en' },
      ]);
      const out = await t.translate(['Hello <code>npm i</code>', 'Bye'], { source: 'en', target: 'es' });
      expect(out).toEqual(['HELLO <code>NPM I</code>', 'BYE']);
      expect(api.seen.at(-1)).toMatchObject({
        q: ['Hello <code>npm i</code>', 'Bye'],
        source: 'en',
        target: 'es',
        format: 'html',
        api_key: 'secret',
      });
      await expect(t.translate(['x'], { source: 'de', target: 'en' })).rejects.toThrow(PairUnavailableError);
    } finally {
      api.server.close();
    }
  });

  it('LibreTranslate: a wrong answer or a 500 fails the call (never an untranslated copy)', async () => {
    let mode: 'short' | '500' = 'short';
    const api = await fake((path) =>
      path === '/languages' ? [{ code: 'en', targets: ['es'] }] : mode === '500' ? 500 : { translatedText: ['only one'] },
    );
    try {
      const t = new LibreTranslateTranslator(api.url);
      await expect(t.translate(['a', 'b'], { source: 'en', target: 'es' })).rejects.toThrow(/one text per fragment/);
      mode = '500';
      await expect(t.translate(['a'], { source: 'en', target: 'es' })).rejects.toThrow(/500/);
    } finally {
      api.server.close();
    }
  });

  it('chat completions: sends the fragments as JSON with the key, reads {"fragments": [...]} back', async () => {
    let auth = '';
    const api = await fake((path, body, req) => {
      auth = String(req.headers.authorization);
      const b = body as { model: string; messages: { role: string; content: string }[] };
      const fragments = JSON.parse(b.messages[1].content) as string[];
      return { choices: [{ message: { role: 'assistant', content: JSON.stringify({ fragments: fragments.map(shout) }) } }] };
    });
    try {
      const t = new ChatCompletionsTranslator(`${api.url}/v1`, 'tiny-model', 'sk-test');
      expect((await t.pairs()).some((p) => p.source === 'en' && p.target === 'ja')).toBe(true);
      expect(await t.translate(['Go <a href="https://x.io/a">there</a>'], { source: 'en', target: 'ja' })).toEqual([
        'GO <a href="https://x.io/a">THERE</a>',
      ]);
      expect(auth).toBe('Bearer sk-test');
      expect(api.seen.at(-1)).toMatchObject({ model: 'tiny-model', response_format: { type: 'json_object' } });
      await expect(t.translate(['x'], { source: 'en', target: 'klingon' })).rejects.toThrow(PairUnavailableError);
    } finally {
      api.server.close();
    }
  });

  it('chat completions: an answer that is not JSON, or not one fragment per fragment, fails', async () => {
    let content = 'Sure! Here you go.';
    const api = await fake(() => ({ choices: [{ message: { content } }] }));
    try {
      const t = new ChatCompletionsTranslator(api.url, 'm');
      await expect(t.translate(['a'], { source: 'en', target: 'es' })).rejects.toThrow(/JSON/);
      content = JSON.stringify({ fragments: ['a', 'b'] });
      await expect(t.translate(['a'], { source: 'en', target: 'es' })).rejects.toThrow(/one fragment per fragment/);
    } finally {
      api.server.close();
    }
  });
});
