import { Db } from '@app/persistence';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * AI access (#34): the MCP server of the API (`POST /mcp`, the API's tokens) and of each published site
 * (`/sites/{id}/~mcp`), driven by the MCP SDK's own client over loopback. Each tool is its HTTP operations:
 * the table below calls both, for a member, a reader, a commenter, a guest and a stranger, and expects the same
 * outcome.
 */
describe('MCP', () => {
  let t: TestApp;
  let base: string;
  let admin: TestUser;
  let reader: TestUser;
  let commenter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let spaceId: string;
  let otherSpaceId: string;
  let pageId: string;
  let crId: string;
  const clients: Client[] = [];

  const connect = async (url: string, token?: string) => {
    const client = new Client({ name: 'quire-test', version: '1.0.0' });
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_RATE_LIMIT_PER_MINUTE: '100000' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    admin = await t.user('admin');
    reader = await t.user('reader');
    commenter = await t.user('commenter');
    guest = await t.user('guest');
    stranger = await t.user('stranger');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.member(orgId, commenter, 'comment');
    await t.member(orgId, guest, null);
    const space = async (title: string) =>
      (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    spaceId = await space('Handbook');
    otherSpaceId = await space('Closed');
    await t.http
      .post(`/v1/spaces/${spaceId}/permissions`)
      .set(admin.auth)
      .send({ role: 'read', users: [guest.id] })
      .expect(204);
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Start' }).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', title: 'Install', document: { markdown: 'Run **npm install quire** to install the zeppelin.' } },
        ],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    pageId = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.pages[0].id;
    crId = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Open one' }).expect(201)).body.id;
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t.close();
  });

  it('lists the tools a caller may use: write tools only to those who may write', async () => {
    const names = async (u: TestUser) => (await (await connect(`${base}/mcp`, u.token)).listTools()).tools.map((x) => x.name).sort();
    const reads = [
      'get_change_request',
      'get_page_tree',
      'list_change_requests',
      'list_organizations',
      'list_spaces',
      'read_page',
      'search',
    ];
    expect(await names(admin)).toEqual([...reads, 'comment_on_change_request', 'propose_edit'].sort());
    expect(await names(commenter)).toEqual([...reads, 'comment_on_change_request'].sort());
    expect(await names(reader)).toEqual(reads);
    expect(await names(guest)).toEqual(reads);
    const tools = (await (await connect(`${base}/mcp`, admin.token)).listTools()).tools;
    expect(tools.find((x) => x.name === 'propose_edit')?.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((x) => x.name === 'search')?.inputSchema).toMatchObject({ type: 'object', required: ['query'] });
  });

  it('without a token: 401, as /v1; GET is not offered (stateless)', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect((await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${admin.token}` } })).status).toBe(405);
  });

  type Outcome = 'ok' | number;
  /** What a tool call came to: ok, the HTTP status it carried, or 400 for invalid parameters. */
  const viaMcp = async (u: TestUser, name: string, args: Record<string, unknown>): Promise<Outcome> => {
    const client = await connect(`${base}/mcp`, u.token);
    try {
      const r = await client.callTool({ name, arguments: args });
      return r.isError ? ((r.structuredContent as { status: number }).status ?? 0) : 'ok';
    } catch (e) {
      if (e instanceof McpError && e.code === -32602) return /Unknown tool/.test(e.message) ? ('hidden' as never) : 400;
      throw e;
    }
  };
  const viaHttp = async (u: TestUser, method: 'get' | 'post', path: string, body?: object): Promise<Outcome> => {
    const res =
      method === 'get'
        ? await t.http.get(path).set(u.auth)
        : await t.http
            .post(path)
            .set(u.auth)
            .send(body ?? {});
    return res.status < 300 ? 'ok' : res.status;
  };

  it('each tool answers as its HTTP operation does, for a member, a reader, a commenter, a guest and a stranger', async () => {
    const table: {
      tool: string;
      args: () => Record<string, unknown>;
      http: [method: 'get' | 'post', path: () => string, body?: object];
    }[] = [
      { tool: 'list_spaces', args: () => ({ organizationId: orgId }), http: ['get', () => `/v1/orgs/${orgId}/spaces`] },
      { tool: 'search', args: () => ({ query: 'zeppelin', spaceId }), http: ['get', () => `/v1/spaces/${spaceId}/search?query=zeppelin`] },
      {
        tool: 'search',
        args: () => ({ query: 'zeppelin', organizationId: orgId }),
        http: ['get', () => `/v1/orgs/${orgId}/search?query=zeppelin`],
      },
      { tool: 'get_page_tree', args: () => ({ spaceId }), http: ['get', () => `/v1/spaces/${spaceId}/content`] },
      { tool: 'get_page_tree', args: () => ({ spaceId: otherSpaceId }), http: ['get', () => `/v1/spaces/${otherSpaceId}/content`] },
      {
        tool: 'read_page',
        args: () => ({ spaceId, pageId }),
        http: ['get', () => `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`],
      },
      { tool: 'list_change_requests', args: () => ({ spaceId }), http: ['get', () => `/v1/spaces/${spaceId}/change-requests`] },
      {
        tool: 'get_change_request',
        args: () => ({ spaceId, changeRequestId: crId }),
        http: ['get', () => `/v1/spaces/${spaceId}/change-requests/${crId}`],
      },
    ];
    for (const u of [admin, reader, commenter, guest, stranger]) {
      for (const row of table) {
        const http = await viaHttp(u, row.http[0], row.http[1](), row.http[2]);
        const mcp = await viaMcp(u, row.tool, row.args());
        expect([row.tool, JSON.stringify(row.args()), u.email, mcp]).toEqual([row.tool, JSON.stringify(row.args()), u.email, http]);
      }
    }
  });

  it('reads a page as markdown (main content and a change request), and as the resource quire://spaces/{id}/pages/{id}', async () => {
    const client = await connect(`${base}/mcp`, reader.token);
    const page = await client.callTool({ name: 'read_page', arguments: { spaceId, pageId } });
    expect((page.content as { text: string }[])[0].text).toBe('# Install\n\nRun **npm install quire** to install the zeppelin.\n');
    const inCr = await client.callTool({ name: 'read_page', arguments: { spaceId, pageId, changeRequestId: crId } });
    expect((inCr.content as { text: string }[])[0].text).toContain('npm install quire');
    const resource = await client.readResource({ uri: `quire://spaces/${spaceId}/pages/${pageId}` });
    expect(resource.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('zeppelin') });
    expect((await client.listResourceTemplates()).resourceTemplates[0].uriTemplate).toBe('quire://spaces/{spaceId}/pages/{pageId}');
    const prompt = await client.getPrompt({ name: 'review_page', arguments: { spaceId, pageId } });
    expect(JSON.stringify(prompt.messages)).toContain(`quire://spaces/${spaceId}/pages/${pageId}`);
    const hits = await client.callTool({ name: 'search', arguments: { query: 'zeppelin', spaceId } });
    expect((hits.structuredContent as { items: { title: string }[] }).items[0].title).toBe('Install');
  });

  it('proposes an edit as a change request and comments on it; a reader may not (hidden, and refused when called)', async () => {
    const client = await connect(`${base}/mcp`, admin.token);
    const proposed = await client.callTool({
      name: 'propose_edit',
      arguments: {
        spaceId,
        subject: 'Clearer install',
        pages: [
          { pageId, markdown: 'Run `npm install quire`.' },
          { title: 'FAQ', markdown: 'Questions.' },
        ],
      },
    });
    expect(proposed.isError).toBeFalsy();
    const cr = proposed.structuredContent as { id: string; subject: string; status: string };
    expect(cr).toMatchObject({ subject: 'Clearer install', status: 'open' });
    const changes = (await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/changes`).set(admin.auth).expect(200)).body;
    expect(JSON.stringify(changes)).toContain('FAQ');
    // Main is untouched: nothing is merged.
    expect((await t.http.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`).set(admin.auth)).body.markdown).toContain(
      '**npm install quire**',
    );
    const commented = await client.callTool({
      name: 'comment_on_change_request',
      arguments: { spaceId, changeRequestId: cr.id, markdown: 'Proposed by an assistant.' },
    });
    expect(commented.isError).toBeFalsy();
    // A bad edit leaves no change request behind: the one opened for it is archived.
    const before = (await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth)).body.items.length;
    await expect(
      client.callTool({
        name: 'propose_edit',
        arguments: { spaceId, subject: 'Broken', pages: [{ pageId: 'no-such-page', markdown: 'x' }] },
      }),
    ).rejects.toThrow(/no-such-page/);
    expect((await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth)).body.items.length).toBe(before);
    // A reader: the write tools are not there, and calling one is refused.
    const r = await connect(`${base}/mcp`, reader.token);
    await expect(
      r.callTool({ name: 'propose_edit', arguments: { spaceId, subject: 'x', pages: [{ markdown: 'y', title: 'z' }] } }),
    ).rejects.toThrow(/Unknown tool/);
    // Every call is in the audit log.
    const actions = await t.app.get(DataSource).query<{ action: string }[]>(`SELECT action FROM audit_events WHERE action LIKE 'mcp.%'`);
    expect(new Set(actions.map((a) => a.action))).toEqual(
      new Set([
        'mcp.propose_edit',
        'mcp.comment_on_change_request',
        'mcp.read_page',
        'mcp.search',
        'mcp.list_spaces',
        'mcp.get_page_tree',
        'mcp.list_change_requests',
        'mcp.get_change_request',
      ]),
    );
  });

  it('hostile tool input: errors with the HTTP API’s messages, never a crash', async () => {
    const client = await connect(`${base}/mcp`, admin.token);
    const hostile: unknown[] = [null, 0x10, true, {}, [], 'a\u0000b', '\ud800', 'x'.repeat(20_000)];
    for (const tool of (await client.listTools()).tools) {
      const props = Object.keys((tool.inputSchema as { properties: object }).properties);
      for (const prop of props) {
        for (const value of hostile) {
          const args: Record<string, unknown> = {
            spaceId,
            organizationId: orgId,
            pageId,
            changeRequestId: crId,
            query: 'q',
            subject: 's',
            markdown: 'm',
            pages: [{ markdown: 'm', title: 't' }],
          };
          for (const k of Object.keys(args)) if (!props.includes(k)) delete args[k];
          args[prop] = value;
          let outcome: string;
          try {
            const r = await client.callTool({ name: tool.name, arguments: args });
            outcome = r.isError ? `error ${(r.structuredContent as { status: number }).status}` : 'ok';
          } catch (e) {
            outcome = e instanceof McpError ? `mcp ${e.code}` : `crash ${String(e)}`;
          }
          expect([tool.name, prop, JSON.stringify(value)?.slice(0, 20), outcome]).toEqual([
            tool.name,
            prop,
            JSON.stringify(value)?.slice(0, 20),
            expect.stringMatching(/^(ok|error 4\d\d|mcp -32602)$/),
          ]);
        }
      }
    }
    await expect(client.callTool({ name: 'search', arguments: { query: 0x10, spaceId } })).rejects.toThrow(/query must be a string/);
  });

  it('a published site’s MCP: read-only tools with what a visitor sees; a share-link site needs its key', async () => {
    const site = (
      await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Docs', visibility: 'share-link' }).expect(201)
    ).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    const link = (await t.http.post(`/v1/orgs/${orgId}/sites/${site}/share-links`).set(admin.auth).send({ name: 'L' }).expect(201)).body;
    const visitor = await connect(`${base}/sites/${site}/~mcp`);
    expect((await visitor.listTools()).tools.map((x) => x.name).sort()).toEqual([
      'ask',
      'list_pages',
      'read_page',
      'search',
      'send_feedback',
    ]);
    expect(await visitor.callTool({ name: 'ask', arguments: { question: 'zeppelin' } })).toMatchObject({
      isError: true,
      structuredContent: { status: 404 },
    });
    const refused = await visitor.callTool({ name: 'read_page', arguments: { path: 'install' } });
    expect(refused).toMatchObject({ isError: true, structuredContent: { status: 404 } });
    expect((await visitor.callTool({ name: 'list_pages', arguments: {} })).isError).toBe(true);
    const keyed = await connect(`${base}/sites/${site}/~mcp?share=${link.key}`);
    const page = await keyed.callTool({ name: 'read_page', arguments: { path: 'install' } });
    expect((page.content as { text: string }[])[0].text).toContain('npm install quire');
    expect((await keyed.callTool({ name: 'list_pages', arguments: {} })).content).toEqual([
      expect.objectContaining({ text: expect.stringContaining('Install') }),
    ]);
    const hits = await keyed.callTool({ name: 'search', arguments: { query: 'zeppelin' } });
    expect(JSON.stringify(hits.structuredContent)).toContain('Install');
    // A site behind visitor authentication: nothing without a token signed with its key, the pages with one.
    const guarded = (
      await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Guarded', visibility: 'visitor-auth' }).expect(201)
    ).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${guarded}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${guarded}/publish`).set(admin.auth).expect(200);
    const key = (await t.http.get(`/v1/orgs/${orgId}/sites/${guarded}/publishing/auth`).set(admin.auth).expect(200)).body
      .privateKey as string;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));
    const anonymous = await connect(`${base}/sites/${guarded}/~mcp`);
    expect(await anonymous.callTool({ name: 'read_page', arguments: { path: 'install' } })).toMatchObject({
      isError: true,
      structuredContent: { status: 404 },
    });
    const signedIn = await connect(`${base}/sites/${guarded}/~mcp?jwt_token=${token}`);
    expect(
      ((await signedIn.callTool({ name: 'read_page', arguments: { path: 'install' } })).content as { text: string }[])[0].text,
    ).toContain('npm install quire');
    // send_feedback (#51): only a visitor the site lets in; kept as the agent's feedback and counted in the site's insights.
    const feedback = {
      subject: { kind: 'documentation', url: 'https://docs.example.com/install' },
      feedback: { category: 'documentation', summary: 'The install page does not say which Node.js version.' },
      reportedBy: { model: 'test-model', userAgent: 'claude-code/1.0.0' },
    };
    expect(await visitor.callTool({ name: 'send_feedback', arguments: feedback })).toMatchObject({
      isError: true,
      structuredContent: { status: 404 },
    });
    const sent = await keyed.callTool({ name: 'send_feedback', arguments: feedback });
    expect(sent.structuredContent).toEqual({ id: expect.any(String), result: expect.stringMatching(/recorded/) });
    const kept = await t.app
      .get(Db)
      .query('SELECT site_id, source, feedback FROM site_agent_feedback WHERE id = $1', [(sent.structuredContent as { id: string }).id]);
    expect(kept).toEqual([{ site_id: site, source: 'mcp', feedback: feedback.feedback }]);
    const counted = await t.http
      .post(`/v1/orgs/${orgId}/sites/${site}/insights/events/aggregate`)
      .set(admin.auth)
      .send({ range: 'last24Hours', groupBy: [{ column: 'eventType' }, { column: 'displayContext' }, { column: 'urlPath' }] })
      .expect(200);
    expect(counted.body.columns).toEqual([
      { column: 'eventType', values: ['agent_feedback'] },
      { column: 'displayContext', values: ['mcp'] },
      { column: 'urlPath', values: ['/install'] },
      { column: 'eventsCount', values: [1] },
    ]);
    // A question through the MCP's ask is counted as one asked on the site (no model here: not answered).
    await keyed.callTool({ name: 'ask', arguments: { question: 'How do I install zeppelin?' } });
    const asked = await t.http
      .post(`/v1/orgs/${orgId}/sites/${site}/insights/events/aggregate`)
      .set(admin.auth)
      .send({
        range: 'last24Hours',
        where: [{ column: 'eventType', values: ['ask_question'] }],
        groupBy: [{ column: 'eventSearchQuery' }, { column: 'eventAskAnswered' }, { column: 'displayContext' }],
      })
      .expect(200);
    expect(asked.body.columns).toEqual([
      { column: 'eventSearchQuery', values: ['How do I install zeppelin?'] },
      { column: 'eventAskAnswered', values: [false] },
      { column: 'displayContext', values: ['mcp'] },
      { column: 'eventsCount', values: [1] },
    ]);
    await expect(
      keyed.callTool({
        name: 'send_feedback',
        arguments: { ...feedback, feedback: { category: 'documentation', summary: 'x'.repeat(257) } },
      }),
    ).rejects.toThrow(/summary/);
    await expect(
      keyed.callTool({ name: 'send_feedback', arguments: { ...feedback, feedback: { category: 'documentation', summary: 'a\u0000b' } } }),
    ).rejects.toThrow(/NUL|null/i);
    await expect(keyed.callTool({ name: 'read_page', arguments: { path: '../../v1/orgs' } })).rejects.toThrow(/not a page path/);
    await expect(keyed.callTool({ name: 'propose_edit', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

/** `~ask` and the site MCP's `ask` (#34): answers from the site's own pages only, citing them; none without a model. */
describe('answers with citations', () => {
  let model: Server;
  let t: TestApp;
  let plain: TestApp;
  let admin: TestUser;
  const asked: { messages: { role: string; content: string }[] }[] = [];

  beforeAll(async () => {
    model = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        asked.push(JSON.parse(body) as { messages: { role: string; content: string }[] });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { content: 'Install it with `npm install quire` [1]. Then fly [7].' } }] }));
      });
    });
    await new Promise<void>((r) => model.listen(0, '127.0.0.1', () => r()));
    const port = (model.address() as AddressInfo).port;
    t = await createTestApp({ QUIRE_LLM_URL: `http://127.0.0.1:${port}/v1`, QUIRE_LLM_MODEL: 'fake', QUIRE_LLM_FOR: 'answers' });
    plain = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await plain.close();
    await new Promise((r) => model.close(r));
  });

  const publishedSite = async (app: TestApp) => {
    admin = await app.user('admin');
    const orgId = await app.organization(admin);
    const spaceId = (await app.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (await app.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await app.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', title: 'Install', document: { markdown: 'Run `npm install quire` before the zeppelin takes off.' } },
          {
            operation: 'insert_page',
            title: 'Hangar',
            document: { markdown: '---\nhidden: true\n---\nThe secret zeppelin hangar code is 4711.' },
          },
        ],
      })
      .expect(200);
    await app.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const site = (await app.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Docs', visibility: 'public' }).expect(201))
      .body.id;
    await app.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await app.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    return site as string;
  };

  it('answers from the pages the search finds, cites them by their site URLs, and gives the model nothing hidden', async () => {
    const site = await publishedSite(t);
    const res = await t.http.get(`/sites/${site}/~ask?q=zeppelin`).expect(200);
    expect(res.body).toEqual({
      question: 'zeppelin',
      answer: 'Install it with `npm install quire` [1]. Then fly [7].',
      citations: [{ number: 1, title: 'Install', url: `http://quire.test/sites/${site}/install` }],
      sources: [{ title: 'Install', url: `http://quire.test/sites/${site}/install` }],
    });
    const prompt = asked
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('[1] Install\nRun `npm install quire` before the zeppelin takes off.');
    expect(prompt).toContain('Question: zeppelin');
    expect(prompt).not.toContain('4711');
    expect(asked.at(-1)!.messages[0].content).toMatch(/only the numbered sources/);
    // The site's MCP asks the same way.
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const client = new Client({ name: 'quire-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/sites/${site}/~mcp`)));
    const answered = await client.callTool({ name: 'ask', arguments: { question: 'zeppelin' } });
    expect(answered.structuredContent).toMatchObject({ citations: [{ number: 1, title: 'Install' }] });
    await client.close();
    expectError(await t.http.get(`/sites/${site}/~ask`), 400, /q \(the question\) is required/);
    // Nothing found: no model call, no answer.
    const calls = asked.length;
    expect((await t.http.get(`/sites/${site}/~ask?q=xylophone`).expect(200)).body).toMatchObject({ answer: null, sources: [] });
    expect(asked.length).toBe(calls);
  });

  it('without a language model, says so and invents nothing: the matching pages only', async () => {
    const site = await publishedSite(plain);
    expect((await plain.http.get(`/sites/${site}/~ask?q=zeppelin`).expect(200)).body).toEqual({
      question: 'zeppelin',
      answer: null,
      message: 'No language model is configured for this site: no answer, only the pages that match.',
      citations: [],
      sources: [{ title: 'Install', url: `http://quire.test/sites/${site}/install` }],
    });
  });
});
