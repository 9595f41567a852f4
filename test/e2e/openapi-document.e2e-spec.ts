import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecParser } from '@app/openapi-specs';
import { createTestApp, TestApp } from '../support/app';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

type Operation = {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  requestBody?: unknown;
};

describe('the served OpenAPI document', () => {
  let t: TestApp;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
  };

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
  });
  afterAll(async () => t.close());

  it('is a valid OpenAPI document', async () => {
    // The parser the service processes OpenAPI sources with (swagger-parser in a worker thread).
    expect(await t.app.get(SpecParser).parse(JSON.stringify(doc))).toEqual({ ok: true, format: 'json' });
  });

  it('documents every official operation of the foundation under its official operationId', () => {
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    for (const id of [
      'getAuthenticatedUser',
      'getUserById',
      'listOrganizationsForAuthenticatedUser',
      'createOrganization',
      'getOrganizationById',
      'updateOrganizationById',
      'listSpacesInOrganizationById',
      'createSpace',
      'getSpaceById',
      'updateSpaceById',
      'deleteSpaceById',
      'duplicateSpace',
      'restoreSpace',
      'moveSpace',
      'transferSpace',
      'listCollectionsInOrganizationById',
      'createCollection',
      'getCollectionById',
      'updateCollectionById',
      'deleteCollectionById',
      'listSpacesInCollectionById',
      'moveCollection',
      'transferCollection',
      'listMembersInOrganizationById',
      'getMemberInOrganizationById',
      'updateMemberInOrganizationById',
      'removeMemberFromOrganizationById',
      'setUserAsSSOMemberForOrganization',
      'listTeamsForOrganizationMember',
      'joinOrganization',
      'listTeamsInOrganizationById',
      'createOrganizationTeam',
      'getTeamInOrganizationById',
      'updateTeamInOrganizationById',
      'removeTeamFromOrganizationById',
      'updateMembersInOrganizationTeam',
      'listTeamMembersInOrganizationById',
      'addMemberToOrganizationTeamById',
      'deleteMemberFromOrganizationTeamById',
      'joinOrganizationWithInvite',
      'listOrganizationInviteLinks',
      'createOrganizationInvite',
      'getOrganizationInviteLink',
      'updateOrganizationInviteById',
      'deleteOrganizationInviteById',
      'listSAMLProvidersInOrganizationById',
      'createOrganizationSAMLProvider',
      'getOrganizationSAMLProviderById',
      'updateOrganizationSAMLProvider',
      'deleteOrganizationSAMLProvider',
      'listSSOProviderLoginsInOrganization',
      'listSpacesForOrganizationMember',
      'listTranslations',
      'createTranslation',
      'getTranslation',
      'updateTranslation',
      'deleteTranslation',
      'runTranslation',
      'inviteToSpace',
      'listUserPermissionsInSpace',
      'updateUserPermissionInSpace',
      'removeUserFromSpace',
      'listTeamPermissionsInSpace',
      'updateTeamPermissionInSpace',
      'removeTeamFromSpace',
      'listPermissionsAggregateInSpace',
      'inviteToCollection',
      'listUserPermissionsInCollection',
      'updateUserPermissionInCollection',
      'removeUserFromCollection',
      'listTeamPermissionsInCollection',
      'updateTeamPermissionInCollection',
      'removeTeamFromCollection',
      'listPermissionsAggregateInCollection',
      'inviteToSite',
      'listUserPermissionsInSite',
      'updateUserPermissionInSite',
      'removeUserFromSite',
      'listTeamPermissionsInSite',
      'updateTeamPermissionInSite',
      'removeTeamFromSite',
      'listPermissionsAggregateInSite',
      'getRevisionSemanticChanges',
      'getChangeRequestChanges',
      'getPageDocumentInRevisionById',
      'listFilesInRevisionById',
      'getFileInRevisionById',
      'getFileById',
      'listRevisionsInSpace',
      'getPageByPath',
      'getPageInRevisionByPath',
      'getPageInChangeRequestByPath',
      'listOrganizationAuditEvents',
      'getOrganizationAuditEvent',
      'listOrganizationAuditEventActions',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('declares every query parameter the official document gives an operation it implements, with its type', () => {
    type Param = { name: string; in: string; schema?: { type?: string }; $ref?: string };
    type Official = {
      paths: Record<string, Record<string, { operationId?: string; parameters?: Param[] }>>;
      components: { parameters: Record<string, Param> };
    };
    const official = (pkg: string): Official =>
      JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'spec', 'openapi.json'), 'utf8'));
    /** operationId → query parameter → type, of one document. */
    const queries = (d: Official, resolve: (p: Param) => Param) => {
      const out = new Map<string, Map<string, string | undefined>>();
      for (const ops of Object.values(d.paths))
        for (const op of Object.values(ops)) {
          if (!op.operationId) continue;
          const q = new Map<string, string | undefined>();
          for (const p of (op.parameters ?? []).map(resolve)) if (p.in === 'query') q.set(p.name, p.schema?.type);
          out.set(op.operationId, q);
        }
      return out;
    };
    const served = queries(doc as unknown as Official, (p) => p);
    const missing: string[] = [];
    for (const pkg of ['@gitbook/api', 'gitbook-api-0167']) {
      const o = official(pkg);
      const theirs = queries(o, (p) => (p.$ref ? o.components.parameters[p.$ref.split('/').pop()!] : p));
      for (const [id, params] of served)
        for (const [name, type] of theirs.get(id) ?? []) {
          if (!params.has(name)) missing.push(`${id}?${name}`);
          else if (type === 'boolean' && params.get(name) !== 'boolean') missing.push(`${id}?${name} is ${params.get(name)}, not boolean`);
        }
    }
    // Left out on purpose, refused with a 400 that names it (unknown query parameters are): sorting the site
    // aggregate by join date, last visit or name (Quire keeps no per-site order of members; docs/conventions.md).
    const NOT_SUPPORTED = ['listPermissionsAggregateInSite?sort'];
    expect([...new Set(missing)].filter((m) => !NOT_SUPPORTED.includes(m)).sort()).toEqual([]);
  });

  it('the closed-object check of real answers finds an undocumented field, a missing required one, and an undocumented answer', async () => {
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    const admin = await t.user('checker');
    const orgId = await t.organization(admin);
    const org = (await t.http.get(`/v1/orgs/${orgId}`).set(admin.auth).expect(200)).body;
    expect(served.check('GET', `/v1/orgs/${orgId}`, 200, org)).toEqual([]);
    expect(served.check('GET', `/v1/orgs/${orgId}`, 200, { ...org, undocumented: 1 })).toEqual([
      'getOrganizationById / must NOT have additional properties: undocumented',
    ]);
    expect(served.check('GET', `/v1/orgs/${orgId}`, 200, { ...org, urls: { ...org.urls, extra: 'x' } })[0]).toMatch(
      /\/urls must NOT have additional properties: extra/,
    );
    const { title: _t, ...untitled } = org;
    expect(served.check('GET', `/v1/orgs/${orgId}`, 200, untitled)[0]).toMatch(/must have required property 'title'/);
    expect(served.check('GET', `/v1/orgs/${orgId}/nowhere`, 200, {})[0]).toMatch(/no operation of the served document/);
    expect(served.check('GET', `/v1/orgs/${orgId}`, 299, org)[0]).toMatch(/no JSON schema for this answer/);
  });

  it('puts every /v1 operation behind Bearer security, with an error schema for 401', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      // The browser side of SAML, signed file downloads and the public links of public OpenAPI specs are public.
      if (!path.startsWith('/v1/') || path.startsWith('/v1/sso/saml/') || path.startsWith('/v1/files/')) continue;
      // Signing in to the web app: public (what they answer is the session); a 401 when it fails.
      if (path.startsWith('/v1/openapi/public/') || ['/v1/auth/sign-in', '/v1/auth/sign-in/link', '/v1/auth/session'].includes(path)) {
        expect(Object.values(ops).map((op) => op.security)).toEqual([undefined]);
        continue;
      }
      for (const [method, op] of Object.entries(ops)) {
        expect({ path, method, security: op.security }).toEqual({ path, method, security: [{ user: [] }] });
        expect(op.responses['401']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorDto' });
      }
    }
  });

  it('has request and response schemas generated from the DTOs (not empty)', () => {
    const space = doc.components.schemas.SpaceDto;
    expect(Object.keys(space.properties ?? {})).toEqual(
      expect.arrayContaining(['object', 'id', 'title', 'emoji', 'revision', 'permissions', 'changeRequestsDraft']),
    );
    expect(Object.keys(doc.components.schemas.UpdateOrganizationDto.properties ?? {})).toEqual(
      expect.arrayContaining([
        'title',
        'emailDomains',
        'hostname',
        'defaultRole',
        'defaultContent',
        'logo',
        'sso',
        'ai',
        'inviteLinks',
        'mergeRules',
      ]),
    );
    expect(doc.components.schemas.CreateOrganizationDto.required).toEqual(['title']);
    const create = doc.paths['/v1/orgs/{organizationId}/spaces'].post;
    expect(create.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateSpaceDto' } } },
    });
    expect(create.responses['201'].content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/SpaceDto' });
  });
});
