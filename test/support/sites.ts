import type { TestApp, TestUser } from './app';

/**
 * Puts a site's adaptive schema (`PUT …/sites/{siteId}/adaptive-schema`): boolean claims, `signed` at the top
 * level (a visitor token's), `unsigned` under `unsigned` (what a visitor may say of themselves), each described
 * by its name. `base` is the site's API path (`/v1/orgs/{id}/sites/{siteId}`).
 */
export async function putAdaptiveSchema(
  t: TestApp,
  who: TestUser,
  base: string,
  claims: { signed?: string[]; unsigned?: string[] },
): Promise<void> {
  const booleans = (names: string[] = []) => Object.fromEntries(names.map((n) => [n, { type: 'boolean', description: n }]));
  await t.http
    .put(`${base}/adaptive-schema`)
    .set(who.auth)
    .send({
      jsonSchema: {
        type: 'object',
        properties: {
          ...booleans(claims.signed),
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: booleans(claims.unsigned),
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    })
    .expect(200);
}
