import type { InternalAnswer } from './internal-http';
import { stringProblem } from '../http/hostile-input';

/** One call of the app's HTTP API with the MCP caller's credentials. */
export type Http = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => Promise<InternalAnswer>;

/** A tool's input problem, answered as the HTTP API would (a 400 with this message). */
export class ToolInputError extends Error {}

/** An HTTP answer that is not a success, carried to the MCP client with its status and the API's message. */
export class ToolHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ToolOutput {
  /** What the model reads: markdown, or JSON text. */
  text: string;
  /** The same as data, when it is JSON. */
  structured?: Record<string, unknown>;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
  /** Writes: listed only to callers who may write somewhere (the operation still checks where). */
  writes?: 'comment' | 'edit';
  /** The HTTP operations the tool is (the permissions table in docs/ai-access.md). */
  operations: string[];
  run(http: Http, args: Record<string, unknown>): Promise<ToolOutput>;
}

const str = { type: 'string' } as const;

/** An argument that goes into a URL: a string without control characters, else the HTTP API's own wording. */
export function idArg(args: Record<string, unknown>, name: string, required = true): string | undefined {
  const v = args[name];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v === '') throw new ToolInputError(`${name} must be a string`);
  const problem = stringProblem(v);
  if (problem) throw new ToolInputError(`${name}: ${problem}`);
  if (v.length > 200 || /[\u0000-\u001f/?#%\\]/.test(v)) throw new ToolInputError(`${name} is not a valid id`);
  return encodeURIComponent(v);
}

/** A text argument (a query string's value, a question): a string without NUL or lone surrogates. */
export function textArg(args: Record<string, unknown>, name: string, required = true): string | undefined {
  const v = args[name];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw new ToolInputError(`${name} must be a string`);
  const problem = stringProblem(v);
  if (problem) throw new ToolInputError(`${name}: ${problem}`);
  return v;
}

/** Answers the body of a 2xx, or throws the API's error with its status and message. */
export function ok(answer: InternalAnswer): unknown {
  if (answer.status >= 200 && answer.status < 300) return answer.json ?? answer.text;
  const message = (answer.json as { error?: { message?: unknown } } | null)?.error?.message;
  const text = typeof message === 'string' ? message : answer.text.slice(0, 500) || `HTTP ${answer.status}`;
  if (answer.status === 400) throw new ToolInputError(text);
  throw new ToolHttpError(answer.status, text);
}

/** A JSON answer as a tool's output: the text for the model, the object as structured content. */
export const json = (value: unknown): ToolOutput => ({
  text: JSON.stringify(value, null, 2),
  structured: value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { items: value },
});

interface PageNode {
  id: string;
  title: string;
  path?: string;
  type?: string;
  hidden?: boolean;
  pages?: PageNode[];
}

/** A page tree as the model needs it: ids, titles, paths and nesting. */
function outline(pages: PageNode[]): unknown[] {
  return pages.map((p) => ({
    id: p.id,
    title: p.title,
    path: p.path,
    ...(p.type && p.type !== 'document' ? { type: p.type } : {}),
    ...(p.hidden ? { hidden: true } : {}),
    ...(p.pages?.length ? { pages: outline(p.pages) } : {}),
  }));
}

/** Where a space's content is read from: main, a revision, or a change request. */
function contentBase(args: Record<string, unknown>): string {
  const space = idArg(args, 'spaceId')!;
  const revision = idArg(args, 'revisionId', false);
  const cr = idArg(args, 'changeRequestId', false);
  if (revision && cr) throw new ToolInputError('give revisionId or changeRequestId, not both');
  if (revision) return `/v1/spaces/${space}/revisions/${revision}`;
  if (cr) return `/v1/spaces/${space}/change-requests/${cr}/content`;
  return `/v1/spaces/${space}/content`;
}

const where = {
  spaceId: { ...str, description: 'The space' },
  revisionId: { ...str, description: 'Read this revision instead of the main content' },
  changeRequestId: { ...str, description: 'Read this change request’s content instead of the main content' },
};

/** The tools of `POST /mcp`: each one or two operations of the HTTP API, with the caller's token. */
export const API_TOOLS: Tool[] = [
  {
    name: 'list_organizations',
    title: 'List organizations',
    description: 'The organizations the caller belongs to (their ids name them in the other tools).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    operations: ['GET /v1/orgs'],
    run: async (http) => json(ok(await http('GET', '/v1/orgs?limit=100'))),
  },
  {
    name: 'list_spaces',
    title: 'List spaces',
    description: 'The spaces of an organization the caller can read.',
    inputSchema: { type: 'object', properties: { organizationId: str }, required: ['organizationId'], additionalProperties: false },
    operations: ['GET /v1/orgs/{organizationId}/spaces'],
    run: async (http, args) => {
      const list = ok(await http('GET', `/v1/orgs/${idArg(args, 'organizationId')}/spaces?limit=100`)) as {
        items: Record<string, unknown>[];
      };
      return json({ items: list.items.map((s) => ({ id: s.id, title: s.title, visibility: s.visibility, urls: s.urls })) });
    },
  },
  {
    name: 'search',
    title: 'Search',
    description: 'Full-text search in a space, or in every space of an organization the caller can read.',
    inputSchema: {
      type: 'object',
      properties: { query: str, spaceId: str, organizationId: str },
      required: ['query'],
      additionalProperties: false,
    },
    operations: ['GET /v1/spaces/{spaceId}/search', 'GET /v1/orgs/{organizationId}/search'],
    run: async (http, args) => {
      const query = encodeURIComponent(textArg(args, 'query')!);
      if ((args.spaceId === undefined) === (args.organizationId === undefined)) throw new ToolInputError('give spaceId or organizationId');
      const path =
        args.spaceId !== undefined
          ? `/v1/spaces/${idArg(args, 'spaceId')}/search?query=${query}`
          : `/v1/orgs/${idArg(args, 'organizationId')}/search?query=${query}`;
      return json(ok(await http('GET', path)));
    },
  },
  {
    name: 'get_page_tree',
    title: 'Page tree',
    description: 'The pages of a space (main content, a revision or a change request): ids, titles, paths, nesting.',
    inputSchema: { type: 'object', properties: where, required: ['spaceId'], additionalProperties: false },
    operations: [
      'GET /v1/spaces/{spaceId}/content',
      'GET /v1/spaces/{spaceId}/revisions/{revisionId}',
      'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content',
    ],
    run: async (http, args) => {
      const revision = ok(await http('GET', contentBase(args))) as { id: string; pages: PageNode[] };
      return json({ revision: revision.id, pages: outline(revision.pages) });
    },
  },
  {
    name: 'read_page',
    title: 'Read a page',
    description: 'A page as markdown (main content, a revision or a change request).',
    inputSchema: { type: 'object', properties: { ...where, pageId: str }, required: ['spaceId', 'pageId'], additionalProperties: false },
    operations: [
      'GET /v1/spaces/{spaceId}/content/page/{pageId}',
      'GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}',
      'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}',
    ],
    run: async (http, args) => {
      const base = contentBase(args);
      const page = ok(await http('GET', `${base}/page/${idArg(args, 'pageId')}?format=markdown`)) as { title: string; markdown?: string };
      return { text: `# ${page.title}\n\n${page.markdown ?? ''}`, structured: page as unknown as Record<string, unknown> };
    },
  },
  {
    name: 'list_change_requests',
    title: 'List change requests',
    description: 'The change requests of a space (open ones unless a status is given).',
    inputSchema: {
      type: 'object',
      properties: { spaceId: str, status: { type: 'string', enum: ['draft', 'open', 'archived', 'merged'] } },
      required: ['spaceId'],
      additionalProperties: false,
    },
    operations: ['GET /v1/spaces/{spaceId}/change-requests'],
    run: async (http, args) => {
      const status = textArg(args, 'status', false);
      const query = status !== undefined ? `?status=${encodeURIComponent(status)}` : '';
      return json(ok(await http('GET', `/v1/spaces/${idArg(args, 'spaceId')}/change-requests${query}`)));
    },
  },
  {
    name: 'get_change_request',
    title: 'Read a change request',
    description: 'A change request and what it changes (pages added, edited, moved, removed).',
    inputSchema: {
      type: 'object',
      properties: { spaceId: str, changeRequestId: str },
      required: ['spaceId', 'changeRequestId'],
      additionalProperties: false,
    },
    operations: [
      'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}',
      'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes',
    ],
    run: async (http, args) => {
      const base = `/v1/spaces/${idArg(args, 'spaceId')}/change-requests/${idArg(args, 'changeRequestId')}`;
      const changeRequest = ok(await http('GET', base));
      const changes = ok(await http('GET', `${base}/changes`));
      return json({ changeRequest, changes });
    },
  },
  {
    name: 'propose_edit',
    title: 'Propose an edit',
    description:
      'Opens a change request that updates pages (pageId) or adds them (title, optionally under parentId), each from markdown. Nothing is merged: people review it.',
    inputSchema: {
      type: 'object',
      properties: {
        spaceId: str,
        subject: { ...str, description: 'What the change request is about' },
        pages: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: {
            type: 'object',
            properties: { pageId: str, title: str, parentId: str, markdown: str },
            required: ['markdown'],
            additionalProperties: false,
          },
        },
      },
      required: ['spaceId', 'subject', 'pages'],
      additionalProperties: false,
    },
    writes: 'edit',
    operations: ['POST /v1/spaces/{spaceId}/change-requests', 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content'],
    run: async (http, args) => {
      const space = idArg(args, 'spaceId')!;
      const pages = args.pages;
      if (!Array.isArray(pages) || pages.length === 0 || pages.length > 50)
        throw new ToolInputError('pages must be a list of 1 to 50 pages');
      const changes = pages.map((p: unknown, i) => {
        if (!p || typeof p !== 'object' || Array.isArray(p)) throw new ToolInputError(`pages[${i}] must be an object`);
        const page = p as Record<string, unknown>;
        const document = { markdown: page.markdown };
        if (page.pageId !== undefined)
          return { operation: 'update_page', page: page.pageId, document, ...(page.title !== undefined ? { title: page.title } : {}) };
        return { operation: 'insert_page', title: page.title, document, ...(page.parentId !== undefined ? { into: page.parentId } : {}) };
      });
      const created = ok(await http('POST', `/v1/spaces/${space}/change-requests`, { subject: args.subject })) as {
        id: string;
        number: number;
      };
      const written = await http('POST', `/v1/spaces/${space}/change-requests/${encodeURIComponent(created.id)}/content`, { changes });
      if (written.status >= 300) {
        // Nothing half-written: the change request that could not take the edit is archived again.
        await http('PATCH', `/v1/spaces/${space}/change-requests/${encodeURIComponent(created.id)}`, { status: 'archived' });
        ok(written);
      }
      return json(ok(await http('GET', `/v1/spaces/${space}/change-requests/${encodeURIComponent(created.id)}`)));
    },
  },
  {
    name: 'comment_on_change_request',
    title: 'Comment on a change request',
    description: 'Adds a comment (markdown) to a change request.',
    inputSchema: {
      type: 'object',
      properties: { spaceId: str, changeRequestId: str, markdown: str },
      required: ['spaceId', 'changeRequestId', 'markdown'],
      additionalProperties: false,
    },
    writes: 'comment',
    operations: ['POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments'],
    run: async (http, args) => {
      const path = `/v1/spaces/${idArg(args, 'spaceId')}/change-requests/${idArg(args, 'changeRequestId')}/comments`;
      return json(ok(await http('POST', path, { body: { markdown: args.markdown } })));
    },
  },
];
