import { findHostileString } from '../http/hostile-input';
import { json, ok, textArg, ToolInputError, type Tool } from './tools';

/** What the site's tools tell its insights: an agent's feedback (the official AgentFeedbackInput, checked there), a question asked. */
export interface SiteToolInsights {
  feedback(input: Record<string, unknown>): Promise<{ id: string; result: string }>;
  asked(question: string, answered: boolean): Promise<void>;
}

/**
 * The tools of a published site's MCP endpoint (`/sites/{id}/~mcp`): read-only, each one of the visitor routes
 * the HTML site serves, with the visitor's own credentials (share key, visitor token, cookies): nothing a
 * visitor cannot see in a browser is reachable.
 */
export function siteTools(siteId: string, visitorQuery: string, insights: SiteToolInsights): Tool[] {
  const at = (path: string, extra = '') => {
    const query = [extra, visitorQuery].filter(Boolean).join('&');
    return `/sites/${encodeURIComponent(siteId)}/${path}${query ? `?${query}` : ''}`;
  };
  return [
    {
      name: 'search',
      title: 'Search the site',
      description: 'Full-text search in the pages of this documentation site: titles, sections, excerpts and URLs.',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
      operations: ['GET /sites/{siteId}/~search.json'],
      run: async (http, args) => {
        const query = textArg(args, 'query')!;
        return json(ok(await http('GET', at('~search.json', `q=${encodeURIComponent(query)}`))));
      },
    },
    {
      name: 'list_pages',
      title: 'List the pages',
      description: 'Every page of the site, by section, with its URL and description (the site’s llms.txt).',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      operations: ['GET /sites/{siteId}/llms.txt'],
      run: async (http) => ({ text: String(ok(await http('GET', at('llms.txt')))) }),
    },
    {
      name: 'ask',
      title: 'Ask the documentation',
      description:
        'A question answered from this site’s own pages only, citing them by URL (needs a language model on the server; without one, the answer is null and the matching pages are listed).',
      inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'], additionalProperties: false },
      operations: ['GET /sites/{siteId}/~ask'],
      run: async (http, args) => {
        const question = textArg(args, 'question')!;
        const answer = ok(await http('GET', at('~ask', `q=${encodeURIComponent(question)}`))) as { answer?: unknown };
        // Counted in the site's insights as a question asked on the site is (answered or not).
        await insights.asked(question, typeof answer?.answer === 'string' && answer.answer.length > 0);
        return json(answer);
      },
    },
    {
      name: 'read_page',
      title: 'Read a page',
      description: 'A page of the site as markdown, by its path (as in its URL, e.g. "guides/install").',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      operations: ['GET /sites/{siteId}/{path}.md'],
      run: async (http, args) => {
        const clean = textArg(args, 'path')!
          .replace(/^\/+|\/+$/g, '')
          .replace(/\.md$/, '');
        if (clean.length > 1000 || /[\u0000-\u001f?#\\]|(^|\/)\.\.?(\/|$)/.test(clean)) throw new ToolInputError('path is not a page path');
        if (!clean) throw new ToolInputError('path must name a page (list_pages gives them)');
        const segments = clean.split('/').map(encodeURIComponent).join('/');
        return { text: String(ok(await http('GET', at(`${segments}.md`)))) };
      },
    },
    {
      name: 'send_feedback',
      title: 'Tell the site’s team about a problem',
      description:
        'Report what got in your way with this documentation: a page that is wrong, outdated or missing something, or a tool that did not help. ' +
        'The site’s team reads it in the site’s insights. Never include credentials, request bodies or anything that identifies the person you work for.',
      inputSchema: {
        type: 'object',
        properties: {
          subject: {
            type: 'object',
            description:
              'What the feedback is about: {"kind":"documentation","url":"<page URL>"}, {"kind":"mcp-tool","toolName":"search"} or {"kind":"generic"}',
          },
          feedback: {
            type: 'object',
            description:
              '{"category": "usability"|"reliability"|"documentation"|"efficiency"|"interoperability"|"could-not-accomplish", "summary": "<256 characters at most>", "severity"?: "low"|"medium"|"high", "goal"?, "detail"?, "workaround"?}',
          },
          reportedBy: { type: 'object', description: 'Optional: {"model", "userAgent", "correlationId", "onDemand"}' },
        },
        required: ['subject', 'feedback'],
        additionalProperties: false,
      },
      operations: ['GET /sites/{siteId}/llms.txt', 'POST /v1/orgs/{organizationId}/sites/{siteId}/agents/feedback (the same feedback)'],
      run: async (http, args) => {
        // A NUL byte or a lone surrogate anywhere is refused, as the HTTP API refuses it in a body.
        const hostile = findHostileString(args, 'arguments');
        if (hostile) throw new ToolInputError(hostile);
        // Only a visitor the site lets in may report on it: the same gate as its pages.
        ok(await http('GET', at('llms.txt')));
        const receipt = await insights.feedback(args);
        return json(receipt);
      },
    },
  ];
}
