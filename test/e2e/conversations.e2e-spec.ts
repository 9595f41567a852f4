import { markdownToDocument } from '@app/content-model';
import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { JobQueue } from '@app/shared-kernel';
import { CLUSTERING_ALGORITHM, ConversationProcessing } from '@app/conversations';
import { SUPPORT_CONVERSATIONS } from '../fixtures/support-conversations';
import { SUPPORT_CONVERSATIONS_2 } from '../fixtures/support-conversations-2';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('conversations: ingest, issues, clusters, agent instructions', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_JOBS: 'on' });
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'create');
    otherOrgId = await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const url = (path: string, org = orgId) => `/v1/orgs/${org}${path}`;
  const ingest = (body: object, who: TestUser = admin, org = orgId) => t.http.post(url('/conversations', org)).set(who.auth).send(body);
  const conversation = (id: string, user: string[], extra: object = {}) => ({
    id,
    subject: '',
    parts: user.map((body) => ({ type: 'message', role: 'user', body })),
    ...extra,
  });
  /** Waits until every conversation of the organization was processed by the background job. */
  const allProcessed = async (org = orgId, who = admin) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const list = (
        await t.http
          .get(`${url('/conversations', org)}?limit=1000`)
          .set(who.auth)
          .expect(200)
      ).body;
      if (list.items.every((c: { processedAt?: string }) => c.processedAt)) return list;
      if (Date.now() > deadline) throw new Error('conversations still waiting');
      await new Promise((r) => setTimeout(r, 150));
    }
  };

  it('clusters the fixture corpus by problem: purity and recovery ≥ 0.8 (printed)', async () => {
    const batch = SUPPORT_CONVERSATIONS.map((c, i) => ({
      id: `fx-${i}`,
      subject: c.subject,
      metadata: { url: `https://support.example.com/c/${i}`, attributes: { source: c.source }, createdAt: '2026-02-20T10:00:00.000Z' },
      parts: [
        ...c.user.map((body) => ({ type: 'message', role: 'user', body })),
        ...(c.agent ?? []).map((body) => ({ type: 'message', role: 'agent', body })),
      ],
    }));
    await ingest({ conversations: batch }).expect(204);
    await allProcessed();
    const issues = (
      await t.http
        .get(`${url('/conversations-issues')}?limit=1000`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(issues.count).toBe(SUPPORT_CONVERSATIONS.length);
    const problemOf = new Map(SUPPORT_CONVERSATIONS.map((c, i) => [`fx-${i}`, c.problem]));
    const byCluster = new Map<string, string[]>();
    for (const { issue } of issues.items as { issue: { conversation: string; cluster: string } }[])
      byCluster.set(issue.cluster, [...(byCluster.get(issue.cluster) ?? []), problemOf.get(issue.conversation)!]);
    const majority = (problems: string[]) => {
      const counts = new Map<string, number>();
      for (const p of problems) counts.set(p, (counts.get(p) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1])[0];
    };
    const purity = [...byCluster.values()].reduce((s, ps) => s + majority(ps)[1], 0) / SUPPORT_CONVERSATIONS.length;
    const problems = [...new Set(SUPPORT_CONVERSATIONS.map((c) => c.problem))];
    const recovered = problems.filter((p) => {
      const total = SUPPORT_CONVERSATIONS.filter((c) => c.problem === p).length;
      return [...byCluster.values()].some((ps) => majority(ps)[0] === p && majority(ps)[1] >= total / 2);
    });
    console.log(
      `clustering of ${SUPPORT_CONVERSATIONS.length} conversations about ${problems.length} problems: ${byCluster.size} clusters, ` +
        `purity ${purity.toFixed(2)}, recovered ${recovered.length}/${problems.length} (${recovered.join(', ')})`,
    );
    expect(purity).toBeGreaterThanOrEqual(0.8);
    expect(recovered.length / problems.length).toBeGreaterThanOrEqual(0.8);

    const clusters = (
      await t.http
        .get(`${url('/conversations-clusters')}?limit=1000&orderBy=issues`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(clusters.count).toBe(byCluster.size);
    const top = clusters.items[0];
    expect(top).toMatchObject({
      object: 'issues-cluster',
      label: expect.any(String),
      summary: expect.any(String),
      icon: expect.any(String),
    });
    expect(top.icon.length).toBeLessThanOrEqual(50);
    expect(top.weeklyPulse).toHaveLength(13);
    // the test clock is 2026-03-01T10:00Z: the conversations (2026-02-20) fall in the second-to-last week
    expect(top.weeklyPulse.slice(0, 11).every((n: number) => n === 0)).toBe(true);
    expect(top.weeklyPulse[11]).toBe(top.stats.issues);
    expect(Object.values(top.sources).reduce((a: number, b) => a + (b as number), 0)).toBe(top.stats.issues);
    expect(top.stats).toMatchObject({ conversations: top.stats.issues, tasksTotal: 0 });
    const counts = clusters.items.map((c: { stats: { issues: number } }) => c.stats.issues);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    const asc = (
      await t.http
        .get(`${url('/conversations-clusters')}?limit=1000&orderBy=issues&order=asc`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(asc.items.map((c: { id: string }) => c.id)).toEqual([...clusters.items.map((c: { id: string }) => c.id)].reverse());
    // every cluster's issues
    const first = (
      await t.http
        .get(`${url('/conversations-issues')}?cluster=${top.id}&limit=1000`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(first.count).toBe(top.stats.issues);
    // icons follow the problems
    const icons = new Set(clusters.items.map((c: { icon: string }) => c.icon));
    for (const icon of ['lock', 'credit-card', 'code-branch', 'file-pdf', 'magnifying-glass', 'globe']) expect(icons).toContain(icon);
    // status: everything happened within 28 days of the clock
    expect(
      (
        await t.http
          .get(`${url('/conversations-clusters')}?status=inactive`)
          .set(reader.auth)
          .expect(200)
      ).body.count,
    ).toBe(0);
    expect(
      (
        await t.http
          .get(`${url('/conversations-clusters')}?status=active&limit=1000`)
          .set(reader.auth)
          .expect(200)
      ).body.count,
    ).toBe(clusters.count);
  });

  it('the second corpus through the service: the issue #35 targets; re-clustered in the background, swapped in one transaction, ids kept', async () => {
    const org = await t.organization(admin, 'Held out');
    const batch = SUPPORT_CONVERSATIONS_2.map((c, i) => ({
      id: `h-${i}`,
      subject: c.subject,
      metadata: { attributes: { source: c.source }, createdAt: '2026-02-25T10:00:00.000Z' },
      parts: [
        ...c.user.map((body) => ({ type: 'message', role: 'user', body })),
        ...(c.agent ?? []).map((body) => ({ type: 'message', role: 'agent', body })),
      ],
    }));
    await ingest({ conversations: batch }, admin, org).expect(204);
    await allProcessed(org);
    const read = async () =>
      (
        await t.http
          .get(`${url('/conversations-issues', org)}?limit=1000`)
          .set(admin.auth)
          .expect(200)
      ).body.items as {
        issue: { id: string; conversation: string; cluster: string };
      }[];
    const issues = await read();
    const problemOf = new Map(SUPPORT_CONVERSATIONS_2.map((c, i) => [`h-${i}`, c.problem]));
    const byCluster = new Map<string, string[]>();
    for (const { issue } of issues)
      byCluster.set(issue.cluster, [...(byCluster.get(issue.cluster) ?? []), problemOf.get(issue.conversation)!]);
    const top = (ps: string[]) => {
      const m = new Map<string, number>();
      for (const p of ps) m.set(p, (m.get(p) ?? 0) + 1);
      return [...m].sort((a, b) => b[1] - a[1]);
    };
    const purity = [...byCluster.values()].reduce((n, ps) => n + top(ps)[0][1], 0) / issues.length;
    const recovered = [...new Set(problemOf.values())].filter((p) =>
      [...byCluster.values()].some((ps) => top(ps)[0][0] === p && top(ps)[0][1] >= 4),
    );
    console.log(
      `second corpus through the service: ${byCluster.size} clusters, purity ${purity.toFixed(2)}, recovered ${recovered.length}/6`,
    );
    expect(purity).toBeGreaterThanOrEqual(0.85);
    expect(recovered.length).toBeGreaterThanOrEqual(5);
    expect(byCluster.size).toBeLessThanOrEqual(9);
    // As if an older algorithm had made these clusters: the sweep asks for them to be made again.
    const ds = t.app.get(DataSource);
    await ds.query('UPDATE conversation_embedding_sums SET algorithm = 0 WHERE organization_id = $1', [org]);
    const processing = t.app.get(ConversationProcessing);
    const send = jest.spyOn(t.app.get(JobQueue), 'send');
    await processing.sweep();
    expect(send.mock.calls.map((c) => c[1])).toContainEqual({ organizationId: org });
    send.mockRestore();
    // Readers meanwhile see the old clusters or the new ones, never half of each.
    let reading = true;
    const seen: number[] = [];
    const reader = (async () => {
      while (reading) seen.push((await read()).length);
    })();
    await processing.recluster(org);
    reading = false;
    await reader;
    expect(new Set(seen)).toEqual(new Set([batch.length]));
    const after = await read();
    expect(new Set(after.map((i) => i.issue.id))).toEqual(new Set(issues.map((i) => i.issue.id)));
    expect(new Set(after.map((i) => i.issue.cluster))).toEqual(new Set(issues.map((i) => i.issue.cluster)));
    expect((await ds.query('SELECT algorithm FROM conversation_embedding_sums WHERE organization_id = $1', [org]))[0].algorithm).toBe(
      CLUSTERING_ALGORITHM,
    );
  });

  it('re-clusters an organization larger than a chunk: in chunks, every issue in a listed cluster, the counts add up, the problems come back', async () => {
    const org = await t.organization(admin, 'Large');
    // Corpora 1 and 2 five times over (570 conversations: two chunks of 500), each copy with its own id.
    const corpus = [...SUPPORT_CONVERSATIONS, ...SUPPORT_CONVERSATIONS_2];
    const all = Array.from({ length: 5 }, (_, copy) =>
      corpus.map((c, i) => ({
        id: `l-${copy}-${i}`,
        problem: c.problem,
        body: {
          id: `l-${copy}-${i}`,
          subject: c.subject,
          metadata: { attributes: { source: c.source }, createdAt: '2026-02-25T10:00:00.000Z' },
          parts: c.user.map((body) => ({ type: 'message', role: 'user', body })),
        },
      })),
    ).flat();
    for (let from = 0; from < all.length; from += 500)
      await ingest({ conversations: all.slice(from, from + 500).map((c) => c.body) }, admin, org).expect(204);
    await allProcessed(org);
    const processing = t.app.get(ConversationProcessing);
    expect(await processing.recluster(org)).toBe(all.length);
    const issues = (
      await t.http
        .get(`${url('/conversations-issues', org)}?limit=1000`)
        .set(admin.auth)
        .expect(200)
    ).body.items as { issue: { conversation: string; cluster: string } }[];
    const clusters = (
      await t.http
        .get(`${url('/conversations-clusters', org)}?limit=1000`)
        .set(admin.auth)
        .expect(200)
    ).body.items as { id: string; stats: { issues: number } }[];
    expect(issues).toHaveLength(all.length);
    const listed = new Map(clusters.map((c) => [c.id, c.stats.issues]));
    const byCluster = new Map<string, string[]>();
    const problemOf = new Map(all.map((c) => [c.id, c.problem]));
    for (const { issue } of issues) {
      expect(listed.has(issue.cluster)).toBe(true);
      byCluster.set(issue.cluster, [...(byCluster.get(issue.cluster) ?? []), problemOf.get(issue.conversation)!]);
    }
    for (const [id, problems] of byCluster) expect(listed.get(id)).toBe(problems.length);
    expect(byCluster.size).toBe(clusters.length);
    const majority = (ps: string[]) => Math.max(...[...new Set(ps)].map((p) => ps.filter((q) => q === p).length));
    const purity = [...byCluster.values()].reduce((n, ps) => n + majority(ps), 0) / all.length;
    expect(purity).toBeGreaterThanOrEqual(0.85);
    expect(clusters.length).toBeLessThanOrEqual(18);
  });

  it('ingests one conversation; the same id again replaces it (never a duplicate) and it is processed again', async () => {
    await ingest(conversation('same-1', ['Our PDF export hangs forever.'], { metadata: { attributes: { source: 'intercom' } } })).expect(
      204,
    );
    await allProcessed();
    const first = (await t.http.get(url('/conversations/same-1')).set(reader.auth).expect(200)).body;
    expect(first).toMatchObject({
      conversation: { object: 'conversation', id: 'same-1', source: 'intercom', processedAt: expect.any(String) },
      parts: [{ type: 'message', role: 'user', body: 'Our PDF export hangs forever.' }],
      metadata: { attributes: { source: 'intercom' }, createdAt: expect.any(String) },
    });
    const issuesBefore = (
      await t.http
        .get(`${url('/conversations-issues')}?conversation=same-1`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(issuesBefore.count).toBe(1);
    expect(issuesBefore.items[0].issue).toMatchObject({
      object: 'conversation-issue',
      title: 'Our PDF export hangs forever.',
      conversation: 'same-1',
    });
    const one = (
      await t.http
        .get(url(`/conversations-issues/${issuesBefore.items[0].issue.id}`))
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(one.conversation.id).toBe('same-1');

    await ingest(conversation('same-1', ['Actually the invoice charged us twice, refund please.'], { subject: 'Billing' })).expect(204);
    await allProcessed();
    const list = (
      await t.http
        .get(`${url('/conversations')}?limit=1000`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(list.items.filter((c: { id: string }) => c.id === 'same-1')).toHaveLength(1);
    const issuesAfter = (
      await t.http
        .get(`${url('/conversations-issues')}?conversation=same-1`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(issuesAfter.count).toBe(1);
    expect(issuesAfter.items[0].issue.title).toBe('Billing');
    expectError(await t.http.get(url(`/conversations-issues/${issuesBefore.items[0].issue.id}`)).set(reader.auth), 404);
    // source filter
    const api = (
      await t.http
        .get(`${url('/conversations')}?source=api&limit=1000`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(api.items.map((c: { id: string }) => c.id)).toContain('same-1');
    expect(api.items.every((c: { source: string }) => c.source === 'api')).toBe(true);
  });

  it('refuses hostile and oversized input with 400s, and ingesting needs the admin role; another organization sees nothing', async () => {
    const ok = conversation('bounds', ['x']);
    for (const [body, message] of [
      [{ ...ok, parts: [] }, /parts/],
      [{ ...ok, parts: [{ type: 'message', role: 'user', body: 'x'.repeat(20_001) }] }, /body/],
      [{ ...ok, parts: Array.from({ length: 201 }, () => ({ type: 'message', role: 'user', body: 'x' })) }, /parts/],
      [{ ...ok, parts: Array.from({ length: 11 }, () => ({ type: 'message', role: 'user', body: 'x'.repeat(19_000) })) }, /200000/],
      [{ ...ok, id: 'a'.repeat(201) }, /id/],
      [{ ...ok, id: 'with space' }, /id/],
      [{ ...ok, id: null }, /id/],
      [{ ...ok, subject: null }, /subject/],
      [{ ...ok, parts: [{ type: 'message', role: 'user', body: null }] }, /body/],
      [{ ...ok, metadata: { createdAt: 'yesterday' } }, /createdAt/],
      [{ ...ok, metadata: { url: 'javascript:alert(1)' } }, /url/],
      [{ ...ok, metadata: { attributes: { a: 1 } } }, /attributes/],
      [{ parts: ok.parts }, /id/],
      [{ conversations: [] }, /conversations/],
      [{ conversations: [ok, ok] }, /twice/],
      [{ conversations: Array.from({ length: 501 }, (_, i) => conversation(`b${i}`, ['x'])) }, /conversations/],
      [{ ...ok, conversations: [ok] }, /not both/],
    ] as [object, RegExp][])
      expectError(await ingest(body), 400, message);
    expect((await t.http.get(url('/conversations/bounds')).set(admin.auth)).status).toBe(404);
    expectError(await ingest(ok, reader), 403);
    expectError(await ingest(ok, outsider), 404);
    expectError(await t.http.get(url('/conversations')).set(outsider.auth), 404);
    expectError(await t.http.get(url('/conversations-clusters')).set(outsider.auth), 404);
    // the same id in another organization is another conversation
    await ingest(conversation('same-1', ['Elsewhere']), outsider, otherOrgId).expect(204);
    await allProcessed(otherOrgId, outsider);
    expect((await t.http.get(url('/conversations/same-1')).set(reader.auth).expect(200)).body.parts[0].body).not.toBe('Elsewhere');
    expectError(await t.http.get(`${url('/conversations-clusters')}?orderBy=size`).set(reader.auth), 400, /orderBy/);
    expectError(await t.http.get(`${url('/conversations-clusters')}?status=open`).set(reader.auth), 400, /status/);
  });

  it('agent instructions: members read (an empty document until set), admins write a JSON document', async () => {
    const empty = (await t.http.get(url('/agent-instructions')).set(reader.auth).expect(200)).body;
    expect(empty).toMatchObject({ object: 'agent-instructions', instructions: { object: 'document', nodes: [] }, updatedBy: '' });
    const instructions = markdownToDocument('Answer in a **friendly** tone.').document;
    const put = (await t.http.put(url('/agent-instructions')).set(admin.auth).send({ instructions }).expect(200)).body;
    expect(put).toMatchObject({
      object: 'agent-instructions',
      updatedBy: admin.id,
      urls: { location: expect.stringContaining('/agent-instructions') },
    });
    expect((await t.http.get(url('/agent-instructions')).set(reader.auth).expect(200)).body.instructions.nodes).toHaveLength(1);
    expectError(await t.http.put(url('/agent-instructions')).set(reader.auth).send({ instructions }), 403);
    expectError(
      await t.http
        .put(url('/agent-instructions'))
        .set(admin.auth)
        .send({ instructions: { hello: 1 } }),
      400,
      /instructions/,
    );
    expectError(await t.http.put(url('/agent-instructions')).set(admin.auth).send({ instructions: 'text' }), 400, /instructions/);
    expectError(await t.http.put(url('/agent-instructions')).set(admin.auth).send({}), 400, /instructions/);
    expectError(await t.http.get(url('/agent-instructions')).set(outsider.auth), 404);
  });

  it('a change request links to a cluster: the change request lists filter by it and the cluster counts it as a task', async () => {
    const clusters = (
      await t.http
        .get(`${url('/conversations-clusters')}?limit=1000&orderBy=issues`)
        .set(reader.auth)
        .expect(200)
    ).body.items;
    const cluster = clusters[0];
    const space = (await t.http.post(url('/spaces')).set(admin.auth).send({ title: 'Fixes' }).expect(201)).body.id as string;
    const cr = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Fix it' }).expect(201)).body;
    const linked = await t.http
      .patch(`/v1/spaces/${space}/change-requests/${cr.id}`)
      .set(admin.auth)
      .send({ conversationsIssuesCluster: cluster.id, status: 'open' })
      .expect(200);
    expect(linked.body.conversationsIssuesCluster).toBe(cluster.id);
    const inSpace = (
      await t.http.get(`/v1/spaces/${space}/change-requests?conversationsIssuesCluster=${cluster.id}`).set(reader.auth).expect(200)
    ).body;
    expect(inSpace.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect(
      (await t.http.get(`/v1/spaces/${space}/change-requests?conversationsIssuesCluster=${clusters[1].id}`).set(reader.auth).expect(200))
        .body.count,
    ).toBe(0);
    const inOrg = (
      await t.http
        .get(`${url('/change-requests')}?conversationsIssuesCluster=${cluster.id}`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(inOrg.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    t.clock.advance(60_000); // cluster lists are cached for the minute
    const counted = (
      await t.http
        .get(`${url('/conversations-clusters')}?limit=1000&orderBy=issues`)
        .set(reader.auth)
        .expect(200)
    ).body.items[0];
    expect(counted.stats).toMatchObject({ tasksTotal: 1, tasksStarted: 1, tasksBacklog: 0 });
    expectError(
      await t.http.patch(`/v1/spaces/${space}/change-requests/${cr.id}`).set(admin.auth).send({ conversationsIssuesCluster: 'nope' }),
      404,
      /cluster/,
    );
    await ingest(conversation('theirs', ['Search is broken']), outsider, otherOrgId).expect(204);
    await allProcessed(otherOrgId, outsider);
    const theirs = (await t.http.get(url('/conversations-clusters', otherOrgId)).set(outsider.auth).expect(200)).body.items[0].id;
    expectError(
      await t.http.patch(`/v1/spaces/${space}/change-requests/${cr.id}`).set(admin.auth).send({ conversationsIssuesCluster: theirs }),
      404,
      /cluster/,
    );
    const unlinked = await t.http
      .patch(`/v1/spaces/${space}/change-requests/${cr.id}`)
      .set(admin.auth)
      .send({ conversationsIssuesCluster: null })
      .expect(200);
    expect(unlinked.body.conversationsIssuesCluster).toBeUndefined();
  });
});
