import { SpecParser } from '@app/openapi-specs';
import { createTestApp, TestApp } from '../support/app';

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

  it('puts every /v1 operation behind Bearer security, with an error schema for 401', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      // The browser side of SAML, signed file downloads and the public links of public OpenAPI specs are public.
      if (!path.startsWith('/v1/') || path.startsWith('/v1/sso/saml/') || path.startsWith('/v1/files/')) continue;
      if (path.startsWith('/v1/openapi/public/')) {
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
