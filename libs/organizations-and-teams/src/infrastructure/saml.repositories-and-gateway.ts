import { Db, isoSortKey, keysetPage } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import type { CacheProvider, SAML } from '@node-saml/node-saml';
import { InvalidInputError, mapPage, Page, PageRequest, Role } from '@app/shared-kernel';
import {
  isConfigured,
  SamlGateway,
  SamlIdentity,
  SamlProvider,
  SamlProviderRepository,
  ServiceProviderUrls,
} from '../domain/saml-provider';
import { SsoIdentity, SsoIdentityRepository } from '../domain/sso-identity';

const REQUEST_TTL_MS = 10 * 60_000;

interface ProviderRow {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string | null;
  certificate: string | null;
  sso_url: string | null;
  default_team_id: string | null;
  default_role: string | null;
  status: string;
  created_at: Date;
  sort_key?: string;
}

function provider(r: ProviderRow): SamlProvider {
  return {
    id: r.id,
    organizationId: r.organization_id,
    label: r.label,
    entityID: r.entity_id,
    certificate: r.certificate,
    ssoURL: r.sso_url,
    defaultTeamId: r.default_team_id,
    defaultRole: r.default_role as Role | null,
    status: r.status as SamlProvider['status'],
    createdAt: r.created_at,
  };
}

@Injectable()
export class SqlSamlProviderRepository extends SamlProviderRepository {
  constructor(private readonly db: Db) {
    super();
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<SamlProvider>> {
    const base = `SELECT p.*, ${isoSortKey('p.created_at')} AS sort_key
      FROM saml_providers p WHERE p.organization_id = $1`;
    const rows = await keysetPage<ProviderRow>(
      this.db,
      base,
      [organizationId],
      { columns: ['q.sort_key', 'q.id'], shape: ['text', 'text'], keyOf: (r) => [r.sort_key!, r.id] },
      page,
    );
    return mapPage(rows, provider);
  }
  async listAll(organizationId: string): Promise<SamlProvider[]> {
    const rows: ProviderRow[] = await this.db.query('SELECT * FROM saml_providers WHERE organization_id = $1 ORDER BY created_at, id', [
      organizationId,
    ]);
    return rows.map(provider);
  }
  async find(organizationId: string, id: string): Promise<SamlProvider | null> {
    const rows: ProviderRow[] = await this.db.query('SELECT * FROM saml_providers WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
    ]);
    return rows.length ? provider(rows[0]) : null;
  }
  async findById(id: string): Promise<SamlProvider | null> {
    const rows: ProviderRow[] = await this.db.query('SELECT * FROM saml_providers WHERE id = $1', [id]);
    return rows.length ? provider(rows[0]) : null;
  }
  async insert(p: SamlProvider): Promise<void> {
    await this.db.query(
      `INSERT INTO saml_providers (id, organization_id, label, entity_id, certificate, sso_url, default_team_id, default_role, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [p.id, p.organizationId, p.label, p.entityID, p.certificate, p.ssoURL, p.defaultTeamId, p.defaultRole, p.status, p.createdAt],
    );
  }
  async update(p: SamlProvider): Promise<void> {
    await this.db.query(
      `UPDATE saml_providers SET label = $3, entity_id = $4, certificate = $5, sso_url = $6, default_team_id = $7, default_role = $8, status = $9
       WHERE organization_id = $1 AND id = $2`,
      [p.organizationId, p.id, p.label, p.entityID, p.certificate, p.ssoURL, p.defaultTeamId, p.defaultRole, p.status],
    );
  }
  async delete(organizationId: string, id: string): Promise<boolean> {
    const affected = await this.db.execute('DELETE FROM saml_providers WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return affected > 0;
  }
  async rememberAssertion(providerId: string, assertionId: string, until: Date): Promise<boolean> {
    await this.db.query('DELETE FROM saml_assertions WHERE expires_at < now()');
    const rows: unknown[] = await this.db.query(
      'INSERT INTO saml_assertions (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING assertion_id',
      [providerId, assertionId, until],
    );
    return rows.length === 1;
  }
}

@Injectable()
export class SqlSsoIdentityRepository extends SsoIdentityRepository {
  constructor(private readonly db: Db) {
    super();
  }
  async find(providerId: string, nameId: string): Promise<SsoIdentity | null> {
    const rows: { user_id: string; organization_id: string; created_at: Date }[] = await this.db.query(
      'SELECT user_id, organization_id, created_at FROM sso_identities WHERE provider_id = $1 AND name_id = $2',
      [providerId, nameId],
    );
    return rows.length
      ? { providerId, nameId, userId: rows[0].user_id, organizationId: rows[0].organization_id, createdAt: rows[0].created_at }
      : null;
  }
  async insert(i: SsoIdentity): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO sso_identities (provider_id, name_id, user_id, organization_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING name_id`,
      [i.providerId, i.nameId, i.userId, i.organizationId, i.createdAt],
    );
    return rows.length === 1;
  }
}

/**
 * node-saml's cache of the AuthnRequests we sent, in PostgreSQL (so any API process can receive the
 * response): InResponseTo must name a request of this provider younger than 10 minutes, and only once.
 */
class PgRequestCache implements CacheProvider {
  constructor(
    private readonly db: Db,
    private readonly providerId: string,
  ) {}
  async saveAsync(key: string, value: string) {
    await this.db.query('INSERT INTO saml_requests (id, provider_id, created_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING', [
      key,
      this.providerId,
    ]);
    return { value, createdAt: Date.now() };
  }
  async getAsync(key: string): Promise<string | null> {
    const rows: { created_at: Date }[] = await this.db.query(
      `SELECT created_at FROM saml_requests WHERE id = $1 AND provider_id = $2 AND created_at > now() - ($3 || ' milliseconds')::interval`,
      [key, this.providerId, String(REQUEST_TTL_MS)],
    );
    return rows.length ? rows[0].created_at.toISOString() : null;
  }
  async removeAsync(key: string | null): Promise<string | null> {
    if (key === null) return null;
    const rows: { id: string }[] = await this.db.query('DELETE FROM saml_requests WHERE id = $1 RETURNING id', [key]);
    return rows.length ? key : null;
  }
}

function firstString(v: unknown): string | null {
  if (typeof v === 'string' && v.trim()) return v.trim();
  if (Array.isArray(v)) return firstString(v[0]);
  return null;
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  'urn:oid:2.16.840.1.113730.3.1.241',
];

/**
 * The SAML protocol through @node-saml/node-saml, loaded on first use (with its XML stack, ~10 MB of a process
 * that may never see a SAML login).
 */
@Injectable()
export class NodeSamlGateway extends SamlGateway {
  private library?: Promise<typeof import('@node-saml/node-saml')>;

  constructor(private readonly db: Db) {
    super();
  }

  private async saml(p: SamlProvider, sp: ServiceProviderUrls): Promise<SAML> {
    if (!isConfigured(p))
      throw new InvalidInputError('This SAML provider is not fully configured (entityID, certificate and ssoURL are needed)');
    const { SAML, ValidateInResponseTo } = await (this.library ??= import('@node-saml/node-saml'));
    return new SAML({
      callbackUrl: sp.acsURL,
      entryPoint: p.ssoURL,
      issuer: sp.entityID,
      audience: sp.entityID,
      idpCert: p.certificate,
      idpIssuer: p.entityID,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider: new PgRequestCache(this.db, p.id),
      acceptedClockSkewMs: 60_000,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      disableRequestedAuthnContext: true,
    });
  }

  async authorizeUrl(p: SamlProvider, sp: ServiceProviderUrls, relayState: string): Promise<string> {
    return (await this.saml(p, sp)).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  async verify(p: SamlProvider, sp: ServiceProviderUrls, samlResponse: string): Promise<SamlIdentity> {
    const saml = await this.saml(p, sp);
    let result: Awaited<ReturnType<SAML['validatePostResponseAsync']>>;
    try {
      result = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    } catch (e) {
      throw new InvalidInputError(`SAML response refused: ${e instanceof Error ? e.message : String(e)}`);
    }
    const profile = result.profile;
    if (!profile) throw new InvalidInputError('SAML response refused: it carries no assertion');
    const attrs = profile as unknown as Record<string, unknown>;
    const email =
      EMAIL_ATTRIBUTES.map((a) => firstString(attrs[a])).find(Boolean) ?? (profile.nameID?.includes('@') ? profile.nameID : null);
    if (!email) throw new InvalidInputError('SAML response refused: no email address (NameID or an email attribute)');
    const nameID = profile.nameID?.trim();
    if (!nameID) throw new InvalidInputError('SAML response refused: the assertion has no NameID');
    if (nameID.length > 1024) throw new InvalidInputError('SAML response refused: the NameID is longer than 1024 characters');
    const assertion = profile.getAssertion?.() as
      { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } } | undefined;
    const assertionId = assertion?.Assertion?.$?.ID;
    if (!assertionId) throw new InvalidInputError('SAML response refused: the assertion has no ID');
    const notOnOrAfter = assertion?.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter;
    const validUntil = notOnOrAfter ? new Date(notOnOrAfter) : new Date(Date.now() + 24 * 3600_000);
    return { nameID, email, displayName: NAME_ATTRIBUTES.map((a) => firstString(attrs[a])).find(Boolean) ?? null, assertionId, validUntil };
  }

  async metadata(p: SamlProvider, sp: ServiceProviderUrls): Promise<string> {
    return (await this.saml(p, sp)).generateServiceProviderMetadata(null, null);
  }
}
