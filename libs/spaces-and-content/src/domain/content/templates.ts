import { InvalidInputError } from '@app/shared-kernel';
import type { ContentChange } from '@app/content-model';

interface TemplatePage {
  title: string;
  markdown: string;
  pages?: TemplatePage[];
}

export interface SpaceTemplate {
  id: string;
  title: string;
  pages: TemplatePage[];
}

/** The built-in catalog. `{{name}}` in a page is replaced by `params.contentRefs[name]` (a file). */
export const TEMPLATES: SpaceTemplate[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    pages: [
      { title: 'Welcome', markdown: '{{logo}}\n\nWelcome to the documentation. Start with the [quickstart](./quickstart.md).' },
      { title: 'Quickstart', markdown: '## Install\n\n```sh\nnpm install\n```\n\n## Run\n\n```sh\nnpm start\n```' },
      { title: 'FAQ', markdown: '## Where do I start?\n\nRead the [welcome page](./welcome.md).' },
    ],
  },
  {
    id: 'api-reference',
    title: 'API reference',
    pages: [
      { title: 'Overview', markdown: 'The API speaks JSON over HTTPS. See [authentication](./authentication.md).' },
      { title: 'Authentication', markdown: 'Send `Authorization: Bearer <token>` with every request.' },
      {
        title: 'Endpoints',
        markdown: 'One page per resource.',
        pages: [{ title: 'Users', markdown: '## GET /users\n\nLists users.' }],
      },
      { title: 'Errors', markdown: '| Code | Meaning |\n| --- | --- |\n| 400 | Invalid input |\n| 404 | Not found |' },
    ],
  },
  {
    id: 'product-docs',
    title: 'Product documentation',
    pages: [
      { title: 'Introduction', markdown: '{{logo}}\n\nWhat the product does, and for whom.' },
      {
        title: 'Guides',
        markdown: 'Step-by-step guides.',
        pages: [{ title: 'First steps', markdown: '1. Sign up\n2. Create a project\n3. Invite your team' }],
      },
      { title: 'Changelog', markdown: '## Unreleased\n\n- Nothing yet.' },
    ],
  },
];

export interface TemplateParams {
  contentRefs?: Record<string, { kind: 'file'; file: string }>;
}

/** The insert_page changes that apply a template (appended after the existing pages). */
export function templateChanges(id: string, params: TemplateParams = {}): ContentChange[] {
  const template = TEMPLATES.find((t) => t.id === id);
  if (!template) throw new InvalidInputError(`id: unknown template "${id}" (available: ${TEMPLATES.map((t) => t.id).join(', ')})`);
  const fill = (markdown: string) =>
    markdown.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      const ref = params.contentRefs?.[name];
      return ref ? `![${name}](/files/${ref.file})` : '';
    });
  const changes: ContentChange[] = [];
  let n = 0;
  const add = (pages: TemplatePage[], into?: string) => {
    for (const p of pages) {
      const ref = `template-${++n}`;
      changes.push({ operation: 'insert_page', ref, into, title: p.title, document: { markdown: fill(p.markdown).trim() } });
      if (p.pages) add(p.pages, ref);
    }
  };
  add(template.pages);
  return changes;
}
