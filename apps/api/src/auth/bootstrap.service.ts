import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { IdentityService, OrganizationsService, SessionsService } from '@app/organizations-and-teams';
import { signInLink } from './sign-in-link';
import { Db } from '@app/persistence';
import { QUIRE_CONFIG } from '../tokens';
import { bootstrapTokenWeakness, ConfigError, type QuireConfig } from '../config';

/**
 * On the first start against an empty database: creates an admin user, an organization and a token,
 * and prints the token once (QUIRE_BOOTSTRAP_TOKEN chooses it). Does nothing once a user exists.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly identity: IdentityService,
    private readonly organizations: OrganizationsService,
    private readonly sessions: SessionsService,
    private readonly db: Db,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.bootstrap) return;
    const weakness = this.config.bootstrapToken === null ? null : bootstrapTokenWeakness(this.config.bootstrapToken);
    // A weak chosen token stops the first start (before anything is created); later it is not used: a warning.
    if (weakness && (await this.identity.countUsers()) === 0) throw new ConfigError(weakness);
    if (weakness)
      this.logger.warn(`${weakness} (not used: the database is set up; unset it, and revoke the bootstrap token if it is this one)`);
    const result = await this.run();
    if (result) {
      const lines = [
        '',
        '================ Quire first start ================',
        `Admin user:    ${result.email}`,
        `Organization:  ${result.organizationId}`,
        result.chosen ? 'API token:     (the one set in QUIRE_BOOTSTRAP_TOKEN)' : `API token:     ${result.token}`,
        `Sign in:       ${signInLink(this.config, result.link)}`,
        'Keep the token: it is shown only this once. The sign-in link works once, for 24 hours',
        '(npm run cli -- user:sign-in-link --user admin@quire.local makes another).',
        '====================================================',
        '',
      ];
      process.stdout.write(lines.join('\n') + '\n');
    }
  }

  /**
   * Returns what was created, or null when the database already has users. Containers starting together
   * on an empty database take turns (a transaction-scoped advisory lock): the first creates, the others
   * then count its user and do nothing. All three rows commit together or not at all.
   */
  async run(): Promise<{ email: string; organizationId: string; token: string; link: string; chosen: boolean } | null> {
    if ((await this.identity.countUsers()) > 0) return null; // the usual case, without a lock
    const created = await this.db.transaction(async () => {
      await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('quire:bootstrap'))`);
      if ((await this.identity.countUsers()) > 0) return null;
      const user = await this.identity.createUser({ email: 'admin@quire.local', displayName: 'Administrator' });
      const org = await this.organizations.createFor(user.id, 'My organization');
      const { token } = await this.identity.issueToken(user.id, { label: 'bootstrap', chosen: this.config.bootstrapToken ?? undefined });
      const link = await this.sessions.issueLink(user.id);
      return { email: user.email, organizationId: org.organization.id, token, link: link.token, userId: user.id };
    });
    if (!created) return null;
    this.logger.log(`created admin user ${created.userId} and organization ${created.organizationId}`);
    return {
      email: created.email,
      organizationId: created.organizationId,
      token: created.token,
      link: created.link,
      chosen: this.config.bootstrapToken !== null,
    };
  }
}
