import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerSpecParser } from '../infrastructure/worker-spec-parser';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'libs/openapi-specs/src/test/fixtures', name), 'utf8');
const minimal = (extra: object = {}) => JSON.stringify({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {}, ...extra });

describe('the OpenAPI parser (worker thread, swagger-parser)', () => {
  const parser = new WorkerSpecParser();

  it.each([
    ['swagger-2.0-petstore.yaml', 'yaml'],
    ['openapi-3.0-uspto.yaml', 'yaml'],
    ['openapi-3.0-circular.json', 'json'],
    ['openapi-3.0-github-issues-pulls-releases.json', 'json'],
  ])('accepts the real document %s', async (name, format) => {
    expect(await parser.parse(fixture(name))).toEqual({ ok: true, format });
  });

  it('accepts the official GitBook document (OpenAPI 3.1, 1.7 MB)', async () => {
    const text = readFileSync(join(process.cwd(), 'node_modules/@gitbook/api/spec/openapi.json'), 'utf8');
    expect(await parser.parse(text)).toEqual({ ok: true, format: 'json' });
  });

  it('reports syntax errors with their line, and what is not OpenAPI', async () => {
    const yaml = await parser.parse('openapi: 3.0.0\ninfo:\n  title: x\n  version: [1\npaths: {}\n');
    expect(yaml).toMatchObject({ ok: false, errors: [{ code: 'YAML_SYNTAX', line: expect.any(Number) }] });
    const json = await parser.parse('{\n  "openapi": "3.0.0",\n  "info": }\n');
    expect(json).toMatchObject({ ok: false, errors: [{ code: 'JSON_SYNTAX', line: 3, message: expect.stringMatching(/line 3/) }] });
    expect(await parser.parse('{"hello": 1}')).toMatchObject({ ok: false, errors: [{ code: 'NOT_OPENAPI' }] });
    expect(await parser.parse('- just\n- a list\n')).toMatchObject({ ok: false, errors: [{ code: 'NOT_OPENAPI' }] });
    expect(await parser.parse('key: value\nkey: again\n')).toMatchObject({ ok: false, errors: [{ code: 'YAML_SYNTAX' }] });
  });

  it('reports schema errors with a pointer, missing and external references', async () => {
    const invalid = await parser.parse(minimal({ paths: { '/a': { get: { responses: { 200: { descriptionx: 'd' } } } } } }));
    expect(invalid).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([expect.objectContaining({ code: 'SCHEMA', pointer: '#/paths/~1a/get/responses/200' })]),
    });
    const missing = await parser.parse(
      minimal({ paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Nope' } } } } } }),
    );
    expect(missing).toMatchObject({ ok: false, errors: [{ code: 'REF_NOT_FOUND' }] });
    const external = await parser.parse(
      minimal({ paths: { '/a': { get: { responses: { 200: { $ref: 'http://169.254.169.254/x.yaml#/R' } } } } } }),
    );
    expect(external).toMatchObject({ ok: false, errors: [{ code: 'EXTERNAL_REF', pointer: '#/paths/~1a/get/responses/200' }] });
  });

  it('survives hostile YAML: alias bombs are refused', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    expect(await parser.parse(`openapi: 3.0.0\n${bomb}\n`)).toMatchObject({ ok: false });
  });
});
