import { DataSource } from 'typeorm';
import { DAY_MS } from '@app/shared-kernel';
import { SWEEP_QUEUE } from '@app/openapi-specs';
import { SWEEP_QUEUE as CONVERSATIONS_SWEEP } from '@app/conversations';
import { TRANSLATIONS_SWEEP_QUEUE } from '@app/translations';
import { WEBHOOKS_SWEEP_QUEUE } from '@app/audit-and-webhooks';
import { GIT_SYNC_SWEEP_QUEUE } from '@app/repository-sync';
import { COLLECT_QUEUE } from '@app/spaces-and-content';
import { INSIGHTS_PURGE_QUEUE } from '@app/site-insights';
import { IdentityService, INVITATION_SWEEP_QUEUE } from '@app/organizations-and-teams';
import { BootstrapService } from '../../apps/api/src/auth/bootstrap.service';
import { ConfigError } from '../../apps/api/src/config';
import { JobsService, PURGE_SPACES_QUEUE } from '../../apps/api/src/jobs/jobs.service';
import { createTestApp, TestApp } from '../support/app';

describe('background jobs on PostgreSQL (pg-boss)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ QUIRE_JOBS: 'on' });
  });
  afterAll(async () => t.close());

  it('schedules the purge and a queued purge removes spaces deleted 7 days ago', async () => {
    const ds = t.app.get(DataSource);
    const schedules = await ds.query('SELECT name, cron FROM pgboss.schedule ORDER BY name');
    expect(schedules).toEqual([
      { name: COLLECT_QUEUE, cron: '41 * * * *' },
      { name: CONVERSATIONS_SWEEP, cron: '* * * * *' },
      { name: GIT_SYNC_SWEEP_QUEUE, cron: '* * * * *' },
      // Invitation emails not sent a minute after they were written (docs/invitations.md).
      { name: INVITATION_SWEEP_QUEUE, cron: '* * * * *' },
      { name: SWEEP_QUEUE, cron: '* * * * *' },
      { name: PURGE_SPACES_QUEUE, cron: '*/15 * * * *' },
      // Site insights: events past the retention, and the visitor-hash salts of days that are over (hourly).
      { name: INSIGHTS_PURGE_QUEUE, cron: '7 * * * *' },
      { name: TRANSLATIONS_SWEEP_QUEUE, cron: '* * * * *' },
      { name: WEBHOOKS_SWEEP_QUEUE, cron: '* * * * *' },
    ]);

    const admin = await t.user('admin');
    const org = await t.organization(admin);
    const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title: 'Old' }).expect(201)).body;
    await t.http.delete(`/v1/spaces/${space.id}`).set(admin.auth).expect(205);
    t.clock.advance(7 * DAY_MS);

    await t.app.get(JobsService).enqueuePurge();
    const deadline = Date.now() + 20_000;
    let rows: unknown[] = [{}];
    while (Date.now() < deadline) {
      rows = await ds.query('SELECT id FROM spaces WHERE id = $1', [space.id]);
      if (rows.length === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(rows).toEqual([]);
  });
});

describe('first start', () => {
  let t: TestApp;
  afterAll(async () => t.close());

  it('creates an admin, an organization and the chosen token once; later starts do nothing', async () => {
    const token = 'bootstrap-token-for-automation-0001';
    t = await createTestApp({ QUIRE_BOOTSTRAP: 'on', QUIRE_BOOTSTRAP_TOKEN: token });
    const me = await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
    expect(me.body.email).toBe('admin@quire.local');
    const orgs = await t.http.get('/v1/orgs').set('Authorization', `Bearer ${token}`).expect(200);
    expect(orgs.body.count).toBe(1);
    expect(orgs.body.items[0].permissions.admin).toBe(true);
    expect(await t.app.get(BootstrapService).run()).toBeNull();
  });
});

describe('a weak chosen bootstrap token', () => {
  let a: TestApp;
  let later: TestApp | undefined;
  afterAll(async () => {
    await later?.close();
    await a?.close();
  });

  it('stops the first start before anything is created, with the reason; once the database is set up it is not used and starts go on', async () => {
    a = await createTestApp({ QUIRE_BOOTSTRAP: 'off' });
    const identity = a.app.get(IdentityService);
    const weak = 'admin-token-2026-please-change';
    const refused = await createTestApp({ QUIRE_BOOTSTRAP: 'on', QUIRE_BOOTSTRAP_TOKEN: weak }, { sharedDatabaseUrl: a.databaseUrl }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(/^QUIRE_BOOTSTRAP_TOKEN is too weak: 30 characters, at least 32 are needed/);
    expect(await identity.countUsers()).toBe(0);
    // A database set up before (a user exists): the variable is not used, so the start goes on.
    await a.user('someone');
    later = await createTestApp({ QUIRE_BOOTSTRAP: 'on', QUIRE_BOOTSTRAP_TOKEN: weak }, { sharedDatabaseUrl: a.databaseUrl });
    await later.http.get('/v1/user').set('Authorization', `Bearer ${weak}`).expect(401);
  });
});

describe('first start of several containers together', () => {
  let a: TestApp;
  let b: TestApp;
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('bootstraps once when two processes find the database empty at the same moment', async () => {
    a = await createTestApp({ QUIRE_BOOTSTRAP: 'off' });
    b = await createTestApp({ QUIRE_BOOTSTRAP: 'off' }, { sharedDatabaseUrl: a.databaseUrl });
    // Both count no users before either creates one: only one may go on.
    const runs = await Promise.all([a, b, a, b].map((t) => t.app.get(BootstrapService).run()));
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    const [counts] = await a.app
      .get(DataSource)
      .query<{ users: number; orgs: number; tokens: number }[]>(
        'SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS orgs, (SELECT count(*)::int FROM api_tokens) AS tokens',
      );
    expect(counts).toEqual({ users: 1, orgs: 1, tokens: 1 });
  });
});
