import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { IdentityService, OrganizationsService, SessionsService } from '@app/organizations-and-teams';
import { Clock, isRole, ROLES, UnitOfWork } from '@app/shared-kernel';
import { AuditLog, AuditTarget, WebhooksService } from '@app/audit-and-webhooks';
import { userInfo } from 'node:os';
import { Collector, fileStorageFor, SpacesService } from '@app/spaces-and-content';
import { readGitbookRepository } from '@app/content-model';
import { GitSyncService, RepositoryExport, RepositoryImport, repositorySource, writeRepositoryFolder } from '@app/repository-sync';
import { ConversationProcessing } from '@app/conversations';
import { SiteRepositoryImport, SitesService } from '@app/sites-and-publishing';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './config';
import { EmbeddedPostgresHandle, runningEmbeddedUrl, startEmbeddedPostgres } from './database/embedded-postgres';
import { migrate } from './database/migrate';
import { keyFilePath, rotateSecrets } from './secrets';
import { signInLink } from './auth/sign-in-link';
import { backup, restore } from './database/backup';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const USAGE = `Quire administration CLI — npm run cli -- <command> [options]

  user:create   --email <email> [--name <display name>]
  org:create    --title <title> --owner <user id or email>
  member:add    --org <organization id> --user <user id or email> --role <${ROLES.join('|')}|guest>
  token:create  --user <user id or email> [--label <label>] [--expires-in-days <n>]
  token:list    --user <user id or email>
  token:revoke  --id <token id>
  user:sign-in-link --user <user id or email>
                a one-time link that signs the user in to the web app (good for 24 hours, once)
  import        --space <space id> --user <user id or email> --dir <folder or .zip> [--project <folder inside it>]
                a GitBook repository (Git Sync layout) into the space as one change request, written by the user
  export        --space <space id> --user <user id or email> --dir <new or empty folder>
                the space's main content written in GitBook's repository layout (SUMMARY.md, pages, assets)
  site:import   --org <organization id> --user <user id or email> --url <repository URL> --ref <refs/heads/…>
                [--site <site id>] [--project <folder inside it>]
                a whole site from the repository's gitbook-docs.yaml (or docs.yaml): its sections and spaces,
                each space connected to its folder; a new site without --site. The spaces' imports run as jobs
                of the running server
  spaces:purge  remove spaces deleted 7 days ago or more, now
  conversations:recluster --org <organization id>
                cluster the organization's conversations again from scratch, swapped in at once (the
                sweep does this by itself for organizations an older clustering algorithm clustered)
  gc            one run of the collector: page bodies and file bytes nothing references are marked, and those
                marked QUIRE_GC_GRACE_HOURS ago and still unreferenced removed (at most QUIRE_GC_BATCH of each)
  secrets:rotate  seal every stored secret (webhook secrets) under a new key: without QUIRE_SECRET_KEY a new
                key is added to QUIRE_DATA_DIR/secret.keys; with it, set the new key there and the old one in
                QUIRE_SECRET_KEY_PREVIOUS first (docs/deployment.md)
  migrate       apply pending database migrations
  backup <file> one consistent snapshot of the database and of the file bytes it references, while the API
                runs (and the data dir's secret.keys when QUIRE_SECRET_KEY is not set): a gzipped tar
  restore <file>  a backup into an empty database (a new QUIRE_DATA_DIR, or an empty DATABASE_URL) and the
                configured file storage; then the migrations this version has beyond the backup's

Uses DATABASE_URL, or the embedded PostgreSQL of QUIRE_DATA_DIR (the running one, if \`npm start\` is up).`;

class UsageError extends Error {}

/** Who ran the CLI, as the operating system knows them (the audit event's actor label). */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

function need(values: Record<string, string | undefined>, name: string): string {
  const v = values[name];
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: command === 'backup' || command === 'restore',
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      title: { type: 'string' },
      owner: { type: 'string' },
      org: { type: 'string' },
      user: { type: 'string' },
      role: { type: 'string' },
      label: { type: 'string' },
      'expires-in-days': { type: 'string' },
      id: { type: 'string' },
      space: { type: 'string' },
      dir: { type: 'string' },
      project: { type: 'string' },
      file: { type: 'string' },
      site: { type: 'string' },
      url: { type: 'string' },
      ref: { type: 'string' },
    },
    strict: true,
  });

  const config = { ...loadConfig(), jobs: false, bootstrap: false, logLevel: 'error' as const };
  let embedded: EmbeddedPostgresHandle | null = null;
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
    url = embedded.url;
  }
  const storage = () => fileStorageFor({ s3: config.s3 }, { path: join(config.dataDir, 'files') });
  try {
    if (command === 'backup') {
      const file = positionals[0] ?? values.file;
      if (!file) throw new UsageError('backup needs the file to write: npm run cli -- backup <file>');
      // The data dir's key (when no QUIRE_SECRET_KEY is set) seals the stored secrets: it goes along.
      const keyFile = keyFilePath(config.dataDir);
      const keys = !config.secretKey && existsSync(keyFile) ? [{ name: 'secret.keys', data: readFileSync(keyFile) }] : [];
      const summary = await backup(url, storage(), file, keys);
      process.stdout.write(`${JSON.stringify({ file, ...summary, tables: summary.tables.length, keys: keys.map((k) => k.name) })}\n`);
      if (summary.missing.length) process.stderr.write(`${summary.missing.length} file(s) were missing from the store already\n`);
      return 0;
    }
    if (command === 'restore') {
      const file = positionals[0] ?? values.file;
      if (!file) throw new UsageError('restore needs the backup to read: npm run cli -- restore <file>');
      const keyFile = keyFilePath(config.dataDir);
      const summary = await restore(file, url, storage(), (name, data) => {
        if (name !== 'secret.keys' || config.secretKey) return;
        if (existsSync(keyFile)) throw new UsageError(`${keyFile} exists already: restore into a new data dir`);
        mkdirSync(config.dataDir, { recursive: true });
        writeFileSync(keyFile, data, { mode: 0o600 });
      });
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      return 0;
    }
    if (command === 'migrate') {
      const applied = await migrate(url);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date\n');
      return 0;
    }
    await migrate(url);
    const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, url), { logger: ['error'] });
    try {
      const identity = app.get(IdentityService);
      const organizations = app.get(OrganizationsService);
      const uow = app.get(UnitOfWork);
      const audit = app.get(AuditLog);
      const clock = app.get(Clock);
      // Every write of the CLI records its audit event in the write's own transaction (actor: the system, source: script).
      const audited = <T>(action: string, work: () => Promise<{ result: T; organizationId: string | null; target: AuditTarget }>) =>
        uow.run(async () => {
          const { result, organizationId, target } = await work();
          await audit.record({
            organizationId,
            occurredAt: clock.now(),
            action: `cli.${action}`,
            actor: { type: 'system', id: 'cli', label: operatorName() },
            tokenId: null,
            source: 'script',
            target,
            clientAddress: null,
            requestId: null,
            payload: { command: command },
          });
          return result;
        });
      const resolveUser = async (ref: string) => {
        const user = ref.includes('@') ? await identity.findUserByEmail(ref) : await identity.getUser(ref);
        if (!user) throw new UsageError(`no user ${ref}`);
        return user;
      };
      switch (command) {
        case 'user:create': {
          const email = need(values, 'email');
          const user = await audited('user-create', async () => {
            const u = await identity.createUser({ email, displayName: values.name });
            return { result: u, organizationId: null, target: { type: 'user', id: u.id, label: u.email } };
          });
          process.stdout.write(`${JSON.stringify({ id: user.id, email: user.email, displayName: user.displayName })}\n`);
          return 0;
        }
        case 'org:create': {
          const owner = await resolveUser(need(values, 'owner'));
          const title = need(values, 'title');
          const view = await audited('org-create', async () => {
            const v = await organizations.createFor(owner.id, title);
            return { result: v, organizationId: v.organization.id, target: { type: 'organization', id: v.organization.id, label: title } };
          });
          process.stdout.write(`${JSON.stringify({ id: view.organization.id, title: view.organization.title, admin: owner.id })}\n`);
          return 0;
        }
        case 'member:add': {
          const given = need(values, 'role');
          if (!isRole(given) && given !== 'guest') throw new UsageError(`--role must be one of ${ROLES.join(', ')}, guest`);
          const role = given === 'guest' ? null : given; // a guest: no role, only what is shared with them
          const user = await resolveUser(need(values, 'user'));
          const org = need(values, 'org');
          await audited('member-add', async () => {
            await organizations.addMember(org, user.id, role);
            return { result: null, organizationId: org, target: { type: 'user', id: user.id, label: user.email } };
          });
          process.stdout.write(`${JSON.stringify({ organization: values.org, user: user.id, role })}\n`);
          return 0;
        }
        case 'token:create': {
          const user = await resolveUser(need(values, 'user'));
          const days = values['expires-in-days'];
          if (days !== undefined && !(Number.isInteger(Number(days)) && Number(days) > 0))
            throw new UsageError('--expires-in-days must be a positive integer');
          const expiresAt = days ? new Date(Date.now() + Number(days) * 86_400_000) : null;
          const { token, record } = await audited('token-create', async () => {
            const issued = await identity.issueToken(user.id, { label: values.label, expiresAt });
            return { result: issued, organizationId: null, target: { type: 'api-token', id: issued.record.id } };
          });
          process.stdout.write(`${JSON.stringify({ id: record.id, token, prefix: record.prefix, expiresAt: record.expiresAt })}\n`);
          process.stderr.write('The token is shown only this once.\n');
          return 0;
        }
        case 'user:sign-in-link': {
          const user = await resolveUser(need(values, 'user'));
          const sessions = app.get(SessionsService);
          const link = await audited('user-sign-in-link', async () => {
            const issued = await sessions.issueLink(user.id);
            return { result: issued, organizationId: null, target: { type: 'user', id: user.id, label: user.email } };
          });
          process.stdout.write(`${JSON.stringify({ user: user.id, link: signInLink(config, link.token), expiresAt: link.expiresAt })}\n`);
          process.stderr.write('The link works once; anyone who has it can sign in as this user until then.\n');
          return 0;
        }
        case 'token:list': {
          const user = await resolveUser(need(values, 'user'));
          for (const t of await identity.listTokens(user.id)) {
            process.stdout.write(
              `${JSON.stringify({ id: t.id, label: t.label, prefix: t.prefix, createdAt: t.createdAt, expiresAt: t.expiresAt, revokedAt: t.revokedAt })}\n`,
            );
          }
          return 0;
        }
        case 'token:revoke': {
          const id = need(values, 'id');
          const t = await audited('token-revoke', async () => {
            const revoked = await identity.revokeToken(id);
            return { result: revoked, organizationId: null, target: { type: 'api-token', id } };
          });
          process.stdout.write(`${JSON.stringify({ id: t.id, revokedAt: t.revokedAt })}\n`);
          process.stderr.write('Revoked. Running API processes stop accepting it at once (they are notified through PostgreSQL).\n');
          return 0;
        }
        case 'import': {
          const user = await resolveUser(need(values, 'user'));
          const spaceId = need(values, 'space');
          const files = repositorySource(need(values, 'dir'));
          const repo = readGitbookRepository(files, { projectDirectory: values.project });
          const result = await app.get(RepositoryImport).import({ userId: user.id, tokenId: 'cli' }, spaceId, repo, (p) => files.bytes(p));
          if (!result.changeRequest) {
            process.stdout.write(
              `${JSON.stringify({ changeRequest: null, pages: 0, files: 0, missing: result.missing, notes: result.notes })}\n`,
            );
            process.stderr.write('Nothing to import: the space already holds what the repository does.\n');
            return 0;
          }
          const cr = result.changeRequest.changeRequest;
          await audited('import', () =>
            Promise.resolve({
              result: null,
              organizationId: cr.organizationId,
              target: { type: 'change-request', id: cr.id, label: `#${cr.number}` },
            }),
          );
          process.stdout.write(
            `${JSON.stringify({ changeRequest: cr.id, number: cr.number, pages: result.pages, files: result.files, missing: result.missing, notes: result.notes })}\n`,
          );
          return 0;
        }
        case 'export': {
          const user = await resolveUser(need(values, 'user'));
          const out = await app.get(RepositoryExport).export({ userId: user.id, tokenId: 'cli' }, need(values, 'space'));
          const written = writeRepositoryFolder(need(values, 'dir'), out.text, out.assets);
          process.stdout.write(`${JSON.stringify({ files: written, missing: out.missing })}\n`);
          return 0;
        }
        case 'site:import': {
          const user = await resolveUser(need(values, 'user'));
          const org = need(values, 'org');
          const [url, ref] = [need(values, 'url'), need(values, 'ref')];
          const actor = { userId: user.id, tokenId: 'cli' };
          const sites = app.get(SitesService);
          const siteId = values.site ?? (await sites.create(actor, org, { title: 'Imported site' })).site.id;
          let result;
          try {
            result = await app.get(SiteRepositoryImport).import(actor, org, siteId, { url, ref, repoProjectDirectory: values.project });
          } catch (e) {
            // A site made for this import does not outlive it.
            if (!values.site) await sites.delete(actor, org, siteId);
            throw e;
          }
          await audited('site-import', () =>
            Promise.resolve({ result: null, organizationId: org, target: { type: 'site', id: siteId, label: result.configPath } }),
          );
          process.stdout.write(`${JSON.stringify({ site: siteId, ...result })}\n`);
          return 0;
        }
        case 'spaces:purge': {
          const n = await audited('spaces-purge', async () => {
            const purged = await app.get(SpacesService).purgeExpired();
            return { result: purged, organizationId: null, target: { type: 'spaces', id: 'deleted-7-days-ago' } };
          });
          process.stdout.write(`${JSON.stringify({ purged: n })}\n`);
          return 0;
        }
        case 'conversations:recluster': {
          // After a change of the clustering algorithm (the sweep also does it by itself, in the background).
          const n = await app.get(ConversationProcessing).recluster(need(values, 'org'));
          process.stdout.write(`${JSON.stringify({ organization: values.org, conversations: n })}\n`);
          return 0;
        }
        case 'gc': {
          // One run of the collector (the hourly job does the same): marks, and removes what the grace period let go.
          const collected = await app.get(Collector).collect();
          process.stdout.write(`${JSON.stringify(collected)}\n`);
          return 0;
        }
        case 'secrets:rotate': {
          const rotated = await audited('secrets-rotate', async () => {
            const r = await rotateSecrets(
              config,
              async () => (await app.get(WebhooksService).resealSecrets()) + (await app.get(GitSyncService).resealSecrets()),
            );
            return { result: r, organizationId: null, target: { type: 'secret-key', id: r.keyId } };
          });
          process.stdout.write(`${JSON.stringify(rotated)}\n`);
          return 0;
        }
        default:
          throw new UsageError(`unknown command "${command}"`);
      }
    } finally {
      await app.close();
    }
  } finally {
    await embedded?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || e instanceof ConfigError) process.stderr.write(`${e.message}\n\n${USAGE}\n`);
    else process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
