import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConversationProcessing } from '@app/conversations';
import { TranslationsService } from '@app/translations';
import { markdownToDocument } from '@app/content-model';
import { loadConfig } from '../../apps/api/src/config';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { spaceWithPages } from '../support/content';

/**
 * The optional language model (QUIRE_LLM_URL / QUIRE_LLM_MODEL): an OpenAI-compatible chat completions
 * API, here a loopback fake speaking it. It words conversation issues and translates; it is never required.
 */
describe('an OpenAI-compatible language model, when configured', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let server: Server;
  const prompts: { model: string; system: string; user: string; auth?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const input = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
        const system = input.messages.find((m) => m.role === 'system')!.content;
        const user = input.messages.find((m) => m.role === 'user')!.content;
        prompts.push({ model: input.model, system, user, auth: req.headers.authorization });
        let content: string;
        if (req.url !== '/v1/chat/completions') {
          res.statusCode = 404;
          return res.end('{}');
        }
        if (system.startsWith('Translate')) {
          const fragments = (JSON.parse(user) as string[]).map((h) =>
            h.replace(/(^|>)([^<]*)/g, (_m, gt: string, text: string) => gt + text.toUpperCase()),
          );
          content = JSON.stringify({ fragments });
        } else if (user.includes('garbled')) content = 'not json at all';
        else if (user.includes('outage')) {
          res.statusCode = 503;
          return res.end('{"error":"overloaded"}');
        } else if (user.includes('password'))
          content = JSON.stringify({ title: 'Password reset email never arrives', summary: 'The reset email is not received.' });
        else content = JSON.stringify({ title: '', summary: 'no title' });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    t = await createTestApp({
      QUIRE_LLM_URL: `http://127.0.0.1:${port}/v1`,
      QUIRE_LLM_MODEL: 'fake-model',
      QUIRE_LLM_API_KEY: 'sk-test',
      QUIRE_APERTIUM: 'off',
    });
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it('words conversation issues and their cluster; an unusable or failed answer keeps the extracted words', async () => {
    const conversation = (id: string, body: string) => ({ id, subject: '', parts: [{ type: 'message', role: 'user', body }] });
    await t.http
      .post(`/v1/orgs/${orgId}/conversations`)
      .set(admin.auth)
      .send({
        conversations: [
          conversation('a', 'I asked for a password reset twice. Nothing came.'),
          conversation('b', 'The password reset mail does not come, I checked spam.'),
          conversation('c', 'Export to PDF is garbled in the answer.'),
          conversation('d', 'The export to PDF fails during the outage.'),
          conversation('e', 'The billing page shows the wrong currency.'),
        ],
      })
      .expect(204);
    await t.app.get(ConversationProcessing).processOrganization(orgId);
    const issues = (await t.http.get(`/v1/orgs/${orgId}/conversations-issues`).set(admin.auth).expect(200)).body.items as {
      issue: { conversation: string; title: string; summary: string; cluster: string };
    }[];
    const byConversation = new Map(issues.map(({ issue }) => [issue.conversation, issue]));
    expect(byConversation.get('a')).toMatchObject({
      title: 'Password reset email never arrives',
      summary: 'The reset email is not received.',
    });
    expect(byConversation.get('b')!.title).toBe('Password reset email never arrives');
    // Not JSON, a 503, an empty title: the extractor's words stay.
    expect(byConversation.get('c')!.title).toBe('Export to PDF is garbled in the answer.');
    expect(byConversation.get('d')!.title).toBe('The export to PDF fails during the outage.');
    expect(byConversation.get('e')!.title).toBe('The billing page shows the wrong currency.');
    const cluster = (await t.http.get(`/v1/orgs/${orgId}/conversations-clusters`).set(admin.auth).expect(200)).body.items.find(
      (c: { id: string }) => c.id === byConversation.get('a')!.cluster,
    );
    expect(cluster.label).toBe('Password reset email never arrives');
    const asked = prompts.filter((p) => p.system.includes('customer support conversation'));
    expect(asked).toHaveLength(5);
    expect(asked.every((p) => p.model === 'fake-model' && p.auth === 'Bearer sk-test')).toBe(true);
  });

  it('translates through the model when no other translator is set; the translation’s instructions reach its prompt', async () => {
    const space = await spaceWithPages(t, admin, orgId, [{ title: 'Intro', markdown: 'Run `npm test` and see [docs](https://x.test/d).' }]);
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'ja', source: { space, language: 'en' }, instructions: markdownToDocument('Use the polite form.').document })
        .expect(201)
    ).body.id;
    expect(await t.app.get(TranslationsService).run(id)).toBe('completed');
    const done = (await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body;
    expect(done.latestRun.translator).toBe('chat-completions');
    const translating = prompts.filter((p) => p.system.startsWith('Translate'));
    expect(translating.length).toBeGreaterThan(0);
    expect(translating.every((p) => p.system.includes('"en" to "ja"') && p.system.includes('Use the polite form.'))).toBe(true);
    const pages = (await t.http.get(`/v1/spaces/${done.result.space}/content/pages`).set(admin.auth).expect(200)).body.pages;
    const md = (await t.http.get(`/v1/spaces/${done.result.space}/content/page/${pages[0].id}?format=markdown`).set(admin.auth).expect(200))
      .body.markdown;
    expect(md).toBe('RUN `npm test` AND SEE [DOCS](https://x.test/d).\n');
  });

  it('the translators and the model are configured and checked at start', () => {
    expect(() => loadConfig({ QUIRE_LLM_URL: 'http://127.0.0.1:1/v1' })).toThrow(/QUIRE_LLM_MODEL/);
    expect(() => loadConfig({ QUIRE_LLM_URL: 'ftp://x', QUIRE_LLM_MODEL: 'm' })).toThrow(/QUIRE_LLM_URL/);
    expect(() => loadConfig({ QUIRE_LLM_URL: 'http://x', QUIRE_LLM_MODEL: 'm', QUIRE_LLM_FOR: 'everything' })).toThrow(/QUIRE_LLM_FOR/);
    expect(() => loadConfig({ QUIRE_APERTIUM: 'maybe' })).toThrow(/QUIRE_APERTIUM/);
    expect(() => loadConfig({ QUIRE_LIBRETRANSLATE_URL: 'not a url' })).toThrow(/QUIRE_LIBRETRANSLATE_URL/);
    const only = loadConfig({ QUIRE_LLM_URL: 'http://x/v1', QUIRE_LLM_MODEL: 'm', QUIRE_LLM_FOR: 'conversations' });
    expect(only.translation.chatCompletions).toBeNull();
    expect(only.conversationsLlm).toEqual({ url: 'http://x/v1', model: 'm', apiKey: undefined });
    expect(loadConfig({}).translation).toEqual({ apertium: true, libreTranslate: null, chatCompletions: null });
  });
});
