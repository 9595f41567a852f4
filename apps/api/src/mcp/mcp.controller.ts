import { All, Controller, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Access } from '@app/access';
import { AuditLog, AuditScopes } from '@app/audit-and-webhooks';
import { Actor, Clock, DomainError, Role, roleAtLeast, UnitOfWork } from '@app/shared-kernel';
import { SiteInsightsService, TooManyEvents } from '@app/site-insights';
import { CurrentActor, Public, WriteTransaction } from '@app/http-kit';
import { DATABASE_UNAVAILABLE, databaseAddress, Db, isDatabaseUnavailable, type DatabaseAddress } from '@app/persistence';
import { InternalHttp } from './internal-http';
import { API_TOOLS, ToolHttpError, ToolInputError, type Http, type Tool } from './tools';
import { siteTools } from './site-tools';

const PAGE_URI = /^quire:\/\/spaces\/([^/]+)\/pages\/([^/?#]+)$/;

/**
 * MCP (the Model Context Protocol, Streamable HTTP, stateless: one JSON answer per POST) for assistants:
 * `POST /mcp` with the API's Bearer tokens, and `POST /sites/{siteId}/~mcp` (also at a site's hostname as
 * `/~mcp`) for a published site's visitors. Every tool is the HTTP operations it names, called in process
 * with the caller's credentials (InternalHttp): the same validation messages, permissions and errors as the
 * HTTP API, operation for operation (docs/ai-access.md).
 */
@ApiExcludeController()
@Controller()
export class McpController {
  constructor(
    private readonly internal: InternalHttp,
    private readonly access: Access,
    private readonly audit: AuditLog,
    private readonly scopes: AuditScopes,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly insights: SiteInsightsService,
    db: Db,
  ) {
    this.database = databaseAddress(db.url);
  }

  /** Where the database listens (a refused connection there is an outage). */
  private readonly database: DatabaseAddress | undefined;

  // Declared as every authenticated POST must be (the audit interceptor checks): no unit of work spans an MCP
  // call; each tool's operations are requests of their own (audited as such), the call is recorded in its own.
  @WriteTransaction()
  @Post('mcp')
  async api(@CurrentActor() actor: Actor, @Req() req: Request, @Res() res: Response): Promise<void> {
    const outage: Outage = { seen: false, wrote: false, database: this.database };
    const http: Http = watched(outage, (method, path, body) =>
      this.internal.request(method, path, { authorization: req.headers.authorization, 'x-request-id': header(req, 'x-request-id') }, body),
    );
    // Which write tools the caller gets is asked only by the messages that need it (listing and calling tools).
    let listed: Promise<Tool[]> | null = null;
    const tools = () => (listed ??= this.mayWrite(actor, http).then((may) => API_TOOLS.filter((t) => !t.writes || may[t.writes])));
    const server = this.server('quire', tools, http, (tool, args, outcome) => this.record(actor, req, tool, args, outcome), outage);
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [
        {
          uriTemplate: 'quire://spaces/{spaceId}/pages/{pageId}',
          name: 'page',
          title: 'A page of a space, as markdown',
          mimeType: 'text/markdown',
        },
      ],
    }));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) =>
      unavailable(outage, async () => {
        const m = PAGE_URI.exec(request.params.uri);
        if (!m) throw new McpError(ErrorCode.InvalidParams, `not a page of Quire: ${request.params.uri}`);
        const read = API_TOOLS.find((t) => t.name === 'read_page')!;
        const out = await this.invoke(read, http, { spaceId: decodeURIComponent(m[1]), pageId: decodeURIComponent(m[2]) });
        return { contents: [{ uri: request.params.uri, mimeType: 'text/markdown' as const, text: out.text }] };
      }),
    );
    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: [
        {
          name: 'review_page',
          title: 'Review a page',
          description: 'Read a page and suggest corrections as a change request (propose_edit), without merging anything.',
          arguments: [
            { name: 'spaceId', required: true },
            { name: 'pageId', required: true },
          ],
        },
      ],
    }));
    server.setRequestHandler(GetPromptRequestSchema, (request) => {
      if (request.params.name !== 'review_page') throw new McpError(ErrorCode.InvalidParams, `no prompt ${request.params.name}`);
      const { spaceId, pageId } = request.params.arguments ?? {};
      if (!spaceId || !pageId) throw new McpError(ErrorCode.InvalidParams, 'spaceId and pageId are required');
      const uri = `quire://spaces/${encodeURIComponent(spaceId)}/pages/${encodeURIComponent(pageId)}`;
      return {
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: `Read the page ${uri} (read_page). List what is wrong or unclear in it, then propose the corrected page with propose_edit. Do not change what is right.`,
            },
          },
        ],
      };
    });
    await this.serve(server, req, res, outage);
  }

  @Public()
  @Post('sites/:siteId/~mcp')
  async site(@Param('siteId') siteId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const query = new URL(req.originalUrl, 'http://x').search.slice(1);
    const outage: Outage = { seen: false, wrote: false, database: this.database };
    const http: Http = watched(outage, (method, path, body) =>
      this.internal.request(method, path, { cookie: req.headers.cookie, 'x-request-id': header(req, 'x-request-id') }, body),
    );
    const where = () => ({
      url: new URL(req.originalUrl.split('?')[0], `${req.protocol}://${req.get('host') ?? 'localhost'}`).toString(),
      ip: req.ip ?? req.socket.remoteAddress ?? '',
      userAgent: req.get('user-agent') ?? '',
    });
    const siteOf = async () => {
      const site = await this.insights.siteById(siteId);
      if (!site) throw new ToolHttpError(404, 'Not found');
      return site;
    };
    const tools = siteTools(siteId, query, {
      feedback: async (input) => {
        const site = await siteOf();
        try {
          return await this.insights.agentFeedback(site.organizationId, siteId, input, 'mcp', where());
        } catch (e) {
          if (e instanceof DomainError && e.kind === 'invalid') throw new ToolInputError(e.message);
          if (e instanceof TooManyEvents) throw new ToolHttpError(429, e.message);
          throw e;
        }
      },
      asked: async (question, answered) => this.insights.mcpQuestion((await siteOf()).organizationId, siteId, question, answered, where()),
    });
    const server = this.server(
      `quire-site-${siteId}`,
      () => Promise.resolve(tools),
      http,
      () => Promise.resolve(),
      outage,
    );
    await this.serve(server, req, res, outage);
  }

  /** Stateless Streamable HTTP: no sessions, so GET (a stream) and DELETE (a session's end) are not offered. */
  @Public()
  @All(['mcp', 'sites/:siteId/~mcp'])
  other(@Res() res: Response): void {
    res.setHeader('Allow', 'POST');
    res.status(405).json({ error: { code: 405, message: 'MCP here is stateless Streamable HTTP: POST only' } });
  }

  private server(
    name: string,
    tools: () => Promise<Tool[]>,
    http: Http,
    recorded: (tool: Tool, args: Record<string, unknown>, outcome: string) => Promise<void>,
    outage: Outage,
  ): Server {
    const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () =>
      unavailable(outage, async () => ({
        tools: (await tools()).map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: t.inputSchema,
          annotations: { readOnlyHint: !t.writes, destructiveHint: false, openWorldHint: false },
        })),
      })),
    );
    server.setRequestHandler(CallToolRequestSchema, (request) => unavailable(outage, () => this.call(request, tools, http, recorded)));
    return server;
  }

  private async call(
    request: { params: { name: string; arguments?: Record<string, unknown> } },
    tools: () => Promise<Tool[]>,
    http: Http,
    recorded: (tool: Tool, args: Record<string, unknown>, outcome: string) => Promise<void>,
  ): Promise<CallToolResult> {
    const tool = (await tools()).find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    try {
      const out = await this.invoke(tool, http, args);
      await recorded(tool, args, 'ok');
      return { content: [{ type: 'text', text: out.text }], ...(out.structured ? { structuredContent: out.structured } : {}) };
    } catch (e) {
      if (e instanceof ToolHttpError) {
        await recorded(tool, args, String(e.status));
        return {
          isError: true,
          content: [{ type: 'text', text: `${e.status}: ${e.message}` }],
          structuredContent: { status: e.status, message: e.message },
        };
      }
      if (e instanceof ToolInputError) await recorded(tool, args, '400');
      throw e;
    }
  }

  /** Runs a tool; an input problem is the MCP error for invalid parameters, with the HTTP API's message. */
  private async invoke(tool: Tool, http: Http, args: Record<string, unknown>) {
    try {
      return await tool.run(http, args);
    } catch (e) {
      if (e instanceof ToolInputError) throw new McpError(ErrorCode.InvalidParams, e.message);
      if (e instanceof ToolHttpError && e.status >= 500) throw new McpError(ErrorCode.InternalError, e.message);
      throw e;
    }
  }

  /**
   * One JSON answer per POST. When the database could not be reached for it (a tool's operation answered
   * 503, or a read of this endpoint's own failed so), the answer is a 503 with Retry-After as for the API,
   * its body the JSON-RPC error saying so.
   */
  private async serve(server: Server, req: Request, res: Response, outage: Outage): Promise<void> {
    const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => Response;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      // Only "try again" when nothing was written: a retry must not write twice.
      if (!outage.seen || outage.wrote || status >= 300) return writeHead(status, ...rest);
      res.setHeader('Retry-After', String(DATABASE_UNAVAILABLE.retryAfterSeconds));
      return writeHead(503, ...rest);
    }) as Response['writeHead'];
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** The write tools a caller sees: editing where some organization (or a guest grant) lets them edit, commenting likewise. */
  private async mayWrite(actor: Actor, http: Http): Promise<{ edit: boolean; comment: boolean }> {
    const orgs = await http('GET', '/v1/orgs?limit=100');
    const ids = ((orgs.json as { items?: { id: string }[] } | null)?.items ?? []).map((o) => o.id);
    let best: Role | null = null;
    for (const id of ids) {
      const roles: (Role | null)[] = [await this.access.roleOf(id, actor), ...(await this.access.grantsOf(id, actor.userId)).values()];
      for (const r of roles) if (r && (!best || roleAtLeast(r, best))) best = r;
    }
    return { edit: roleAtLeast(best, 'edit'), comment: roleAtLeast(best, 'comment') };
  }

  /** Every tool call is in the audit log: `mcp.<tool>`, its target, and how it ended. */
  private async record(actor: Actor, req: Request, tool: Tool, args: Record<string, unknown>, outcome: string): Promise<void> {
    const id = (name: string) => (typeof args[name] === 'string' && /^[\w-]{1,100}$/.test(args[name]) ? args[name] : undefined);
    const space = id('spaceId');
    const org = id('organizationId');
    const organizationId = org ?? (space ? await this.scopes.organizationOf('space', space) : null);
    await this.uow.run(() =>
      this.audit.record({
        organizationId,
        occurredAt: this.clock.now(),
        action: `mcp.${tool.name}`,
        actor: { type: 'user', id: actor.userId },
        tokenId: actor.tokenId,
        source: 'api',
        target: space ? { type: 'space', id: space } : org ? { type: 'organization', id: org } : { type: 'user', id: actor.userId },
        clientAddress: req.ip ?? null,
        requestId: header(req, 'x-request-id') ?? null,
        payload: { via: 'mcp', tool: tool.name, outcome, operations: tool.operations },
      }),
    );
  }
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * One MCP request: whether the database could not be reached while answering it, and whether one of its
 * operations wrote something before that (then the answer says what happened, never "try again", which
 * would write it twice).
 */
interface Outage {
  seen: boolean;
  wrote: boolean;
  database: DatabaseAddress | undefined;
}

/** `http`, noting in `outage` an operation that answered 503 (the database cannot be reached) and a write that succeeded. */
function watched(outage: Outage, http: Http): Http {
  return async (method, path, body) => {
    const answer = await http(method, path, body);
    if (answer.status === 503) outage.seen = true;
    else if (method !== 'GET' && answer.status >= 200 && answer.status < 300) outage.wrote = true;
    return answer;
  };
}

/** Runs an MCP handler; a database that cannot be reached becomes the JSON-RPC error saying so (no internals), noted in `outage`. */
async function unavailable<T>(outage: Outage, handler: () => Promise<T>): Promise<T> {
  const refused = () =>
    new McpError(
      ErrorCode.InternalError,
      outage.wrote
        ? 'The database could not be reached part-way: some of this call was written (see the audit log); check before trying again'
        : DATABASE_UNAVAILABLE.message,
    );
  let result: T;
  try {
    result = await handler();
  } catch (e) {
    if (isDatabaseUnavailable(e, outage.database) || (e instanceof McpError && outage.seen)) {
      outage.seen = true;
      throw refused();
    }
    throw e;
  }
  // An answer built while an operation could not reach the database (a list left short) is no answer,
  // unless something was written meanwhile: then the answer as it is says what was done.
  if (outage.seen && !outage.wrote) throw refused();
  return result;
}
