import type { TestApp, TestUser } from './app';

/** Writes changes into a space's main content through a change request that is merged. */
export async function mergeChanges(t: TestApp, who: TestUser, spaceId: string, changes: object[]): Promise<void> {
  const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(who.auth).send({}).expect(201)).body.id as string;
  await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`).set(who.auth).send({ changes }).expect(200);
  await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(who.auth).expect(200);
}

/** A new space of the organization whose main content holds these pages (markdown); its id. */
export async function spaceWithPages(
  t: TestApp,
  who: TestUser,
  organizationId: string,
  pages: { title: string; markdown: string }[],
  fields: Record<string, unknown> = {},
): Promise<string> {
  const space = (
    await t.http
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(who.auth)
      .send({ title: 'Docs', ...fields })
      .expect(201)
  ).body.id as string;
  await mergeChanges(
    t,
    who,
    space,
    pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
  );
  return space;
}
