import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

interface AnswerEvent {
  type: string;
  answer: {
    answer: { document?: { nodes: unknown[] }; markdown?: string };
    followupQuestions: string[];
    sources: { type: string; page: string; space: string; revision: string; sections: string[] }[];
  };
}

/** `data:` events of a server-sent events body, parsed. */
const events = (body: string) =>
  body
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => JSON.parse(e.slice('data: '.length)) as AnswerEvent);

/** A site of two spaces (Guide, the default, and Extra) whose pages say "orbit", and a space on no site. */
async function siteOf(t: TestApp, admin: TestUser, orgId: string) {
  const spaces: Record<string, string> = {};
  for (const name of ['Guide', 'Extra', 'Elsewhere'])
    spaces[name] = await spaceWithPages(
      t,
      admin,
      orgId,
      [{ title: `${name} orbit`, markdown: `The orbit of the ${name.toLowerCase()} is round.` }],
      {
        title: name,
      },
    );
  const siteId = (
    await t.http
      .post(`/v1/orgs/${orgId}/sites`)
      .set(admin.auth)
      .send({ title: 'Docs', spaces: [spaces.Guide] })
      .expect(201)
  ).body.id as string;
  await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).send({ spaceId: spaces.Extra }).expect(201);
  return { spaces, siteId };
}

/** streamAskInSite (`POST /orgs/{id}/sites/{siteId}/ask`): an answer from the site's pages, as server-sent events. */
describe('asking a site through the API', () => {
  describe('without a language model', () => {
    let t: TestApp;
    let admin: TestUser;
    let reader: TestUser;
    let stranger: TestUser;
    let orgId: string;
    let site: { spaces: Record<string, string>; siteId: string };

    beforeAll(async () => {
      t = await createTestApp();
      admin = await t.user('admin');
      reader = await t.user('reader');
      stranger = await t.user('stranger');
      orgId = await t.organization(admin);
      await t.organization(stranger, 'Elsewhere');
      await t.member(orgId, reader, 'read');
      site = await siteOf(t, admin, orgId);
    });
    afterAll(async () => t.close());

    it('streams one answer that says no model is configured, with the pages that match, as the official client reads it', async () => {
      const { port } = t.app.getHttpServer().address() as { port: number };
      const api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: reader.token });
      const received: AnswerEvent[] = [];
      for await (const event of api.orgs.streamAskInSite(orgId, site.siteId, { question: 'What is the orbit?', scope: { mode: 'all' } }))
        received.push(event as AnswerEvent);
      expect(received).toHaveLength(1);
      expect(officialValidator().check('SearchAIAnswerStream', received[0])).toBe('');
      const { answer } = received[0];
      expect(JSON.stringify(answer.answer.document)).toContain('No language model is configured');
      expect(answer.followupQuestions).toEqual([]);
      expect(answer.sources.map((s) => s.space).sort()).toEqual([site.spaces.Guide, site.spaces.Extra].sort());
      expect(answer.sources.every((s) => s.type === 'page' && s.revision && s.page)).toBe(true);
    });

    it('answers in markdown when asked; searches only the scope asked, never a space the site does not show', async () => {
      const res = await t.http
        .post(`/v1/orgs/${orgId}/sites/${site.siteId}/ask?format=markdown`)
        .set(reader.auth)
        .send({ question: 'orbit', scope: { mode: 'default' } })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.text.endsWith('event: done\ndata: {}\n\n')).toBe(true);
      const [event] = events(res.text);
      expect(event.answer.answer.markdown).toMatch(/No language model is configured/);
      expect(event.answer.sources.map((s) => s.space)).toEqual([site.spaces.Guide]);
      const nothing = events(
        (
          await t.http
            .post(`/v1/orgs/${orgId}/sites/${site.siteId}/ask`)
            .set(reader.auth)
            .send({ question: 'elsewhere', scope: { mode: 'all' } })
            .expect(200)
        ).text,
      );
      expect(nothing[0].answer.sources).toEqual([]);
    });

    it('answers 400 for a bad body (no scope, no question, too long, null, NUL), 404 to another organization, 401 without a token', async () => {
      const ask = (body: unknown, who: TestUser = reader, query = '') =>
        t.http
          .post(`/v1/orgs/${orgId}/sites/${site.siteId}/ask${query}`)
          .set(who.auth)
          .send(body as object);
      for (const body of [
        { question: 'orbit' },
        { scope: { mode: 'all' } },
        { question: '', scope: { mode: 'all' } },
        { question: 'x'.repeat(513), scope: { mode: 'all' } },
        { question: null, scope: { mode: 'all' } },
        { question: 'or\u0000bit', scope: { mode: 'all' } },
        { question: 'orbit', scope: null },
        { question: 'orbit', scope: { mode: 'nearby' } },
        { question: 'orbit', scope: { mode: 'all' }, context: { goal: 'x'.repeat(1025) } },
        { question: 'orbit', scope: { mode: 'specific', siteSpaceIds: ['nope'] } },
      ])
        expectError(await ask(body), 400);
      expectError(await ask({ question: 'orbit', scope: { mode: 'all' } }, reader, '?format=html'), 400);
      expectError(await ask({ question: 'orbit', scope: { mode: 'all' } }, stranger), 404);
      expectError(await t.http.post(`/v1/orgs/${orgId}/sites/${site.siteId}/ask`).send({ question: 'orbit', scope: { mode: 'all' } }), 401);
    });
  });

  describe('with a language model', () => {
    let t: TestApp;
    let admin: TestUser;
    let orgId: string;
    let site: { spaces: Record<string, string>; siteId: string };
    let server: Server;
    let fail = false;
    const prompts: string[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const input = JSON.parse(body) as { messages: { role: string; content: string }[] };
          prompts.push(input.messages.map((m) => m.content).join('\n'));
          if (fail) {
            res.statusCode = 503;
            return res.end('{}');
          }
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'The orbit is round [1].' } }] }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      t = await createTestApp({ QUIRE_LLM_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, QUIRE_LLM_MODEL: 'fake' });
      admin = await t.user('admin');
      orgId = await t.organization(admin);
      site = await siteOf(t, admin, orgId);
    });
    afterAll(async () => {
      await t.close();
      server.close();
    });

    it('streams the model’s answer from the scope’s pages only, with the page it cites as its source', async () => {
      const res = await t.http
        .post(`/v1/orgs/${orgId}/sites/${site.siteId}/ask`)
        .set(admin.auth)
        .send({ question: 'orbit', scope: { mode: 'default' } })
        .expect(200);
      const [event] = events(res.text);
      expect(officialValidator().check('SearchAIAnswerStream', event)).toBe('');
      expect(JSON.stringify(event.answer.answer.document)).toContain('The orbit is round');
      expect(event.answer.sources.map((s) => s.space)).toEqual([site.spaces.Guide]);
      // The model read the default scope's page and nothing of the other spaces.
      expect(prompts.at(-1)).toContain('The orbit of the guide is round.');
      expect(prompts.at(-1)).not.toContain('extra');
      expect(prompts.at(-1)).not.toContain('elsewhere');
    });

    it('answers 502 in the error envelope when the model fails', async () => {
      fail = true;
      try {
        expectError(
          await t.http
            .post(`/v1/orgs/${orgId}/sites/${site.siteId}/ask`)
            .set(admin.auth)
            .send({ question: 'orbit', scope: { mode: 'all' } }),
          502,
          /language model/,
        );
      } finally {
        fail = false;
      }
    });
  });
});
