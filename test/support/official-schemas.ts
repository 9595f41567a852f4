import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Validates response bodies against the official GitBook v1 OpenAPI document (OpenAPI 3.1, JSON Schema
 * 2020-12), as shipped in the npm package @gitbook/api (and 0.167.0 for operations the newer one dropped).
 */
export function officialValidator(pkg: '@gitbook/api' | 'gitbook-api-0167' = '@gitbook/api') {
  const doc = JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'spec', 'openapi.json'), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // OpenAPI-only formats the official document uses; "emoji" is free text there.
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  ajv.addFormat('int32', true);
  ajv.addFormat('int64', true);
  ajv.addFormat('double', true);
  ajv.addFormat('float', true);
  ajv.addSchema(doc, 'gitbook');
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();

  return {
    /** Asserts that `body` matches components/schemas/<name>; returns the errors text for a failing expect. */
    check(name: string, body: unknown): string {
      let validate = cache.get(name);
      if (!validate) {
        validate = ajv.compile({ $ref: `gitbook#/components/schemas/${name}` });
        cache.set(name, validate);
      }
      return validate(body) ? '' : `${name}: ${ajv.errorsText(validate.errors, { separator: '\n' })}`;
    },
    /** The same for a list envelope of `name`. */
    checkList(name: string, body: { items: unknown[] }): string {
      const list = this.check('List', body);
      return [list, ...body.items.map((i) => this.check(name, i))].filter(Boolean).join('\n');
    },
  };
}
