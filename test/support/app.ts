import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { IdentityService, OrganizationsService } from '@app/organizations-and-teams';
import { Clock, FixedClock, Role } from '@app/shared-kernel';
import { AppModule } from '../../apps/api/src/app.module';
import { loadConfig, QuireConfig } from '../../apps/api/src/config';
import { answerUnknownPaths, configureApp, envelopeClientErrors } from '../../apps/api/src/create-app';
import { QuireExpressAdapter } from '../../apps/api/src/http/express-adapter';
import { createRootLogger } from '../../apps/api/src/http/logger';
import { createTestDatabase } from './database';

/** A QUIRE_SECRET_KEY for tests that run several processes on one database (each with a data dir of its own). */
export const SHARED_SECRET_KEY = randomBytes(32).toString('base64');

export interface TestUser {
  id: string;
  email: string;
  token: string;
  auth: { Authorization: string };
}

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  clock: FixedClock;
  databaseUrl: string;
  config: QuireConfig;
  /** A new user with a token. */
  user(name?: string): Promise<TestUser>;
  /** A new organization administered by `owner`; returns its id. */
  organization(owner: TestUser, title?: string): Promise<string>;
  /** Makes `user` a member of the organization with `role`. */
  member(organizationId: string, user: TestUser, role: Role | null): Promise<void>;
  close(): Promise<void>;
}

let seq = 0;

/** Boots the real app (all modules, guards, filters, pipes) on a fresh PostgreSQL database. */
export async function createTestApp(env: Record<string, string> = {}, options: { sharedDatabaseUrl?: string } = {}): Promise<TestApp> {
  // A second app on another app's database (several API processes on one PostgreSQL): it drops nothing.
  const db = options.sharedDatabaseUrl ? { url: options.sharedDatabaseUrl, drop: async () => undefined } : await createTestDatabase();
  const config = loadConfig({
    QUIRE_DATA_DIR: `.test-data/app-${process.pid}-${++seq}`,
    LOG_LEVEL: 'silent',
    QUIRE_JOBS: 'off',
    QUIRE_BOOTSTRAP: 'off',
    QUIRE_RATE_LIMIT_PER_MINUTE: '0',
    PUBLIC_URL: 'http://quire.test',
    ...env,
  });
  const clock = new FixedClock(new Date('2026-03-01T10:00:00.000Z'));
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, db.url)] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new QuireExpressAdapter(), { bodyParser: false });
  configureApp(app, config, createRootLogger('silent'));
  envelopeClientErrors(app.getHttpServer());
  try {
    await app.init();
  } catch (e) {
    // A start that fails (a refused configuration) leaves nothing behind: listeners, pools, its database.
    await app.close().catch(() => undefined);
    await db.drop().catch(() => undefined);
    throw e;
  }
  answerUnknownPaths(app);
  // Listening once (on loopback), every request of a test has the same Host, as a browser's would: what the
  // front door keeps by Host is found again (supertest would otherwise listen anew on another port each time).
  await app.listen(0, '127.0.0.1');
  const identity = app.get(IdentityService);
  const organizations = app.get(OrganizationsService);
  return {
    app,
    http: request(app.getHttpServer()),
    clock,
    databaseUrl: db.url,
    config,
    async user(name = 'user') {
      seq += 1;
      const u = await identity.createUser({ email: `${name}.${seq}.${Date.now()}@example.com`, displayName: name });
      const { token } = await identity.issueToken(u.id);
      return { id: u.id, email: u.email, token, auth: { Authorization: `Bearer ${token}` } };
    },
    async organization(owner, title = 'Acme Docs') {
      const view = await organizations.createFor(owner.id, title);
      return view.organization.id;
    },
    async member(organizationId, user, role) {
      await organizations.addMember(organizationId, user.id, role);
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
