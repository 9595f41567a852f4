import type { Response } from 'supertest';
import { Role, ROLES, roleAtLeast } from '@app/shared-kernel';
import { readGitbookRepository } from '@app/content-model';
import { RepositoryImport } from '@app/repository-sync';
import { TranslationsService } from '@app/translations';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { startGitServer, type GitServer } from '../support/git-server';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * docs/permissions.md, walked: each role tries each operation. Allowed → exactly the documented
 * success status, refused → 403, non-member → 404 (deletes: 204, as if absent, and nothing is deleted).
 * A guest (a member whose role is null) with no grant answers like a non-member everywhere but where
 * `GUEST` says. The organization holds a restricted collection (default level null) with a space in it
 * from the start, so every member row runs with the lists' narrowing on; its own rows are at the end.
 */
type Who = Role | 'guest' | 'non-member';
const WHO: Who[] = [...ROLES, 'guest', 'non-member'];
/** What a guest without a grant may do: see the organization itself, and its lists narrowed to nothing. */
const GUEST: Record<string, number> = {
  'GET /orgs/{id}': 200,
  'GET /orgs/{id}/spaces': 200,
  'GET /orgs/{id}/collections': 200,
  'GET /orgs/{id}/search': 200,
  'GET /orgs/{id}/change-requests': 200,
  'GET /orgs/{id}/sites': 200,
};

describe('permission matrix', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  const users = {} as Record<Who, TestUser>;

  let git: GitServer;

  beforeAll(async () => {
    // A Git server on loopback holds the repository of the site import and export rows.
    git = await startGitServer();
    const dir = mkdtempSync(join(tmpdir(), 'quire-matrix-site-'));
    mkdirSync(join(dir, 'guides'));
    writeFileSync(join(dir, 'guides/README.md'), '# Guides\n');
    writeFileSync(
      join(dir, 'gitbook-docs.yaml'),
      'site:\n  title: From Git\n  structure:\n    - type: space\n      key: guides\n      title: Guides\n      path: guides\n      default: true\n      content:\n        directory: ./guides\n',
    );
    git.seed('matrix-site', dir);
    rmSync(dir, { recursive: true, force: true });
    // An SMTP server that is never reached: jobs are off here, so invitation emails stay in the outbox.
    t = await createTestApp({ QUIRE_GIT_URL_ALLOWLIST: '127.0.0.1', QUIRE_SMTP_URL: 'smtp://127.0.0.1:9' });
    admin = await t.user('owner');
    orgId = await t.organization(admin);
    for (const who of WHO) {
      users[who] = await t.user(who);
      if (who !== 'non-member') await t.member(orgId, users[who], who === 'guest' ? null : who);
    }
    restricted.collection = (
      await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Internal' }).expect(201)
    ).body.id;
    await t.http.patch(`/v1/collections/${restricted.collection}`).set(admin.auth).send({ defaultLevel: null }).expect(200);
    restricted.space = (
      await t.http
        .post(`/v1/orgs/${orgId}/spaces`)
        .set(admin.auth)
        .send({ title: 'Internal space', parent: restricted.collection })
        .expect(201)
    ).body.id;
  });
  const restricted = { collection: '', space: '' };
  afterAll(async () => {
    await t.close();
    await git.close();
  });

  const as = (who: Who) => users[who].auth;
  /** The resource the last helper made: a foreign DELETE must leave it in place. */
  let last: { path: string; exists?: (body: unknown) => boolean } = { path: '' };
  const EXTERNAL = { kind: 'external', url: 'https://example.com/' };
  const made = (path: string, id: string, exists?: (body: unknown) => boolean) => ((last = { path, exists }), id);
  const space = async () => {
    const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'S' }).expect(201)).body.id as string;
    return made(`/v1/spaces/${id}`, id);
  };
  /** A space holding a reusable content (imported from a repository's `.gitbook/includes/`). */
  const withReusable = async () => {
    const id = await space();
    const files: Record<string, string> = { 'README.md': '# Home\n', '.gitbook/includes/note.md': '# Note\n\nShared text.\n' };
    const repo = readGitbookRepository({ paths: () => Object.keys(files), read: (p) => files[p] ?? null });
    const imported = await t.app.get(RepositoryImport).import({ userId: admin.id, tokenId: 'test' }, id, repo, () => null);
    await t.http.post(`/v1/spaces/${id}/change-requests/${imported.changeRequest!.changeRequest.id}/merge`).set(admin.auth).expect(200);
    const content = (await t.http.get(`/v1/spaces/${id}/content`).set(admin.auth).expect(200)).body;
    return { id, revision: content.id as string, reusable: content.reusableContents[0].id as string };
  };
  const collection = async () => {
    const id = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'C' }).expect(201)).body.id as string;
    return made(`/v1/collections/${id}`, id);
  };
  const team = async () => {
    const id = (await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: 'T' }).expect(201)).body.id as string;
    return made(`/v1/orgs/${orgId}/teams/${id}`, id);
  };
  const webhook = async () => {
    const body = { url: 'https://hooks.example.com/in', events: ['space.created'] };
    const id = (await t.http.post(`/v1/orgs/${orgId}/webhooks`).set(admin.auth).send(body).expect(201)).body.id as string;
    return made(`/v1/orgs/${orgId}/webhooks/${id}`, id);
  };
  const person = async () => {
    const u = await t.user('target');
    await t.member(orgId, u, 'read');
    return made(`/v1/orgs/${orgId}/members/${u.id}`, u.id);
  };
  /** A comment by the owner on a new space (or on a new change request of it), and optionally a reply. */
  const comment = async (where: 'space' | 'change-request' = 'space') => {
    const s = await space();
    const base =
      where === 'space'
        ? `/v1/spaces/${s}/comments`
        : `/v1/spaces/${s}/change-requests/${(await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body.id}/comments`;
    const id = (
      await t.http
        .post(base)
        .set(admin.auth)
        .send({ body: { markdown: 'c' } })
        .expect(200)
    ).body.id as string;
    return { base, path: made(`${base}/${id}`, `${base}/${id}`) };
  };
  const reply = async () => {
    const c = await comment();
    const id = (
      await t.http
        .post(`${c.path}/replies`)
        .set(admin.auth)
        .send({ body: { markdown: 'r' } })
        .expect(200)
    ).body.id as string;
    return made(`${c.path}/replies/${id}`, `${c.path}/replies/${id}`);
  };
  /** A change request by the owner, with a pending review request to the review-role member. */
  const changeRequest = async () => {
    const s = await space();
    const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    const base = `/v1/spaces/${s}/change-requests/${cr}`;
    await t.http
      .post(`${base}/requested-reviewers`)
      .set(admin.auth)
      .send({ users: [users.review.id] })
      .expect(200);
    made(base, cr);
    return base;
  };
  /** A space whose main content holds one page "Guide" (slug `guide`), merged from a change request kept open alongside. */
  const spaceWithPage = async () => {
    const s = await space();
    const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    await t.http
      .post(`/v1/spaces/${s}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Guide', document: {} }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${s}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const open = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    const revision = (await t.http.get(`/v1/spaces/${s}/content`).set(admin.auth).expect(200)).body.id as string;
    return { space: s, changeRequest: open, revision };
  };
  const lastTargetExists = async () => {
    const res = await t.http.get(last.path).set(admin.auth);
    return res.status === 200 && !res.body.deletedAt && (last.exists?.(res.body) ?? true);
  };
  /** A site of the owner: one section holding one site space, a section group, a share link, a schema. */
  const site = async () => {
    const s = await space();
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Site', spaces: [s] })
        .expect(201)
    ).body.id as string;
    const base = `/v1/orgs/${orgId}/sites/${id}`;
    const section = (await t.http.post(`${base}/sections`).set(admin.auth).send({ spaceId: s, title: 'Section' }).expect(201)).body;
    const group = (
      await t.http
        .post(`${base}/section-groups`)
        .set(admin.auth)
        .send({ title: 'Group', sections: [section.id] })
        .expect(201)
    ).body.id;
    const link = (await t.http.post(`${base}/share-links`).set(admin.auth).send({ name: 'Link' }).expect(201)).body.id as string;
    await t.http.post(`${base}/publish`).set(admin.auth).expect(200);
    made(base, id);
    return { base, space: s, section: section.id as string, siteSpace: section.siteSpaces[0].id as string, group: group as string, link };
  };
  /** An OpenAPI spec of the owner, from text (jobs are off here: it stays pending, with no version). */
  const spec = async () => {
    const slug = `spec-${Math.random().toString(36).slice(2, 10)}`;
    await t.http
      .post(`/v1/orgs/${orgId}/openapi`)
      .set(admin.auth)
      .send({ slug, source: { text: '{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{}}' } })
      .expect(201);
    return made(`/v1/orgs/${orgId}/openapi/${slug}`, `/v1/orgs/${orgId}/openapi/${slug}`);
  };
  /** A custom font of the owner (its regular face: a real woff2 file, uploaded once). */
  let fontKey: string | undefined;
  const font = async () => {
    if (!fontKey) {
      const bytes = readFileSync(join(process.cwd(), 'node_modules/katex/dist/fonts/KaTeX_Main-Regular.woff2'));
      const signed = (
        await t.http
          .post(`/v1/orgs/${orgId}/storage/upload`)
          .set(admin.auth)
          .send({ file: { name: 'Main.woff2', type: 'font/woff2', size: bytes.length }, kind: 'customization_font' })
          .expect(201)
      ).body as { url: string; key: string };
      await t.http.put(new URL(signed.url).pathname).set('Content-Type', 'font/woff2').send(bytes).expect(200);
      fontKey = signed.key;
    }
    const id = (
      await t.http
        .put(`/v1/orgs/${orgId}/fonts`)
        .set(admin.auth)
        .send({ fontFamily: 'Main', fontFaces: [{ weight: 400, storageKey: fontKey }] })
        .expect(201)
    ).body.id as string;
    return made(`/v1/orgs/${orgId}/fonts/${id}`, `/v1/orgs/${orgId}/fonts/${id}`);
  };
  /** A translation of a new space by the owner (jobs are off here: it stays pending). */
  const translation = async () => {
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: await space(), language: 'en' } })
        .expect(201)
    ).body.id as string;
    return made(`/v1/orgs/${orgId}/translations/${id}`, `/v1/orgs/${orgId}/translations/${id}`);
  };
  /** A space or collection of the owner on which the read-role member was granted `comment`, and a team granted `read`. */
  const granted = async (kind: 'spaces' | 'collections') => {
    const id = kind === 'spaces' ? await space() : await collection();
    const base = `/v1/${kind}/${id}/permissions`;
    const teamId = (await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: 'G' }).expect(201)).body.id as string;
    await t.http
      .post(base)
      .set(admin.auth)
      .send({ role: 'comment', users: [users.read.id] })
      .expect(204);
    await t.http
      .post(base)
      .set(admin.auth)
      .send({ role: 'read', teams: [teamId] })
      .expect(204);
    return { base, team: teamId };
  };
  const grantedUser = async (kind: 'spaces' | 'collections') => {
    const g = await granted(kind);
    made(`${g.base}/users`, users.read.id, (body) => JSON.stringify(body).includes(`"${users.read.id}"`));
    return `${g.base}/users/${users.read.id}`;
  };
  const grantedTeam = async (kind: 'spaces' | 'collections') => {
    const g = await granted(kind);
    made(`${g.base}/teams`, g.team, (body) => JSON.stringify(body).includes(`"${g.team}"`));
    return `${g.base}/teams/${g.team}`;
  };
  /** A site of the owner on which the read-role member was granted `comment`, and a team granted `read`. */
  const grantedSite = async () => {
    const x = await site();
    const base = `${x.base}/permissions`;
    const teamId = (await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: 'S' }).expect(201)).body.id as string;
    await t.http
      .post(base)
      .set(admin.auth)
      .send({ role: 'comment', users: [users.read.id] })
      .expect(204);
    await t.http
      .post(base)
      .set(admin.auth)
      .send({ role: 'read', teams: [teamId] })
      .expect(204);
    return { base, team: teamId };
  };
  /** The site's structure still holds this id (for DELETE rows on structure items). */
  const inStructure = (base: string, itemId: string) =>
    made(`${base}/structure`, itemId, (body) => JSON.stringify(body).includes(`"${itemId}"`));
  const schema = {
    type: 'object',
    properties: { beta: { type: 'boolean', description: 'Beta' } },
    additionalProperties: false,
  };

  /** [operation, minimum role, request]; `delete` marks operations whose non-member answer is 204. */
  const operations: [string, Role, number, (who: Who) => Promise<Response>, 'delete'?][] = [
    ['GET /orgs/{id}', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}`).set(as(w))],
    ['PATCH /orgs/{id}', 'admin', 200, (w) => t.http.patch(`/v1/orgs/${orgId}`).set(as(w)).send({ ai: true })],
    ['GET /orgs/{id}/spaces', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/spaces`).set(as(w))],
    ['POST /orgs/{id}/spaces', 'create', 201, (w) => t.http.post(`/v1/orgs/${orgId}/spaces`).set(as(w)).send({ title: 'New' })],
    ['GET /orgs/{id}/collections', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/collections`).set(as(w))],
    ['POST /orgs/{id}/collections', 'create', 201, (w) => t.http.post(`/v1/orgs/${orgId}/collections`).set(as(w)).send({ title: 'New' })],
    ['GET /spaces/{id}', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}`).set(as(w))],
    // A host that does not resolve (.invalid): a plain link embed, with no network needed.
    [
      'GET /spaces/{id}/embed',
      'read',
      200,
      async (w) =>
        t.http
          .get(`/v1/spaces/${await space()}/embed`)
          .query({ url: 'https://quire-matrix.invalid/page' })
          .set(as(w)),
    ],
    [
      'GET /urls/content (a space’s app URL)',
      'read',
      200,
      async (w) => {
        const app = (
          await t.http
            .get(`/v1/spaces/${await space()}`)
            .set(admin.auth)
            .expect(200)
        ).body.urls.app as string;
        return t.http.get('/v1/urls/content').query({ url: app }).set(as(w));
      },
    ],
    [
      'PATCH /spaces/{id} title',
      'edit',
      200,
      async (w) =>
        t.http
          .patch(`/v1/spaces/${await space()}`)
          .set(as(w))
          .send({ title: 'Renamed' }),
    ],
    [
      'PATCH /spaces/{id} editMode',
      'admin',
      200,
      async (w) =>
        t.http
          .patch(`/v1/spaces/${await space()}`)
          .set(as(w))
          .send({ editMode: 'locked' }),
    ],
    ['DELETE /spaces/{id}', 'admin', 205, async (w) => t.http.delete(`/v1/spaces/${await space()}`).set(as(w)), 'delete'],
    ['POST /spaces/{id}/duplicate', 'create', 201, async (w) => t.http.post(`/v1/spaces/${await space()}/duplicate`).set(as(w))],
    [
      'POST /spaces/{id}/move',
      'admin',
      200,
      async (w) => {
        const first = await space();
        await space();
        return t.http.post(`/v1/spaces/${first}/move`).set(as(w)).send({ parent: null });
      },
    ],
    ['GET /collections/{id}', 'read', 200, async (w) => t.http.get(`/v1/collections/${await collection()}`).set(as(w))],
    ['GET /collections/{id}/spaces', 'read', 200, async (w) => t.http.get(`/v1/collections/${await collection()}/spaces`).set(as(w))],
    [
      'PATCH /collections/{id}',
      'admin',
      200,
      async (w) =>
        t.http
          .patch(`/v1/collections/${await collection()}`)
          .set(as(w))
          .send({ title: 'R' }),
    ],
    ['DELETE /collections/{id}', 'admin', 205, async (w) => t.http.delete(`/v1/collections/${await collection()}`).set(as(w)), 'delete'],
    ['GET /orgs/{id}/members', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/members`).set(as(w))],
    ['GET /orgs/{id}/members/{userId}', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/members/${admin.id}`).set(as(w))],
    [
      'PATCH /orgs/{id}/members/{userId}',
      'admin',
      200,
      async (w) =>
        t.http
          .patch(`/v1/orgs/${orgId}/members/${await person()}`)
          .set(as(w))
          .send({ role: 'comment' }),
    ],
    [
      'DELETE /orgs/{id}/members/{userId} (someone else)',
      'admin',
      205,
      async (w) => t.http.delete(`/v1/orgs/${orgId}/members/${await person()}`).set(as(w)),
      'delete',
    ],
    ['GET /orgs/{id}/members/{userId}/spaces', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/members/${admin.id}/spaces`).set(as(w))],
    ['GET /orgs/{id}/members/{userId}/teams', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/members/${admin.id}/teams`).set(as(w))],
    ['GET /orgs/{id}/teams', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/teams`).set(as(w))],
    ['PUT /orgs/{id}/teams', 'admin', 201, (w) => t.http.put(`/v1/orgs/${orgId}/teams`).set(as(w)).send({ title: 'Team' })],
    ['GET /orgs/{id}/teams/{teamId}', 'read', 200, async (w) => t.http.get(`/v1/orgs/${orgId}/teams/${await team()}`).set(as(w))],
    [
      'GET /orgs/{id}/teams/{teamId}/members',
      'read',
      200,
      async (w) => t.http.get(`/v1/orgs/${orgId}/teams/${await team()}/members`).set(as(w)),
    ],
    [
      'PATCH /orgs/{id}/teams/{teamId} (not owner)',
      'admin',
      200,
      async (w) =>
        t.http
          .patch(`/v1/orgs/${orgId}/teams/${await team()}`)
          .set(as(w))
          .send({ title: 'R' }),
    ],
    [
      'PUT /orgs/{id}/teams/{teamId}/members (not owner)',
      'admin',
      204,
      async (w) =>
        t.http
          .put(`/v1/orgs/${orgId}/teams/${await team()}/members`)
          .set(as(w))
          .send({ add: [admin.id] }),
    ],
    [
      'DELETE /orgs/{id}/teams/{teamId} (not owner)',
      'admin',
      205,
      async (w) => t.http.delete(`/v1/orgs/${orgId}/teams/${await team()}`).set(as(w)),
      'delete',
    ],
    ['GET /orgs/{id}/link-invites', 'admin', 200, (w) => t.http.get(`/v1/orgs/${orgId}/link-invites`).set(as(w))],
    [
      'POST /orgs/{id}/invites',
      'admin',
      200,
      (w) =>
        t.http
          .post(`/v1/orgs/${orgId}/invites`)
          .set(as(w))
          .send({ emails: [`invitee-${Math.random().toString(36).slice(2, 10)}@example.com`] }),
    ],
    ['POST /orgs/{id}/link-invites', 'admin', 201, (w) => t.http.post(`/v1/orgs/${orgId}/link-invites`).set(as(w)).send({ role: 'read' })],
    ['GET /orgs/{id}/saml', 'admin', 200, (w) => t.http.get(`/v1/orgs/${orgId}/saml`).set(as(w))],
    ['POST /orgs/{id}/saml', 'admin', 201, (w) => t.http.post(`/v1/orgs/${orgId}/saml`).set(as(w)).send({ label: 'IdP' })],
    ['GET /orgs/{id}/sso', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/sso`).set(as(w))],
    ['GET /orgs/{id}/audit-events', 'admin', 200, (w) => t.http.get(`/v1/orgs/${orgId}/audit-events`).set(as(w))],
    ['GET /orgs/{id}/webhooks', 'admin', 200, (w) => t.http.get(`/v1/orgs/${orgId}/webhooks`).set(as(w))],
    [
      'POST /orgs/{id}/webhooks',
      'admin',
      201,
      (w) =>
        t.http
          .post(`/v1/orgs/${orgId}/webhooks`)
          .set(as(w))
          .send({ url: 'https://hooks.example.com/in', events: ['space.created'] }),
    ],
    [
      'GET /orgs/{id}/webhooks/{webhookId}',
      'admin',
      200,
      async (w) => t.http.get(`/v1/orgs/${orgId}/webhooks/${await webhook()}`).set(as(w)),
    ],
    [
      'PATCH /orgs/{id}/webhooks/{webhookId}',
      'admin',
      200,
      async (w) =>
        t.http
          .patch(`/v1/orgs/${orgId}/webhooks/${await webhook()}`)
          .set(as(w))
          .send({ description: 'changed' }),
    ],
    [
      'DELETE /orgs/{id}/webhooks/{webhookId}',
      'admin',
      205,
      async (w) => t.http.delete(`/v1/orgs/${orgId}/webhooks/${await webhook()}`).set(as(w)),
      'delete',
    ],
    [
      'GET /orgs/{id}/webhooks/{webhookId}/deliveries',
      'admin',
      200,
      async (w) => t.http.get(`/v1/orgs/${orgId}/webhooks/${await webhook()}/deliveries`).set(as(w)),
    ],
    [
      'POST /orgs/{id}/webhooks/{webhookId}/ping',
      'admin',
      201,
      async (w) => t.http.post(`/v1/orgs/${orgId}/webhooks/${await webhook()}/ping`).set(as(w)),
    ],
    [
      'GET /orgs/{id}/webhooks/{webhookId}/deliveries/{deliveryId}',
      'admin',
      200,
      async (w) => {
        const id = await webhook();
        const ping = await t.http.post(`/v1/orgs/${orgId}/webhooks/${id}/ping`).set(as('admin')).expect(201);
        return t.http.get(`/v1/orgs/${orgId}/webhooks/${id}/deliveries/${ping.body.id}`).set(as(w));
      },
    ],
    [
      'POST /orgs/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
      'admin',
      201,
      async (w) => {
        const id = await webhook();
        const ping = await t.http.post(`/v1/orgs/${orgId}/webhooks/${id}/ping`).set(as('admin')).expect(201);
        return t.http.post(`/v1/orgs/${orgId}/webhooks/${id}/deliveries/${ping.body.id}/redeliver`).set(as(w));
      },
    ],
    ['GET /orgs/{id}/audit-event-actions', 'admin', 200, (w) => t.http.get(`/v1/orgs/${orgId}/audit-event-actions`).set(as(w))],
    [
      'GET /orgs/{id}/audit-events/{auditEventId}',
      'admin',
      200,
      async (w) => {
        await t.http.post(`/v1/orgs/${orgId}/spaces`).set(as('admin')).send({ title: 'Audited' }).expect(201);
        const newest = await t.http.get(`/v1/orgs/${orgId}/audit-events?limit=1`).set(as('admin'));
        return t.http.get(`/v1/orgs/${orgId}/audit-events/${newest.body.items[0].id}`).set(as(w));
      },
    ],
    ['GET /spaces/{id}/content/pages', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}/content/pages`).set(as(w))],
    [
      'GET /spaces/{id}/content/path/{pagePath}',
      'read',
      200,
      async (w) => t.http.get(`/v1/spaces/${(await spaceWithPage()).space}/content/path/guide`).set(as(w)),
    ],
    [
      'GET /spaces/{id}/content/page/{pageId}/rendered',
      'read',
      200,
      async (w) => {
        const { space: s } = await spaceWithPage();
        const page = (await t.http.get(`/v1/spaces/${s}/content/path/guide`).set(admin.auth).expect(200)).body.id as string;
        return t.http.get(`/v1/spaces/${s}/content/page/${page}/rendered`).set(as(w));
      },
    ],
    ...(
      [
        ['GET …/change-requests/{id}/content/page/{pageId}/rendered', 'read', 'rendered'],
        ['GET …/change-requests/{id}/content/page/{pageId}/meta-links', 'read', 'meta-links'],
        ['GET …/change-requests/{id}/content/page/{pageId}/diff', 'read', 'diff'],
        ['POST …/change-requests/{id}/content/page/{pageId}/preview', 'edit', 'preview'],
      ] as const
    ).map(([name, role, route]): [string, Role, number, (who: Who) => Promise<Response>] => [
      name,
      role,
      200,
      async (w) => {
        const p = await spaceWithPage();
        const at = `/v1/spaces/${p.space}/change-requests/${p.changeRequest}/content`;
        const page = (await t.http.get(`${at}/path/guide`).set(admin.auth).expect(200)).body.id as string;
        return route === 'preview'
          ? t.http.post(`${at}/page/${page}/preview`).set(as(w)).send({ markdown: '# Guide\n\nNew words.' })
          : t.http.get(`${at}/page/${page}/${route}`).set(as(w));
      },
    ]),
    [
      'GET /spaces/{id}/revisions/{revisionId}/page/{pageId}/rendered',
      'read',
      200,
      async (w) => {
        const p = await spaceWithPage();
        const page = (await t.http.get(`/v1/spaces/${p.space}/content/path/guide`).set(admin.auth).expect(200)).body.id as string;
        return t.http.get(`/v1/spaces/${p.space}/revisions/${p.revision}/page/${page}/rendered`).set(as(w));
      },
    ],
    ...(['content', 'revision'] as const).map((where): [string, Role, number, (who: Who) => Promise<Response>] => [
      where === 'content'
        ? 'GET /spaces/{id}/content/page/{pageId}/meta-links'
        : 'GET /spaces/{id}/revisions/{revisionId}/page/{pageId}/meta-links',
      'read',
      200,
      async (w) => {
        const p = await spaceWithPage();
        const page = (await t.http.get(`/v1/spaces/${p.space}/content/path/guide`).set(admin.auth).expect(200)).body.id as string;
        const at = where === 'content' ? `/v1/spaces/${p.space}/content` : `/v1/spaces/${p.space}/revisions/${p.revision}`;
        return t.http.get(`${at}/page/${page}/meta-links`).set(as(w));
      },
    ]),
    [
      'GET /spaces/{id}/revisions/{revisionId}/path/{pagePath}',
      'read',
      200,
      async (w) => {
        const p = await spaceWithPage();
        return t.http.get(`/v1/spaces/${p.space}/revisions/${p.revision}/path/guide`).set(as(w));
      },
    ],
    [
      'GET …/change-requests/{id}/content/path/{pagePath}',
      'read',
      200,
      async (w) => {
        const p = await spaceWithPage();
        return t.http.get(`/v1/spaces/${p.space}/change-requests/${p.changeRequest}/content/path/guide`).set(as(w));
      },
    ],
    ...(['document', 'revision'] as const).map((kind): [string, Role, number, (who: Who) => Promise<Response>] => [
      `POST /spaces/{id}/content/computed/${kind}`,
      'read',
      200,
      async (w) => {
        // builtin:translation (Apertium, en→es): a page's body translated now; the revision, the translation's run.
        const s = await space();
        const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
        await t.http
          .post(`/v1/spaces/${s}/change-requests/${cr}/content`)
          .set(admin.auth)
          .send({ changes: [{ operation: 'insert_page', title: 'Home', document: { markdown: 'The house is red.' } }] })
          .expect(200);
        await t.http.post(`/v1/spaces/${s}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
        const page = (await t.http.get(`/v1/spaces/${s}/content`).set(admin.auth).expect(200)).body.pages[0];
        const translation = (
          await t.http
            .post(`/v1/orgs/${orgId}/translations`)
            .set(admin.auth)
            .send({ language: 'es', source: { space: s, language: 'en' } })
            .expect(201)
        ).body.id as string;
        if (kind === 'revision') expect(await t.app.get(TranslationsService).run(translation)).toBe('completed');
        made(`/v1/spaces/${s}`, s);
        const props = kind === 'document' ? { space: s, document: page.documentId } : {};
        return t.http
          .post(`/v1/spaces/${s}/content/computed/${kind}`)
          .set(as(w))
          .send({
            source: { type: 'builtin:translation', props, dependencies: { translation: { ref: { kind: 'translation', translation } } } },
            seed: 's',
          });
      },
    ]),
    ['GET /spaces/{id}/search', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}/search?query=x`).set(as(w))],
    ['GET /spaces/{id}/pdf', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}/pdf`).set(as(w))],
    [
      'GET /spaces/{id}/documents/{documentId}',
      'read',
      200,
      async (w) => {
        // A space with a page that has a body, written through a merged change request.
        const s = await space();
        const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
        const written = await t.http
          .post(`/v1/spaces/${s}/change-requests/${cr}/content`)
          .query({ compat: 'false' })
          .set(admin.auth)
          .send({ changes: [{ operation: 'insert_page', ref: 'p', document: { markdown: 'Body.' } }] })
          .expect(200);
        await t.http.post(`/v1/spaces/${s}/change-requests/${cr}/merge`).set(admin.auth).send({}).expect(200);
        const page = (await t.http.get(`/v1/spaces/${s}/content/page/${written.body.changes[0].page.id}`).set(admin.auth).expect(200)).body;
        const documentId = page.documentId as string;
        return t.http.get(`/v1/spaces/${s}/documents/${documentId}`).set(as(w));
      },
    ],
    ['GET /orgs/{id}/search', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/search?query=x`).set(as(w))],
    ['GET /spaces/{id}/links', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}/links`).set(as(w))],
    [
      'GET /spaces/{id}/content/broken-links',
      'read',
      200,
      async (w) => t.http.get(`/v1/spaces/${await space()}/content/broken-links`).set(as(w)),
    ],
    [
      'POST /spaces/{id}/content/template',
      'edit',
      204,
      async (w) =>
        t.http
          .post(`/v1/spaces/${await space()}/content/template`)
          .set(as(w))
          .send({ id: 'getting-started' }),
    ],
    [
      'POST /spaces/{id}/git/import',
      'edit',
      204,
      async (w) =>
        t.http
          .post(`/v1/spaces/${await space()}/git/import`)
          .set(as(w))
          .send({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' }),
    ],
    [
      'POST /spaces/{id}/git/export',
      'edit',
      204,
      async (w) =>
        t.http
          .post(`/v1/spaces/${await space()}/git/export`)
          .set(as(w))
          .send({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', commitMessage: 'Sync' }),
    ],
    [
      'GET /spaces/{id}/git/info',
      'read',
      200,
      async (w) => {
        const id = await space();
        await t.http
          .post(`/v1/spaces/${id}/git/import`)
          .set(admin.auth)
          .send({ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' })
          .expect(204);
        return t.http.get(`/v1/spaces/${id}/git/info`).set(as(w));
      },
    ],
    [
      'GET /spaces/{id}/content/reusable-contents/{id}',
      'read',
      200,
      async (w) => {
        const r = await withReusable();
        return t.http.get(`/v1/spaces/${r.id}/content/reusable-contents/${r.reusable}`).set(as(w));
      },
    ],
    [
      'GET /spaces/{id}/revisions/{id}/reusable-contents/{id}',
      'read',
      200,
      async (w) => {
        const r = await withReusable();
        return t.http.get(`/v1/spaces/${r.id}/revisions/${r.revision}/reusable-contents/${r.reusable}`).set(as(w));
      },
    ],
    [
      'GET /spaces/{id}/change-requests/{id}/content/reusable-contents/{id}',
      'read',
      200,
      async (w) => {
        const r = await withReusable();
        const cr = (await t.http.post(`/v1/spaces/${r.id}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
        return t.http.get(`/v1/spaces/${r.id}/change-requests/${cr}/content/reusable-contents/${r.reusable}`).set(as(w));
      },
    ],
    [
      'GET /spaces/{id}/revisions/{id}/reusable-contents/{id}/document',
      'read',
      200,
      async (w) => {
        const r = await withReusable();
        return t.http.get(`/v1/spaces/${r.id}/revisions/${r.revision}/reusable-contents/${r.reusable}/document`).set(as(w));
      },
    ],
    ['GET /spaces/{id}/change-requests', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}/change-requests`).set(as(w))],
    [
      'POST /spaces/{id}/change-requests',
      'edit',
      201,
      async (w) =>
        t.http
          .post(`/v1/spaces/${await space()}/change-requests`)
          .set(as(w))
          .send({}),
    ],
    [
      'GET …/change-requests/{id}/description',
      'read',
      200,
      async (w) => {
        const s = await space();
        const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body;
        await t.http
          .patch(`/v1/spaces/${s}/change-requests/${cr.id}`)
          .set(admin.auth)
          .send({ description: { markdown: 'Why.' } })
          .expect(200);
        return t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/description`).set(as(w));
      },
    ],
    [
      'PATCH …/change-requests/{id} (description as markdown)',
      'edit',
      200,
      async (w) => {
        const s = await space();
        const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body;
        return t.http
          .patch(`/v1/spaces/${s}/change-requests/${cr.id}`)
          .set(as(w))
          .send({ description: { markdown: 'Why.' } });
      },
    ],
    [
      'POST …/change-requests/{id}/content',
      'edit',
      200,
      async (w) => {
        const s = await space();
        const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body;
        return t.http
          .post(`/v1/spaces/${s}/change-requests/${cr.id}/content`)
          .set(as(w))
          .send({ changes: [{ operation: 'insert_page', title: 'P', document: {} }] });
      },
    ],
    [
      'POST …/change-requests/{id}/merge',
      'edit',
      200,
      async (w) => {
        const s = await space();
        const cr = (await t.http.post(`/v1/spaces/${s}/change-requests`).set(admin.auth).send({}).expect(201)).body;
        return t.http.post(`/v1/spaces/${s}/change-requests/${cr.id}/merge`).set(as(w));
      },
    ],
    ['GET /spaces/{id}/comments', 'read', 200, async (w) => t.http.get((await comment()).base).set(as(w))],
    [
      'GET /spaces/{id}/commenters',
      'read',
      200,
      async (w) => t.http.get((await comment()).base.replace(/comments$/, 'commenters')).set(as(w)),
    ],
    [
      'POST /spaces/{id}/comments',
      'comment',
      200,
      async (w) =>
        t.http
          .post(`/v1/spaces/${await space()}/comments`)
          .set(as(w))
          .send({ body: { markdown: 'x' } }),
    ],
    ['GET /spaces/{id}/comments/{commentId}', 'read', 200, async (w) => t.http.get((await comment()).path).set(as(w))],
    [
      'PUT /spaces/{id}/comments/{commentId} (resolve, react)',
      'comment',
      200,
      async (w) =>
        t.http
          .put((await comment()).path)
          .set(as(w))
          .send({ resolved: true, addedReactions: ['👍'] }),
    ],
    [
      "DELETE /spaces/{id}/comments/{commentId} (another's)",
      'admin',
      205,
      async (w) => t.http.delete((await comment()).path).set(as(w)),
      'delete',
    ],
    ['GET …/comments/{commentId}/replies', 'read', 200, async (w) => t.http.get(`${(await comment()).path}/replies`).set(as(w))],
    [
      'POST …/comments/{commentId}/replies',
      'comment',
      200,
      async (w) =>
        t.http
          .post(`${(await comment()).path}/replies`)
          .set(as(w))
          .send({ body: { markdown: 'x' } }),
    ],
    ['GET …/replies/{commentReplyId}', 'read', 200, async (w) => t.http.get(await reply()).set(as(w))],
    [
      'PUT …/replies/{commentReplyId} (react)',
      'comment',
      200,
      async (w) =>
        t.http
          .put(await reply())
          .set(as(w))
          .send({ addedReactions: ['👍'] }),
    ],
    ["DELETE …/replies/{commentReplyId} (another's)", 'admin', 205, async (w) => t.http.delete(await reply()).set(as(w)), 'delete'],
    ['GET …/change-requests/{id}/comments', 'read', 200, async (w) => t.http.get((await comment('change-request')).base).set(as(w))],
    [
      'GET …/change-requests/{id}/commenters',
      'read',
      200,
      async (w) => t.http.get((await comment('change-request')).base.replace(/comments$/, 'commenters')).set(as(w)),
    ],
    [
      'POST …/change-requests/{id}/comments',
      'comment',
      200,
      async (w) =>
        t.http
          .post((await comment('change-request')).base)
          .set(as(w))
          .send({ body: { markdown: 'x' } }),
    ],
    [
      'PUT …/change-requests/{id}/comments/{commentId} (resolve)',
      'comment',
      200,
      async (w) =>
        t.http
          .put((await comment('change-request')).path)
          .set(as(w))
          .send({ resolved: true }),
    ],
    [
      "DELETE …/change-requests/{id}/comments/{commentId} (another's)",
      'admin',
      205,
      async (w) => t.http.delete((await comment('change-request')).path).set(as(w)),
      'delete',
    ],
    ['GET …/change-requests/{id}/pdf', 'read', 200, async (w) => t.http.get(`${await changeRequest()}/pdf`).set(as(w))],
    ['GET …/change-requests/{id}/contributors', 'read', 200, async (w) => t.http.get(`${await changeRequest()}/contributors`).set(as(w))],
    ['GET /orgs/{id}/change-requests', 'read', 200, async (w) => t.http.get(`/v1/orgs/${orgId}/change-requests`).set(as(w))],
    ['GET …/change-requests/{id}/reviews', 'read', 200, async (w) => t.http.get(`${await changeRequest()}/reviews`).set(as(w))],
    [
      'POST …/change-requests/{id}/reviews',
      'review',
      201,
      async (w) =>
        t.http
          .post(`${await changeRequest()}/reviews`)
          .set(as(w))
          .send({ status: 'approved' }),
    ],
    [
      'GET …/reviews/{reviewId}',
      'read',
      200,
      async (w) => {
        const base = await changeRequest();
        const id = (await t.http.post(`${base}/reviews`).set(users.review.auth).send({ status: 'approved' }).expect(201)).body.id as string;
        return t.http.get(`${base}/reviews/${id}`).set(as(w));
      },
    ],
    [
      'GET …/change-requests/{id}/requested-reviewers',
      'read',
      200,
      async (w) => t.http.get(`${await changeRequest()}/requested-reviewers`).set(as(w)),
    ],
    [
      'POST …/change-requests/{id}/requested-reviewers',
      'edit',
      200,
      async (w) =>
        t.http
          .post(`${await changeRequest()}/requested-reviewers`)
          .set(as(w))
          .send({ users: [users.admin.id] }),
    ],
    [
      'DELETE …/requested-reviewers/{userId}',
      'edit',
      205,
      async (w) => t.http.delete(`${await changeRequest()}/requested-reviewers/${users.review.id}`).set(as(w)),
      'delete',
    ],
    ['GET /orgs/{id}/conversations', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/conversations`).set(as(w))],
    ['GET /orgs/{id}/conversations-issues', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/conversations-issues`).set(as(w))],
    ['GET /orgs/{id}/conversations-clusters', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/conversations-clusters`).set(as(w))],
    [
      'POST /orgs/{id}/conversations',
      'admin',
      204,
      (w) =>
        t.http
          .post(`/v1/orgs/${orgId}/conversations`)
          .set(as(w))
          .send({ id: `c-${w}`, parts: [{ type: 'message', role: 'user', body: 'Search is broken' }] }),
    ],
    ['GET /orgs/{id}/agent-instructions', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/agent-instructions`).set(as(w))],
    [
      'PUT /orgs/{id}/agent-instructions',
      'admin',
      200,
      (w) =>
        t.http
          .put(`/v1/orgs/${orgId}/agent-instructions`)
          .set(as(w))
          .send({ instructions: { object: 'document', nodes: [] } }),
    ],
    [
      'POST /spaces/{id}/permissions',
      'admin',
      204,
      async (w) =>
        t.http
          .post(`${(await granted('spaces')).base}`)
          .set(as(w))
          .send({ role: 'edit', users: [users.edit.id] }),
    ],
    ['GET /spaces/{id}/permissions/users', 'read', 200, async (w) => t.http.get(`${(await granted('spaces')).base}/users`).set(as(w))],
    [
      'GET /spaces/{id}/permissions/aggregate',
      'read',
      200,
      async (w) => t.http.get(`${(await granted('spaces')).base}/aggregate`).set(as(w)),
    ],
    ['GET /spaces/{id}/permissions/teams', 'read', 200, async (w) => t.http.get(`${(await granted('spaces')).base}/teams`).set(as(w))],
    [
      'PATCH /spaces/{id}/permissions/users/{userId}',
      'admin',
      204,
      async (w) =>
        t.http
          .patch(await grantedUser('spaces'))
          .set(as(w))
          .send({ role: 'edit' }),
    ],
    [
      'PATCH /spaces/{id}/permissions/teams/{teamId}',
      'admin',
      204,
      async (w) =>
        t.http
          .patch(await grantedTeam('spaces'))
          .set(as(w))
          .send({ role: 'edit' }),
    ],
    [
      'DELETE /spaces/{id}/permissions/users/{userId}',
      'admin',
      205,
      async (w) => t.http.delete(await grantedUser('spaces')).set(as(w)),
      'delete',
    ],
    [
      'DELETE /spaces/{id}/permissions/teams/{teamId}',
      'admin',
      205,
      async (w) => t.http.delete(await grantedTeam('spaces')).set(as(w)),
      'delete',
    ],
    [
      'POST /collections/{id}/permissions',
      'admin',
      204,
      async (w) =>
        t.http
          .post(`${(await granted('collections')).base}`)
          .set(as(w))
          .send({ role: 'edit', users: [users.edit.id] }),
    ],
    [
      'GET /collections/{id}/permissions/users',
      'read',
      200,
      async (w) => t.http.get(`${(await granted('collections')).base}/users`).set(as(w)),
    ],
    [
      'GET /collections/{id}/permissions/aggregate',
      'read',
      200,
      async (w) => t.http.get(`${(await granted('collections')).base}/aggregate`).set(as(w)),
    ],
    [
      'GET /collections/{id}/permissions/teams',
      'read',
      200,
      async (w) => t.http.get(`${(await granted('collections')).base}/teams`).set(as(w)),
    ],
    [
      'PATCH /collections/{id}/permissions/users/{userId}',
      'admin',
      204,
      async (w) =>
        t.http
          .patch(await grantedUser('collections'))
          .set(as(w))
          .send({ role: 'edit' }),
    ],
    [
      'PATCH /collections/{id}/permissions/teams/{teamId}',
      'admin',
      204,
      async (w) =>
        t.http
          .patch(await grantedTeam('collections'))
          .set(as(w))
          .send({ role: 'edit' }),
    ],
    [
      'DELETE /collections/{id}/permissions/users/{userId}',
      'admin',
      205,
      async (w) => t.http.delete(await grantedUser('collections')).set(as(w)),
      'delete',
    ],
    [
      'DELETE /collections/{id}/permissions/teams/{teamId}',
      'admin',
      205,
      async (w) => t.http.delete(await grantedTeam('collections')).set(as(w)),
      'delete',
    ],
    [
      'POST …/sites/{siteId}/permissions',
      'admin',
      204,
      async (w) =>
        t.http
          .post((await grantedSite()).base)
          .set(as(w))
          .send({ role: 'edit', users: [users.edit.id] }),
    ],
    ['GET …/sites/{siteId}/permissions/users', 'read', 200, async (w) => t.http.get(`${(await grantedSite()).base}/users`).set(as(w))],
    ['GET …/sites/{siteId}/permissions/teams', 'read', 200, async (w) => t.http.get(`${(await grantedSite()).base}/teams`).set(as(w))],
    [
      'GET …/sites/{siteId}/permissions/aggregate',
      'read',
      200,
      async (w) => t.http.get(`${(await grantedSite()).base}/aggregate`).set(as(w)),
    ],
    [
      'PATCH …/sites/{siteId}/permissions/users/{userId}',
      'admin',
      204,
      async (w) =>
        t.http
          .patch(`${(await grantedSite()).base}/users/${users.read.id}`)
          .set(as(w))
          .send({ role: 'edit' }),
    ],
    [
      'PATCH …/sites/{siteId}/permissions/teams/{teamId}',
      'admin',
      204,
      async (w) => {
        const g = await grantedSite();
        return t.http.patch(`${g.base}/teams/${g.team}`).set(as(w)).send({ role: 'edit' });
      },
    ],
    [
      'DELETE …/sites/{siteId}/permissions/users/{userId}',
      'admin',
      205,
      async (w) => {
        const g = await grantedSite();
        made(`${g.base}/users`, users.read.id, (body) => JSON.stringify(body).includes(`"${users.read.id}"`));
        return t.http.delete(`${g.base}/users/${users.read.id}`).set(as(w));
      },
      'delete',
    ],
    [
      'DELETE …/sites/{siteId}/permissions/teams/{teamId}',
      'admin',
      205,
      async (w) => {
        const g = await grantedSite();
        made(`${g.base}/teams`, g.team, (body) => JSON.stringify(body).includes(`"${g.team}"`));
        return t.http.delete(`${g.base}/teams/${g.team}`).set(as(w));
      },
      'delete',
    ],
    [
      'GET /spaces/{id}/revisions/{revisionId}/changes',
      'read',
      200,
      async (w) => {
        const s = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'R' }).expect(201)).body;
        return t.http.get(`/v1/spaces/${s.id}/revisions/${s.revision}/changes`).set(as(w));
      },
    ],
    ['GET /spaces/{id}/revisions', 'read', 200, async (w) => t.http.get(`/v1/spaces/${await space()}/revisions`).set(as(w))],
    [
      'GET …/change-requests/{changeRequestId}/changes',
      'read',
      200,
      async (w) => t.http.get(`${await changeRequest()}/changes`).set(as(w)),
    ],
    ['GET /orgs/{id}/translations', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/translations`).set(as(w))],
    ['GET /orgs/{id}/translations/{id}', 'read', 200, async (w) => t.http.get(await translation()).set(as(w))],
    [
      'POST /orgs/{id}/translations',
      'create',
      201,
      async (w) =>
        t.http
          .post(`/v1/orgs/${orgId}/translations`)
          .set(as(w))
          .send({ language: 'es', source: { space: await space(), language: 'en' } }),
    ],
    [
      'PUT /orgs/{id}/translations/{id}',
      'create',
      200,
      async (w) =>
        t.http
          .put(await translation())
          .set(as(w))
          .send({ instructions: { object: 'document', nodes: [] } }),
    ],
    ['GET /orgs/{id}/translations-glossary', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/translations-glossary`).set(as(w))],
    [
      'GET /orgs/{id}/translations-glossary/{id}',
      'read',
      200,
      async (w) => {
        const term = `term-${Math.random().toString(36).slice(2, 10)}`;
        await t.http
          .put(`/v1/orgs/${orgId}/translations-glossary`)
          .set(admin.auth)
          .send({ operations: [{ type: 'insert', translations: { en: term } }] })
          .expect(204);
        const items = (await t.http.get(`/v1/orgs/${orgId}/translations-glossary?limit=1000`).set(admin.auth).expect(200)).body.items;
        const id = items.find((e: { translations: { en?: string } }) => e.translations.en === term).id as string;
        return t.http.get(`/v1/orgs/${orgId}/translations-glossary/${id}`).set(as(w));
      },
    ],
    [
      'PUT /orgs/{id}/translations-glossary',
      'create',
      204,
      (w) =>
        t.http
          .put(`/v1/orgs/${orgId}/translations-glossary`)
          .set(as(w))
          .send({ operations: [{ type: 'insert', translations: { en: `term-${Math.random().toString(36).slice(2, 10)}` } }] }),
    ],
    ['POST /orgs/{id}/translations/{id}/run', 'create', 204, async (w) => t.http.post(`${await translation()}/run`).set(as(w))],
    ['DELETE /orgs/{id}/translations/{id}', 'create', 205, async (w) => t.http.delete(await translation()).set(as(w)), 'delete'],
    [
      'POST /orgs/{id}/storage/upload',
      'create',
      201,
      (w) =>
        t.http
          .post(`/v1/orgs/${orgId}/storage/upload`)
          .set(as(w))
          .send({ file: { name: 'logo.png', type: 'image/png', size: 100 }, kind: 'organization_file' }),
    ],
    ['GET /orgs/{id}/fonts', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/fonts`).set(as(w))],
    ['GET /orgs/{id}/fonts/{fontId}', 'read', 200, async (w) => t.http.get(await font()).set(as(w))],
    [
      'PUT /orgs/{id}/fonts',
      'create',
      201,
      async (w) => {
        const existing = await font();
        const face = (await t.http.get(existing).set(admin.auth).expect(200)).body.fontFaces[0].sources[0].url as string;
        const storageKey = new URL(face).pathname.replace(/^\/v1\/storage\/files\//, '');
        return t.http
          .put(`/v1/orgs/${orgId}/fonts`)
          .set(as(w))
          .send({ fontFamily: 'New', fontFaces: [{ weight: 400, storageKey }] });
      },
    ],
    [
      'POST /orgs/{id}/fonts/{fontId}',
      'create',
      201,
      async (w) =>
        t.http
          .post(await font())
          .set(as(w))
          .send({ fontFamily: 'Renamed' }),
    ],
    ['DELETE /orgs/{id}/fonts/{fontId}', 'create', 205, async (w) => t.http.delete(await font()).set(as(w)), 'delete'],
    ['GET /orgs/{id}/openapi', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/openapi`).set(as(w))],
    [
      'POST /orgs/{id}/openapi',
      'create',
      201,
      (w) =>
        t.http
          .post(`/v1/orgs/${orgId}/openapi`)
          .set(as(w))
          .send({ slug: `new-${w}`, source: { text: '{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{}}' } }),
    ],
    ['GET /orgs/{id}/openapi/{specSlug}', 'read', 200, async (w) => t.http.get(await spec()).set(as(w))],
    ['GET …/openapi/{specSlug}/versions', 'read', 200, async (w) => t.http.get(`${await spec()}/versions`).set(as(w))],
    [
      'PUT /orgs/{id}/openapi/{specSlug}',
      'create',
      200,
      async (w) =>
        t.http
          .put(await spec())
          .set(as(w))
          .send({ source: { text: '{"openapi":"3.0.3","info":{"title":"y","version":"1"},"paths":{}}' } }),
    ],
    [
      'PATCH /orgs/{id}/openapi/{specSlug}',
      'create',
      200,
      async (w) =>
        t.http
          .patch(await spec())
          .set(as(w))
          .send({ visibility: 'public' }),
    ],
    ['DELETE /orgs/{id}/openapi/{specSlug}', 'create', 205, async (w) => t.http.delete(await spec()).set(as(w)), 'delete'],
    ['GET /orgs/{id}/sites', 'read', 200, (w) => t.http.get(`/v1/orgs/${orgId}/sites`).set(as(w))],
    ['POST /orgs/{id}/sites', 'create', 201, (w) => t.http.post(`/v1/orgs/${orgId}/sites`).set(as(w)).send({ title: 'New site' })],
    ['GET /orgs/{id}/sites/{siteId}', 'read', 200, async (w) => t.http.get((await site()).base).set(as(w))],
    [
      'PATCH /orgs/{id}/sites/{siteId}',
      'admin',
      200,
      async (w) =>
        t.http
          .patch((await site()).base)
          .set(as(w))
          .send({ title: 'Renamed' }),
    ],
    ['DELETE /orgs/{id}/sites/{siteId}', 'admin', 205, async (w) => t.http.delete((await site()).base).set(as(w)), 'delete'],
    [
      'POST …/sites/{siteId}/git/import',
      'admin',
      200,
      async (w) =>
        t.http
          .post(`${(await site()).base}/git/import`)
          .set(as(w))
          .send({ url: git.authUrl('matrix-site'), ref: 'refs/heads/main' }),
    ],
    [
      'POST …/sites/{siteId}/git/export',
      'admin',
      200,
      async (w) =>
        t.http
          .post(`${(await site()).base}/git/export`)
          .set(as(w))
          .send({ url: git.authUrl('matrix-site'), ref: 'refs/heads/main', commitMessage: 'From the matrix' }),
    ],
    ['POST …/sites/{siteId}/publish', 'admin', 200, async (w) => t.http.post(`${(await site()).base}/publish`).set(as(w))],
    ['POST …/sites/{siteId}/unpublish', 'admin', 200, async (w) => t.http.post(`${(await site()).base}/unpublish`).set(as(w))],
    ['GET …/sites/{siteId}/published', 'read', 200, async (w) => t.http.get(`${(await site()).base}/published`).set(as(w))],
    ['GET …/sites/{siteId}/structure', 'read', 200, async (w) => t.http.get(`${(await site()).base}/structure`).set(as(w))],
    [
      'PATCH …/sites/{siteId}/structure/sort',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http
          .patch(`${x.base}/structure/sort`)
          .set(as(w))
          .send({ item: { type: 'site-section-group', id: x.group }, position: {} });
      },
    ],
    [
      'GET …/sites/{siteId}/adaptive-schema/template-conditions',
      'read',
      200,
      async (w) => t.http.get(`${(await site()).base}/adaptive-schema/template-conditions`).set(as(w)),
    ],
    [
      'GET …/sites/{siteId}/adaptive-schema',
      'read',
      200,
      async (w) => {
        const x = await site();
        await t.http.put(`${x.base}/adaptive-schema`).set(admin.auth).send({ jsonSchema: schema }).expect(200);
        return t.http.get(`${x.base}/adaptive-schema`).set(as(w));
      },
    ],
    [
      'PUT …/sites/{siteId}/adaptive-schema',
      'admin',
      200,
      async (w) =>
        t.http
          .put(`${(await site()).base}/adaptive-schema`)
          .set(as(w))
          .send({ jsonSchema: schema }),
    ],
    ['GET …/sites/{siteId}/publishing/auth', 'admin', 200, async (w) => t.http.get(`${(await site()).base}/publishing/auth`).set(as(w))],
    [
      'PATCH …/sites/{siteId}/publishing/auth',
      'admin',
      200,
      async (w) =>
        t.http
          .patch(`${(await site()).base}/publishing/auth`)
          .set(as(w))
          .send({ fallbackURL: 'https://login.example.com/' }),
    ],
    [
      'POST …/publishing/auth/regenerate',
      'admin',
      200,
      async (w) => t.http.post(`${(await site()).base}/publishing/auth/regenerate`).set(as(w)),
    ],
    ['GET …/sites/{siteId}/customization', 'read', 200, async (w) => t.http.get(`${(await site()).base}/customization`).set(as(w))],
    ['GET …/sites/{siteId}/page-feedback', 'read', 200, async (w) => t.http.get(`${(await site()).base}/page-feedback`).set(as(w))],
    [
      'POST …/sites/{siteId}/insights/events/aggregate',
      'read',
      200,
      async (w) =>
        t.http
          .post(`${(await site()).base}/insights/events/aggregate`)
          .set(as(w))
          .send({ range: 'last7Days', groupBy: [{ column: 'eventType' }] }),
    ],
    ['GET …/sites/{siteId}/insights/topics', 'read', 200, async (w) => t.http.get(`${(await site()).base}/insights/topics`).set(as(w))],
    ['GET …/sites/{siteId}/ask/questions', 'read', 200, async (w) => t.http.get(`${(await site()).base}/ask/questions`).set(as(w))],
    [
      'POST …/sites/{siteId}/ask',
      'read',
      200,
      async (w) =>
        t.http
          .post(`${(await site()).base}/ask`)
          .set(as(w))
          .send({ question: 'docs', scope: { mode: 'all' } }),
    ],
    [
      'POST …/sites/{siteId}/search',
      'read',
      200,
      async (w) =>
        t.http
          .post(`${(await site()).base}/search`)
          .set(as(w))
          .send({ query: 'docs', scope: { mode: 'all' } }),
    ],
    [
      'POST …/sites/{siteId}/insights/topics/{topicId}/change-requests',
      'edit',
      201,
      async (w) => {
        const x = await site();
        const search = {
          type: 'search_type_query',
          query: 'kubernetes daemonset',
          resultsCount: 0,
          session: { visitorId: 'v', sessionId: 's', userAgent: 'Mozilla/5.0', language: null, referrer: null, cookies: {} },
          location: {
            url: 'https://docs.example.com/',
            siteSection: null,
            siteSpace: null,
            siteShareKey: null,
            space: null,
            revision: null,
            page: null,
          },
        };
        await t.http
          .post(`${x.base}/insights/events`)
          .send({ events: [search] })
          .expect(204);
        const topic = (await t.http.get(`${x.base}/insights/topics`).set(admin.auth).expect(200)).body.items[0].id as string;
        return t.http.post(`${x.base}/insights/topics/${topic}/change-requests`).set(as(w)).send({ spaceId: x.space });
      },
    ],
    [
      'POST …/sites/{siteId}/agents/feedback',
      'read',
      201,
      async (w) =>
        t.http
          .post(`${(await site()).base}/agents/feedback`)
          .set(as(w))
          .send({ subject: { kind: 'generic' }, feedback: { category: 'could-not-accomplish', summary: 'No page says how to upgrade.' } }),
    ],
    [
      'PUT …/sites/{siteId}/customization',
      'admin',
      200,
      async (w) => {
        const x = await site();
        const current = (await t.http.get(`${x.base}/customization`).set(admin.auth).expect(200)).body;
        return t.http.put(`${x.base}/customization`).set(as(w)).send(current);
      },
    ],
    ['GET …/sites/{siteId}/sections', 'read', 200, async (w) => t.http.get(`${(await site()).base}/sections`).set(as(w))],
    [
      'POST …/sites/{siteId}/sections',
      'create',
      201,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/sections`).set(as(w)).send({ spaceId: x.space, title: 'Another' });
      },
    ],
    [
      'PATCH …/sections/{siteSectionId}',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http.patch(`${x.base}/sections/${x.section}`).set(as(w)).send({ title: 'Renamed' });
      },
    ],
    [
      'DELETE …/sections/{siteSectionId}',
      'create',
      205,
      async (w) => {
        const x = await site();
        inStructure(x.base, x.section);
        return t.http.delete(`${x.base}/sections/${x.section}`).set(as(w));
      },
      'delete',
    ],
    [
      'POST …/sections/{siteSectionId}/move',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/sections/${x.section}/move`).set(as(w)).send({});
      },
    ],
    ['GET …/sites/{siteId}/section-groups', 'read', 200, async (w) => t.http.get(`${(await site()).base}/section-groups`).set(as(w))],
    [
      'POST …/sites/{siteId}/section-groups',
      'create',
      201,
      async (w) =>
        t.http
          .post(`${(await site()).base}/section-groups`)
          .set(as(w))
          .send({ title: 'G2' }),
    ],
    [
      'PATCH …/section-groups/{siteSectionGroupId}',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http.patch(`${x.base}/section-groups/${x.group}`).set(as(w)).send({ title: 'Renamed' });
      },
    ],
    [
      'DELETE …/section-groups/{siteSectionGroupId}',
      'create',
      205,
      async (w) => {
        const x = await site();
        inStructure(x.base, x.group);
        return t.http.delete(`${x.base}/section-groups/${x.group}`).set(as(w));
      },
      'delete',
    ],
    [
      'POST …/section-groups/{siteSectionGroupId}/sections',
      'create',
      201,
      async (w) => {
        const x = await site();
        await t.http.delete(`${x.base}/section-groups/${x.group}/sections/${x.section}`).set(admin.auth).expect(205);
        return t.http.post(`${x.base}/section-groups/${x.group}/sections`).set(as(w)).send({ sectionId: x.section });
      },
    ],
    [
      'DELETE …/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
      'create',
      205,
      async (w) => {
        const x = await site();
        made(`${x.base}/section-groups`, x.section, (body) => JSON.stringify(body).includes(`"sectionGroup":"${x.group}"`));
        return t.http.delete(`${x.base}/section-groups/${x.group}/sections/${x.section}`).set(as(w));
      },
      'delete',
    ],
    [
      'POST …/section-groups/{siteSectionGroupId}/move',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/section-groups/${x.group}/move`).set(as(w)).send({});
      },
    ],
    [
      'GET …/sites/{siteId}/publishing/preview',
      'read',
      200,
      async (w) => t.http.get(`${(await site()).base}/publishing/preview`).set(as(w)),
    ],
    ['GET …/sites/{siteId}/site-spaces', 'read', 200, async (w) => t.http.get(`${(await site()).base}/site-spaces`).set(as(w))],
    [
      'POST …/sites/{siteId}/site-spaces',
      'create',
      201,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/site-spaces`).set(as(w)).send({ spaceId: x.space });
      },
    ],
    [
      'PATCH …/site-spaces/{siteSpaceId}',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http.patch(`${x.base}/site-spaces/${x.siteSpace}`).set(as(w)).send({ path: 'renamed' });
      },
    ],
    [
      'DELETE …/site-spaces/{siteSpaceId}',
      'create',
      205,
      async (w) => {
        const x = await site();
        inStructure(x.base, x.siteSpace);
        return t.http.delete(`${x.base}/site-spaces/${x.siteSpace}`).set(as(w));
      },
      'delete',
    ],
    [
      'POST …/site-spaces/{siteSpaceId}/move',
      'create',
      200,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/site-spaces/${x.siteSpace}/move`).set(as(w)).send({});
      },
    ],
    [
      'POST …/site-spaces/{siteSpaceId}/duplicate',
      'create',
      201,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/site-spaces/${x.siteSpace}/duplicate`).set(as(w)).send({});
      },
    ],
    [
      'POST …/sites/{siteId}/external-links',
      'create',
      201,
      async (w) => {
        const x = await site();
        return t.http.post(`${x.base}/external-links`).set(as(w)).send({ title: 'Status', url: 'https://status.example.com' });
      },
    ],
    [
      'PATCH …/external-links/{siteExternalLinkId}',
      'create',
      200,
      async (w) => {
        const x = await site();
        const link = (
          await t.http.post(`${x.base}/external-links`).set(admin.auth).send({ title: 'Status', url: 'https://s.example.com' }).expect(201)
        ).body.id as string;
        return t.http.patch(`${x.base}/external-links/${link}`).set(as(w)).send({ title: 'Renamed' });
      },
    ],
    [
      'DELETE …/external-links/{siteExternalLinkId}',
      'create',
      205,
      async (w) => {
        const x = await site();
        const link = (
          await t.http.post(`${x.base}/external-links`).set(admin.auth).send({ title: 'Status', url: 'https://s.example.com' }).expect(201)
        ).body.id as string;
        inStructure(x.base, link);
        return t.http.delete(`${x.base}/external-links/${link}`).set(as(w));
      },
      'delete',
    ],
    [
      'POST …/sites/{siteId}/template',
      'create',
      200,
      async (w) => {
        const id = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Empty' }).expect(201)).body.id as string;
        return t.http.post(`/v1/orgs/${orgId}/sites/${id}/template`).set(as(w));
      },
    ],
    ['GET …/sites/{siteId}/share-links', 'read', 200, async (w) => t.http.get(`${(await site()).base}/share-links`).set(as(w))],
    [
      'POST …/sites/{siteId}/share-links',
      'admin',
      201,
      async (w) =>
        t.http
          .post(`${(await site()).base}/share-links`)
          .set(as(w))
          .send({ name: 'New' }),
    ],
    [
      'PATCH …/share-links/{shareLinkId}',
      'admin',
      200,
      async (w) => {
        const x = await site();
        return t.http.patch(`${x.base}/share-links/${x.link}`).set(as(w)).send({ active: false });
      },
    ],
    [
      'DELETE …/share-links/{shareLinkId}',
      'admin',
      205,
      async (w) => {
        const x = await site();
        made(`${x.base}/share-links`, x.link, (body) => JSON.stringify(body).includes(`"${x.link}"`));
        return t.http.delete(`${x.base}/share-links/${x.link}`).set(as(w));
      },
      'delete',
    ],
    [
      'GET …/site-spaces/{siteSpaceId}/customization',
      'read',
      200,
      async (w) => {
        const x = await site();
        return t.http.get(`${x.base}/site-spaces/${x.siteSpace}/customization`).set(as(w));
      },
    ],
    [
      'PATCH …/site-spaces/{siteSpaceId}/customization',
      'admin',
      200,
      async (w) => {
        const x = await site();
        return t.http.patch(`${x.base}/site-spaces/${x.siteSpace}/customization`).set(as(w)).send({ title: 'Variant' });
      },
    ],
    [
      'DELETE …/site-spaces/{siteSpaceId}/customization',
      'admin',
      205,
      async (w) => {
        const x = await site();
        await t.http.patch(`${x.base}/site-spaces/${x.siteSpace}/customization`).set(admin.auth).send({ title: 'Variant' }).expect(200);
        made(`${x.base}/site-spaces/${x.siteSpace}/customization`, x.siteSpace, (body) =>
          JSON.stringify(body).includes('"hasOverrides":true'),
        );
        return t.http.delete(`${x.base}/site-spaces/${x.siteSpace}/customization`).set(as(w));
      },
      'delete',
    ],
    [
      'GET /custom-hostnames/{hostname}',
      'read',
      200,
      async (w) => {
        const x = await site();
        const host = `docs-${Math.random().toString(36).slice(2, 10)}.example.com`;
        await t.http.patch(x.base).set(admin.auth).send({ hostname: host }).expect(200);
        return t.http.get(`/v1/custom-hostnames/${host}`).set(as(w));
      },
    ],
    [
      'PATCH /custom-hostnames/{hostname}',
      'read',
      204,
      async (w) => {
        const x = await site();
        const host = `docs-${Math.random().toString(36).slice(2, 10)}.example.com`;
        await t.http.patch(x.base).set(admin.auth).send({ hostname: host }).expect(200);
        return t.http.patch(`/v1/custom-hostnames/${host}`).set(as(w));
      },
    ],
    [
      'DELETE /custom-hostnames/{hostname}',
      'admin',
      205,
      async (w) => {
        const x = await site();
        const host = `docs-${Math.random().toString(36).slice(2, 10)}.example.com`;
        await t.http.patch(x.base).set(admin.auth).send({ hostname: host }).expect(200);
        made(`/v1/custom-hostnames/${host}`, host);
        return t.http.delete(`/v1/custom-hostnames/${host}`).set(as(w));
      },
      'delete',
    ],
    ['GET …/sites/{siteId}/redirects', 'read', 200, async (w) => t.http.get(`${(await site()).base}/redirects`).set(as(w))],
    [
      'GET …/sites/{siteId}/redirect?source=',
      'read',
      200,
      async (w) => {
        const x = await site();
        await t.http.post(`${x.base}/redirects`).set(admin.auth).send({ source: '/old', destination: EXTERNAL }).expect(201);
        return t.http.get(`${x.base}/redirect?source=/old`).set(as(w));
      },
    ],
    [
      'POST …/sites/{siteId}/redirects',
      'create',
      201,
      async (w) =>
        t.http
          .post(`${(await site()).base}/redirects`)
          .set(as(w))
          .send({ source: '/old', destination: EXTERNAL }),
    ],
    [
      'PUT …/sites/{siteId}/redirects (bulk)',
      'create',
      200,
      async (w) =>
        t.http
          .put(`${(await site()).base}/redirects`)
          .set(as(w))
          .send({ redirects: [{ source: '/old', destination: EXTERNAL }] }),
    ],
    [
      'PATCH …/redirects/{siteRedirectId}',
      'create',
      200,
      async (w) => {
        const x = await site();
        const r = (await t.http.post(`${x.base}/redirects`).set(admin.auth).send({ source: '/old', destination: EXTERNAL }).expect(201))
          .body;
        return t.http.patch(`${x.base}/redirects/${r.id}`).set(as(w)).send({ permanent: true });
      },
    ],
    [
      'DELETE …/redirects/{siteRedirectId}',
      'create',
      205,
      async (w) => {
        const x = await site();
        const r = (await t.http.post(`${x.base}/redirects`).set(admin.auth).send({ source: '/old', destination: EXTERNAL }).expect(201))
          .body;
        made(`${x.base}/redirects`, r.id, (body) => JSON.stringify(body).includes(`"${r.id}"`));
        return t.http.delete(`${x.base}/redirects/${r.id}`).set(as(w));
      },
      'delete',
    ],
  ];

  /** Every successful JSON answer of the matrix, checked against the served document once all have run. */
  const answers: { what: string; method: string; path: string; status: number; body: unknown }[] = [];
  describe.each(operations)('%s (needs %s, answers %s)', (_name, minimum, success, run, kind) => {
    it.each(WHO)('as %s', async (who) => {
      const res = await run(who);
      const req = (res as unknown as { req: { method: string; path: string } }).req;
      if (res.status >= 200 && res.status < 300 && /json/.test(res.headers['content-type'] ?? ''))
        answers.push({ what: `${_name} as ${who}`, method: req.method, path: req.path, status: res.status, body: res.body });
      if (who === 'guest' && GUEST[_name] !== undefined) {
        expect(res.status).toBe(GUEST[_name]);
        if (Array.isArray(res.body.items)) expect(res.body.items).toEqual([]); // nothing is shared with this guest
      } else if (who === 'non-member' || who === 'guest') {
        expect(res.status).toBe(kind === 'delete' ? 204 : 404);
        // A foreign DELETE answers like an absent resource, and deletes nothing.
        if (kind === 'delete') expect(await lastTargetExists()).toBe(true);
      } else if (roleAtLeast(who, minimum)) expect(res.status).toBe(success);
      else expect(res.status).toBe(403);
    });
  });

  it('every successful answer of the matrix is described by the served document, with every object closed (no undocumented field, no missing required one)', async () => {
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(answers.length).toBeGreaterThan(500);
    const errors = new Set(answers.flatMap((a) => served.check(a.method, a.path, a.status, a.body)));
    expect([...errors].sort()).toEqual([]);
  });

  it('a guest sees the organization, with none of its permissions but view and access', async () => {
    const org = (await t.http.get(`/v1/orgs/${orgId}`).set(as('guest')).expect(200)).body;
    expect(org.permissions).toMatchObject({
      view: true,
      access: true,
      admin: false,
      listMembers: false,
      listTeams: false,
      createContent: false,
    });
    const mine = (await t.http.get('/v1/orgs').set(as('guest')).expect(200)).body.items;
    expect(mine.map((o: { id: string }) => o.id)).toEqual([orgId]);
  });

  it.each(ROLES)('the restricted collection and its space answer 404 to %s below admin, open to admins', async (role) => {
    const reads = [
      `/v1/collections/${restricted.collection}`,
      `/v1/collections/${restricted.collection}/spaces`,
      `/v1/spaces/${restricted.space}`,
      `/v1/spaces/${restricted.space}/content`,
      `/v1/spaces/${restricted.space}/search?query=x`,
      `/v1/spaces/${restricted.space}/change-requests`,
      `/v1/spaces/${restricted.space}/comments`,
      `/v1/spaces/${restricted.space}/permissions/users`,
    ];
    for (const path of reads) expect([path, (await t.http.get(path).set(as(role))).status]).toEqual([path, role === 'admin' ? 200 : 404]);
    const write = await t.http.patch(`/v1/spaces/${restricted.space}`).set(as(role)).send({ title: 'Internal space' });
    expect(write.status).toBe(role === 'admin' ? 200 : 404);
    const create = await t.http.post(`/v1/orgs/${orgId}/spaces`).set(as(role)).send({ title: 'x', parent: restricted.collection });
    expect(create.status).toBe(role === 'admin' ? 201 : 404);
    // Every page: the file's other tests leave more than a thousand spaces in the organization.
    const everyPage = async (path: string): Promise<unknown[]> => {
      const items: unknown[] = [];
      for (let page: string | undefined = ''; page !== undefined;) {
        const body: { items: unknown[]; next?: { page: string } } = (
          await t.http
            .get(`${path}?limit=1000${page ? `&page=${page}` : ''}`)
            .set(as(role))
            .expect(200)
        ).body;
        items.push(...body.items);
        page = body.next?.page;
      }
      return items;
    };
    const lists = JSON.stringify([await everyPage(`/v1/orgs/${orgId}/spaces`), await everyPage(`/v1/orgs/${orgId}/collections`)]);
    expect(lists.includes(restricted.space) && lists.includes(restricted.collection)).toBe(role === 'admin');
  });

  it.each(ROLES)('the permissions objects agree with the matrix for %s', async (role) => {
    const org = (await t.http.get(`/v1/orgs/${orgId}`).set(as(role)).expect(200)).body.permissions;
    expect(org.admin).toBe(roleAtLeast(role, 'admin'));
    expect(org.createContent).toBe(roleAtLeast(role, 'create'));
    expect(org.listMembers && org.listTeams && org.view).toBe(true);
    const s = (
      await t.http
        .get(`/v1/spaces/${await space()}`)
        .set(as(role))
        .expect(200)
    ).body.permissions;
    expect(s.edit).toBe(roleAtLeast(role, 'edit'));
    expect(s.admin).toBe(roleAtLeast(role, 'admin'));
    expect(s.comment).toBe(roleAtLeast(role, 'comment'));
    expect(s.review).toBe(roleAtLeast(role, 'review'));
    const c = (
      await t.http
        .get(`/v1/collections/${await collection()}`)
        .set(as(role))
        .expect(200)
    ).body.permissions;
    expect(c.admin).toBe(roleAtLeast(role, 'admin'));
    expect(c.create).toBe(roleAtLeast(role, 'create'));
    const st = (
      await t.http
        .get((await site()).base)
        .set(as(role))
        .expect(200)
    ).body.permissions;
    expect([st.admin, st.editAdaptiveSchema, st.installIntegration]).toEqual(Array(3).fill(roleAtLeast(role, 'admin')));
    expect(st.create).toBe(roleAtLeast(role, 'create'));
    expect(st.edit).toBe(roleAtLeast(role, 'edit'));
    expect(st.view && st.viewAdaptiveSchema).toBe(true);
    const tm = (
      await t.http
        .get(`/v1/orgs/${orgId}/teams/${await team()}`)
        .set(as(role))
        .expect(200)
    ).body.permissions;
    expect(tm).toEqual({ admin: roleAtLeast(role, 'admin'), view: true });
    const tr = (
      await t.http
        .get(await translation())
        .set(as(role))
        .expect(200)
    ).body.permissions;
    expect(tr).toEqual({ view: true, edit: roleAtLeast(role, 'create') });
  });
});
