import type { Page, PageRequest, Role } from '@app/shared-kernel';

export const SAML_LABEL_MAX = 30;
export const SAML_ENTITY_ID_MAX = 1024;
export const SAML_CERTIFICATE_MAX = 10_000;
export const SAML_SSO_URL_MAX = 2048;

export type SamlProviderStatus = 'pending' | 'active';

/** An organization's SAML identity provider. */
export interface SamlProvider {
  id: string;
  organizationId: string;
  label: string;
  /** The IdP's entity id (the Issuer of its responses). */
  entityID: string | null;
  /** The IdP's signing certificate (X.509 PEM). */
  certificate: string | null;
  /** The IdP's single sign-on URL (HTTP-Redirect binding). */
  ssoURL: string | null;
  defaultTeamId: string | null;
  defaultRole: Role | null;
  status: SamlProviderStatus;
  createdAt: Date;
}

export interface SamlProviderPatch {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeamId?: string | null;
  defaultRole?: Role | null;
}

/** Everything a login needs is there. */
export function isConfigured(p: SamlProvider): p is SamlProvider & { entityID: string; certificate: string; ssoURL: string } {
  return !!p.entityID && !!p.certificate && !!p.ssoURL;
}

/**
 * `pending` until the provider is fully configured and has completed a login, then `active`.
 * Changing what a login depends on (entity id, certificate, SSO URL) makes it pending again.
 */
export function applySamlPatch(p: SamlProvider, patch: SamlProviderPatch): SamlProvider {
  const next: SamlProvider = { ...p };
  for (const key of ['label', 'entityID', 'certificate', 'ssoURL', 'defaultTeamId', 'defaultRole'] as const) {
    if (patch[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = patch[key];
  }
  const loginChanged = (['entityID', 'certificate', 'ssoURL'] as const).some((k) => patch[k] !== undefined && patch[k] !== p[k]);
  if (loginChanged || !isConfigured(next)) next.status = 'pending';
  return next;
}

/** What a verified SAML assertion says about the person. */
export interface SamlIdentity {
  /** The subject's NameID at the IdP: with the provider, the identity an SSO login is linked by. */
  nameID: string;
  email: string;
  displayName: string | null;
  assertionId: string;
  /** When the assertion stops being valid: it is remembered until then, to refuse replays. */
  validUntil: Date;
}

export abstract class SamlProviderRepository {
  abstract list(organizationId: string, page: PageRequest): Promise<Page<SamlProvider>>;
  abstract listAll(organizationId: string): Promise<SamlProvider[]>;
  abstract find(organizationId: string, id: string): Promise<SamlProvider | null>;
  /** For the public login endpoints, which know only the provider id. */
  abstract findById(id: string): Promise<SamlProvider | null>;
  abstract insert(p: SamlProvider): Promise<void>;
  abstract update(p: SamlProvider): Promise<void>;
  abstract delete(organizationId: string, id: string): Promise<boolean>;
  /** Records an accepted assertion; false when it was seen before (a replay). */
  abstract rememberAssertion(providerId: string, assertionId: string, until: Date): Promise<boolean>;
}

/** The SAML protocol (signature, audience, time conditions, InResponseTo), behind a port. */
export abstract class SamlGateway {
  /** The IdP URL to redirect the browser to, carrying a new AuthnRequest (HTTP-Redirect binding). */
  abstract authorizeUrl(provider: SamlProvider, sp: ServiceProviderUrls, relayState: string): Promise<string>;
  /** Verifies a POSTed SAMLResponse; throws InvalidInputError with the reason when it is not acceptable. */
  abstract verify(provider: SamlProvider, sp: ServiceProviderUrls, samlResponse: string): Promise<SamlIdentity>;
  abstract metadata(provider: SamlProvider, sp: ServiceProviderUrls): Promise<string>;
}

/** Quire's own endpoints for one provider (the `service` member of the provider). */
export interface ServiceProviderUrls {
  acsURL: string;
  startURL: string;
  entityID: string;
}
