import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { operationView, type SchemaView } from '../domain/operation-view';

const fixture = (name: string): unknown => {
  const text = readFileSync(join(process.cwd(), 'libs/openapi-specs/src/test/fixtures', name), 'utf8');
  return name.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
};

/** Every schema node of an outline (to check it stays bounded). */
const nodes = (s: SchemaView | undefined): SchemaView[] =>
  s ? [s, ...(s.properties ?? []).flatMap((p) => nodes(p.schema)), ...nodes(s.items), ...(s.variants ?? []).flatMap(nodes)] : [];

describe('operationView: one operation of a real OpenAPI document, for a reader', () => {
  it('Swagger 2.0 (petstore): server from host and basePath, path parameter, body parameter as the request body, $ref schemas', () => {
    const doc = fixture('swagger-2.0-petstore.yaml');
    const get = operationView(doc, 'GET', '/pet/{petId}')!;
    expect(get.method).toBe('get');
    expect(get.servers).toEqual(['http://petstore.swagger.io/v2']); // its only scheme
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: 'petId', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer' }) }),
    ]);
    const ok = get.responses.find((r) => r.status === '200')!;
    expect(ok.bodies[0].schema?.properties?.map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'name', 'photoUrls', 'status']));
    expect(ok.bodies[0].schema?.properties?.find((p) => p.name === 'name')?.required).toBe(true);
    expect(JSON.parse(ok.bodies[0].example!)).toEqual(expect.objectContaining({ name: 'doggie' }));
    const post = operationView(doc, 'post', '/pet')!;
    expect(post.requestBody?.contentType).toBe('application/json');
    expect(post.requestBody?.required).toBe(true);
    expect(post.parameters.find((p) => p.in === 'body')).toBeUndefined();
  });

  it('OpenAPI 3.0 (USPTO): path parameters, a form request body, descriptions kept as text, an example from defaults', () => {
    const op = operationView(fixture('openapi-3.0-uspto.yaml'), 'post', '/{dataset}/{version}/records')!;
    expect(op.operationId).toBe('perform-search');
    expect(op.parameters.map((p) => p.name)).toEqual(['version', 'dataset']);
    expect(op.requestBody?.contentType).toBe('application/x-www-form-urlencoded');
    expect(JSON.parse(op.requestBody!.example!)).toEqual(expect.objectContaining({ criteria: '*:*', start: 0 }));
    expect(op.responses.map((r) => r.status)).toEqual(['200', '404']);
    expect(op.responses[1].bodies).toEqual([]);
  });

  it('a circular schema is named where it repeats, not followed forever', () => {
    const op = operationView(fixture('openapi-3.0-circular.json'), 'put', '/circular')!;
    const all = nodes(op.requestBody?.schema);
    expect(all.length).toBeLessThan(500);
    expect(all.some((s) => s.ref)).toBe(true);
  });

  it('a large real document (GitHub issues): the list-issues operation with its query parameters and response items', () => {
    const doc = fixture('openapi-3.0-github-issues-pulls-releases.json');
    const op = operationView(doc, 'get', '/repos/{owner}/{repo}/issues')!;
    expect(op.servers).toEqual(['https://api.github.com']);
    expect(op.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['owner', 'repo', 'state', 'per_page']));
    expect(op.parameters.find((p) => p.name === 'state')?.schema?.enum).toEqual(['"open"', '"closed"', '"all"']);
    const ok = op.responses.find((r) => r.status === '200')!;
    expect(ok.bodies[0].schema?.type).toBe('array');
    expect(ok.bodies[0].schema?.items?.properties?.length).toBeGreaterThan(10);
    expect(ok.bodies[0].example!.length).toBeLessThanOrEqual(20_002);
  });

  it('answers null for what is not an operation, and survives hostile documents', () => {
    const doc = fixture('swagger-2.0-petstore.yaml');
    expect(operationView(doc, 'get', '/nope')).toBeNull();
    expect(operationView(doc, 'constructor', '/pet')).toBeNull();
    expect(operationView(doc, 'get', '__proto__')).toBeNull();
    expect(operationView(null, 'get', '/')).toBeNull();
    expect(operationView({ paths: { '/a': { get: null } } }, 'get', '/a')).toBeNull();
    // A $ref chain that loops, a ref out of the document, a pointer through __proto__: outlined as nothing, no throw.
    const hostile = {
      openapi: '3.0.0',
      servers: [{ url: 'javascript:alert(1)' }, { url: 'https://api.example/' }],
      paths: {
        '/a': {
          get: {
            parameters: [{ $ref: '#/x' }, { name: 'q', in: 'query', schema: { $ref: 'https://evil.example/s.json' } }],
            responses: {
              '200': { $ref: '#/__proto__/polluted' },
              '201': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/y' } } } },
            },
          },
        },
      },
      x: { $ref: '#/x' },
      y: { $ref: '#/z' },
      z: { $ref: '#/y' },
    };
    const op = operationView(hostile, 'get', '/a')!;
    expect(op.servers).toEqual(['https://api.example']);
    expect(op.parameters).toEqual([expect.objectContaining({ name: 'q', schema: undefined })]);
    expect(op.responses).toEqual([{ status: '201', description: 'ok', bodies: [expect.objectContaining({ schema: undefined })] }]);
  });
});
