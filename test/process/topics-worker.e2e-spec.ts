import { jest } from '@jest/globals';
import request from 'supertest';
import { createTestDatabase } from '../support/database';
import { ApiProcess, startApiProcess } from '../support/process';

/**
 * The built server computes site insights' topics in a worker thread (docs/insights.md): the same topics as the
 * sources compute in the caller's thread (test/e2e/site-insights.e2e-spec.ts), and a site whose pages change is
 * indexed again in the worker.
 */
describe('topics in the built server’s worker thread', () => {
  jest.setTimeout(180_000);
  const token = 'quire-topics-worker-bootstrap-token-01';
  const auth = { Authorization: `Bearer ${token}` };
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: ApiProcess;
  let orgId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startApiProcess({ DATABASE_URL: db.url, QUIRE_BOOTSTRAP_TOKEN: token, QUIRE_JOBS: 'off', QUIRE_APERTIUM: 'off' });
    orgId = (await request(api.url).get('/v1/orgs').set(auth).expect(200)).body.items[0].id;
  });
  afterAll(async () => {
    const code = await api?.stop();
    await db?.drop();
    expect(code).toBe(0); // the worker does not hold the process at shutdown
  });

  const merge = async (space: string, changes: object[]) => {
    const cr = (await request(api.url).post(`/v1/spaces/${space}/change-requests`).set(auth).send({}).expect(201)).body.id as string;
    await request(api.url).post(`/v1/spaces/${space}/change-requests/${cr}/content`).set(auth).send({ changes }).expect(200);
    await request(api.url).post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(auth).expect(200);
  };

  it('groups queries that share no word by the pages they lead to, and follows the pages as they change', async () => {
    const space = (await request(api.url).post(`/v1/orgs/${orgId}/spaces`).set(auth).send({ title: 'Docs' }).expect(201)).body.id as string;
    await merge(
      space,
      [
        {
          title: 'Kubernetes',
          markdown: 'Deploy the collector as a DaemonSet on every node. The Helm chart installs the DaemonSet for you.',
        },
        { title: 'Windows', markdown: 'Run the MSI installer, or install from PowerShell: the MSI registers the Windows service.' },
        { title: 'Configuration', markdown: 'The configuration file lists sources and outputs.' },
        { title: 'Upgrading', markdown: 'Read the release notes before upgrading.' },
      ].map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
    );
    const site = (await request(api.url).post(`/v1/orgs/${orgId}/sites`).set(auth).send({ title: 'Collector' }).expect(201)).body
      .id as string;
    await request(api.url).post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(auth).send({ spaceId: space }).expect(201);
    await request(api.url).post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(auth).expect(200);
    const events = ['helm chart', 'daemonset yaml', 'msi', 'powershell'].map((query) => ({
      type: 'search_type_query',
      query,
      resultsCount: 0,
      session: { visitorId: 'v', sessionId: 's', userAgent: 'Mozilla/5.0', language: 'en', referrer: null, cookies: {} },
      location: {
        url: 'https://docs.example.com/',
        siteSection: null,
        siteSpace: null,
        siteShareKey: null,
        space,
        revision: 'r',
        page: 'p',
      },
    }));
    await request(api.url).post(`/v1/orgs/${orgId}/sites/${site}/insights/events`).send({ events }).expect(204);
    const grouped = async () =>
      (
        (await request(api.url).get(`/v1/orgs/${orgId}/sites/${site}/insights/topics`).set(auth).expect(200)).body.items as {
          queries: { text: string }[];
        }[]
      )
        .map((x) => x.queries.map((q) => q.text).sort())
        .sort((a, b) => a[0].localeCompare(b[0]));
    expect(await grouped()).toEqual([
      ['daemonset yaml', 'helm chart'],
      ['msi', 'powershell'],
    ]);
    expect(api.lines.filter((l) => l.includes('Topics are computed in a worker thread'))).toHaveLength(1);

    const pages = (await request(api.url).get(`/v1/spaces/${space}/content`).set(auth).expect(200)).body.pages as {
      id: string;
      title: string;
    }[];
    await merge(space, [
      {
        operation: 'update_page',
        page: pages.find((p) => p.title === 'Kubernetes')!.id,
        document: { markdown: 'Deploy the collector as a DaemonSet on every node.' },
      },
      {
        operation: 'update_page',
        page: pages.find((p) => p.title === 'Windows')!.id,
        document: { markdown: 'Install from PowerShell as a Windows service.' },
      },
      { operation: 'insert_page', title: 'Packages', document: { markdown: 'The Helm chart and the MSI are built for each release.' } },
    ]);
    const after = await grouped();
    const topicOf = (text: string) => after.find((queries) => queries.includes(text));
    expect(topicOf('helm chart')).not.toContain('daemonset yaml');
    expect(topicOf('msi')).not.toContain('powershell');
    // One worker all along.
    expect(api.lines.filter((l) => l.includes('Topics are computed in a worker thread'))).toHaveLength(1);
    expect(api.output()).not.toMatch(/topics worker ended/i);
  });
});
