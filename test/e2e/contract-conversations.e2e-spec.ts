import { GitBookAPI } from '@gitbook/api';
import { markdownToDocument } from '@app/content-model';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/**
 * Agent instructions through the official client (the conversation operations are in neither official
 * document: spec part 1 §4.9 defines them, and test/e2e/conversations.e2e-spec.ts covers them).
 */
describe('contract: agent instructions', () => {
  let t: TestApp;
  let admin: TestUser;
  let api: GitBookAPI;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('reads and writes the agent instructions; the answers match the official schema', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Agent Org' })).data.id;
    const empty = await api.orgs.getOrganizationAgentInstructions(org);
    expect(schemas.check('OrganizationAgentInstructions', empty.data)).toBe('');
    const instructions = markdownToDocument('Be **brief**.\n\n- cite pages\n- no guesses').document;
    const put = await api.orgs.updateOrganizationAgentInstructions(org, { instructions: instructions as never });
    expect(put.status).toBe(200);
    expect(schemas.check('OrganizationAgentInstructions', put.data)).toBe('');
    expect(put.data.updatedBy).toBe(admin.id);
    const read = await api.orgs.getOrganizationAgentInstructions(org);
    expect(read.data.instructions).toEqual(put.data.instructions);
  });
});
