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

/**
 * A new site of the organization (`fields` of its creation: title, visibility…) showing these spaces, one site
 * space each; with `adaptive`, its adaptive schema put and adaptive content on; published unless `publish` is
 * false. Its id.
 */
export async function createSite(
  t: TestApp,
  who: TestUser,
  organizationId: string,
  spaceIds: string[],
  options: { fields?: object; publish?: boolean; adaptive?: { signed?: string[]; unsigned?: string[] } } = {},
): Promise<string> {
  const id = (
    await t.http
      .post(`/v1/orgs/${organizationId}/sites`)
      .set(who.auth)
      .send({ title: 'Docs', ...options.fields })
      .expect(201)
  ).body.id as string;
  const base = `/v1/orgs/${organizationId}/sites/${id}`;
  for (const spaceId of spaceIds) await t.http.post(`${base}/site-spaces`).set(who.auth).send({ spaceId }).expect(201);
  if (options.adaptive) {
    await putAdaptiveSchema(t, who, base, options.adaptive);
    await t.http
      .patch(base)
      .set(who.auth)
      .send({ adaptiveContent: { enabled: true } })
      .expect(200);
  }
  if (options.publish !== false) await t.http.post(`${base}/publish`).set(who.auth).expect(200);
  return id;
}
