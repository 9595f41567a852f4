import { readFileSync, writeFileSync } from 'node:fs';
import { createTestApp, TestApp } from '../support/app';
import { operationsTables, withOperations } from '../support/operations-table';

/**
 * README.md's table of operations and docs/operations.md are generated from the document the API serves: this
 * fails when they drift from it (`npm run gen:operations` rewrites them), or when an official operation Quire
 * does not implement has no reason given.
 */
describe('the tables of operations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('README.md and docs/operations.md are what the served document gives, and every official operation not implemented says why', async () => {
    const tables = operationsTables((await t.http.get('/docs-json').expect(200)).body);
    expect(tables.unexplained).toEqual([]);
    const readme = withOperations(readFileSync('README.md', 'utf8'), tables.readme);
    if (process.env.QUIRE_WRITE_OPERATIONS === '1') {
      writeFileSync('README.md', readme);
      writeFileSync('docs/operations.md', tables.full);
    }
    expect(readFileSync('README.md', 'utf8')).toBe(readme);
    expect(readFileSync('docs/operations.md', 'utf8')).toBe(tables.full);
    // What the tables count is what is served: every served operation is in docs/operations.md once.
    const served = (await t.http.get('/docs-json').expect(200)).body as { paths: Record<string, Record<string, { operationId: string }>> };
    for (const ops of Object.values(served.paths))
      for (const op of Object.values(ops))
        expect([op.operationId, tables.full.split(`| \`${op.operationId}\` |`).length - 1]).toEqual([op.operationId, 1]);
  });
});
