import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownToDocument } from '@app/content-model';
import { checkDocumentProps, referenceDocument, referencePages, specOperations, specTags } from '../domain/computed-reference';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(process.cwd(), 'libs/openapi-specs/src/test/fixtures', name), 'utf8')) as unknown;

describe('computed API reference (builtin:openapi)', () => {
  it('groups a real document’s operations (GitHub’s issues, pulls and releases) by tag, every one on exactly one page', () => {
    const doc = fixture('openapi-3.0-github-issues-pulls-releases.json');
    const operations = specOperations(doc);
    expect(operations.length).toBeGreaterThan(50);
    const pages = referencePages(doc, 'github', { models: true, downloadLink: false, grouping: 'by-tag' });
    const blocks = pages.flatMap((p) => markdownToDocument(p.markdown).document.nodes.filter((n) => n.type === 'openapi-operation'));
    expect(blocks).toHaveLength(operations.length);
    expect(pages.map((p) => p.title).slice(0, -1)).toEqual(specTags(doc).map((t) => t.name));
    expect(pages.at(-1)?.title).toBe('Models');
    const byOperation = referencePages(doc, 'github', { models: false, downloadLink: false, grouping: 'by-operation' });
    expect(byOperation.flatMap((p) => p.children)).toHaveLength(operations.length);
  });

  it('leaves out what a tag’s attribute cannot hold, and keeps untagged operations under default', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: {
        '/ok/{id}': { get: { responses: {} }, parameters: [] },
        '/bad"quote': { get: { tags: ['a'], responses: {} } },
        '/bad%}close': { post: { tags: ['a'], responses: {} } },
        '/tagged': { delete: { tags: ['a'], responses: {} } },
      },
    };
    expect(specOperations(doc).map((o) => `${o.method} ${o.path} ${o.tag}`)).toEqual(['get /ok/{id} default', 'delete /tagged a']);
    expect(specTags(doc).map((t) => t.name)).toEqual(['a', 'default']);
    const markdown = referenceDocument(doc, 'spec', { doc: 'operations', page: 'default' });
    const [block] = markdownToDocument(markdown).document.nodes;
    expect(block).toMatchObject({ type: 'openapi-operation', data: { path: '/ok/{id}', method: 'get' } });
  });

  it('checks the document props it is given', () => {
    expect(checkDocumentProps({ doc: 'models' })).toEqual({ doc: 'models' });
    expect(checkDocumentProps({ doc: 'operation', page: '/a', method: 'hook' })).toMatchObject({ method: 'hook' });
    for (const bad of [
      {},
      { doc: 'tag' },
      { doc: 'tag', page: '' },
      { doc: 'operation', page: '/a' },
      { doc: 'operation', page: '/a', method: 'GET' },
    ])
      expect(() => checkDocumentProps(bad)).toThrow();
  });
});
